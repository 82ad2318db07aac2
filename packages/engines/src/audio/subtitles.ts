import { formatTime } from '@vw/contract';

export interface Cue {
  startMs: number;
  endMs: number;
  text: string;
}

/** `hh:mm:ss,mmm` — SRT wants a comma before the milliseconds. */
export const srtTime = (ms: number) => formatTime(ms).replace('.', ',');

const clean = (text: string) => text.replace(/\r?\n+/g, ' ').trim();

export function toSrt(cues: Cue[]): string {
  return cues
    .filter((c) => clean(c.text))
    .map((c, i) => `${i + 1}\n${srtTime(c.startMs)} --> ${srtTime(c.endMs)}\n${clean(c.text)}\n`)
    .join('\n');
}

export function toVtt(cues: Cue[]): string {
  const body = cues
    .filter((c) => clean(c.text))
    .map((c) => `${formatTime(c.startMs)} --> ${formatTime(c.endMs)}\n${clean(c.text)}\n`)
    .join('\n');
  return `WEBVTT\n\n${body}`;
}
