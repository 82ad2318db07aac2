import { speakerPrefix, withoutDialogueDashes } from '@vw/contract/helpers/speakers.ts';
import type { DubbingMarks } from './types.ts';

const MUTE = /^(?:静音|mute)$/i;
const KEEP = /^(?:保留原声|keep)$/i;

/**
 * Reads the dubbing marks of one SRT cue (the SRT配音 import, like Volcengine's marks):
 * a speaker label as subtitle files write it (`名字：文本`, `Name: text`, `[名字] 文本`; never a
 * clause such as 她说：…, see contract `speakerPrefix`) names the speaker; `- ` dialogue dashes
 * are dropped; `[静音]`/`[mute]` leaves the cue silent, `[保留原声]`/`[keep]` keeps the original
 * audio there. Marks may stand before or after the speaker label, with ASCII or full-width brackets.
 */
export function parseSrtDubbingMarks(input: string): DubbingMarks {
  let text = withoutDialogueDashes(input.replace(/\r\n?/g, '\n')).trim();
  let mark: DubbingMarks['mark'];
  let speaker: string | undefined;
  const takeMarks = () => {
    text = text
      .replace(/[[【]\s*([^\]】]{1,8}?)\s*[\]】]/gu, (whole, word: string) => {
        if (MUTE.test(word)) mark = 'mute';
        else if (KEEP.test(word)) mark = 'keep';
        else return whole;
        return '';
      })
      .trim();
  };
  takeMarks();
  const label = speakerPrefix(text);
  if (label) {
    speaker = label.speaker;
    text = label.text;
    takeMarks();
  }
  return { ...(speaker ? { speaker } : {}), ...(mark ? { mark } : {}), text };
}

const HAN = /\p{Script=Han}/u;

/** Units compared: Han characters one by one, Latin/other words as whole (lower-cased, no punctuation). */
export function textUnits(text: string): string[] {
  const out: string[] = [];
  for (const token of text
    .normalize('NFKC')
    .toLowerCase()
    .match(/\p{Script=Han}|(?:(?!\p{Script=Han})[\p{L}\p{N}'])+/gu) ?? []) {
    if (HAN.test(token)) out.push(token);
    else out.push(token.replace(/'/g, ''));
  }
  return out;
}

function editDistance(a: string[], b: string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/**
 * 0..1 similarity of the text a line should say and what speech recognition heard: 1 − edit distance
 * over the longer length, counted in characters for Chinese and in words for Latin scripts (mixed text:
 * both). Punctuation, case and full-/half-width forms are ignored.
 */
export function compareTranscript(expected: string, heard: string): number {
  const a = textUnits(expected);
  const b = textUnits(heard);
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - editDistance(a, b) / longest;
}
