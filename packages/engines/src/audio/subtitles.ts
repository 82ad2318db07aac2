import { toSrt as srtOfCues, toVtt as vttOfCues } from '@vw/contract';

export { srtTime } from '@vw/contract';

/** A cue as the engines time it (camelCase); the writers themselves live in the contract. */
export interface Cue {
  startMs: number;
  endMs: number;
  text: string;
}

const timed = (cues: Cue[]) => cues.map((c) => ({ start_ms: c.startMs, end_ms: c.endMs, text: c.text }));

/** One line per cue: synthesised sentences carry no line breaks of their own. */
export const toSrt = (cues: Cue[]) => srtOfCues(timed(cues), { singleLine: true });
export const toVtt = (cues: Cue[]) => vttOfCues(timed(cues), { singleLine: true });
