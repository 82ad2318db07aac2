import { speakerPrefix, withoutDialogueDashes } from '@vw/contract/helpers/speakers.ts';

/** A subtitle file read in the browser, sent as text with the create call. */
export interface SubtitleFile {
  name: string;
  text: string;
  cues: number;
  speakers: string[];
}

/**
 * Reads an SRT / VTT / ASS file in the browser: its text, how many cues, which speakers its lines
 * name (the same rule as the import: `名字：` / `[名字]` labels, never a clause such as 她说：).
 */
export async function readSubtitle(file: File): Promise<SubtitleFile> {
  const text = await file.text();
  const cues = (text.match(/-->/g) ?? []).length + (text.match(/^Dialogue:/gm) ?? []).length;
  const speakers = new Set<string>();
  for (const line of withoutDialogueDashes(text.replace(/\r\n?/g, '\n')).split('\n')) {
    if (/-->|^\d+$|^WEBVTT|^Dialogue:/.test(line.trim())) continue;
    const label = speakerPrefix(line.replace(/^\s*[[【]\s*(?:静音|mute|保留原声|keep)\s*[\]】]/i, ''));
    if (label) speakers.add(label.speaker);
  }
  return { name: file.name, text, cues, speakers: [...speakers].slice(0, 20) };
}

/** The last `-->` end time of an SRT/VTT (ms), for the estimate before the server reads the file. */
export function lastCueEndMs(text: string): number {
  let last = 0;
  for (const m of text.matchAll(/-->\s*(?:(\d+):)?(\d{1,2}):(\d{2})[,.](\d{1,3})/g)) {
    const ms =
      ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]!.padEnd(3, '0'));
    last = Math.max(last, ms);
  }
  return last;
}

/** The file as the contract's `subtitle` field takes it. */
export const subtitleBody = (file: SubtitleFile) => ({ name: file.name, text: file.text });
