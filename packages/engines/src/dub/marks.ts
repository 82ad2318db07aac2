import type { DubbingMarks } from './types.ts';

const MUTE = /^(?:静音|mute)$/i;
const KEEP = /^(?:保留原声|keep)$/i;
// A speaker prefix: a short name (no sentence punctuation, ≤ 20 characters) before a full- or half-width colon.
const SPEAKER = /^([^\s:：，。！？,.!?[\]【】()（）"“”][^:：，。！？,.!?[\]【】"“”\n]{0,19}?)\s*[:：]\s*/u;

/**
 * Reads the dubbing marks of one SRT cue (the SRT配音 import, like Volcengine's marks):
 * `名字：文本` or `Name: text` names the speaker; `[静音]`/`[mute]` leaves the cue silent,
 * `[保留原声]`/`[keep]` keeps the original audio there. Marks may stand before or after the speaker
 * prefix, with ASCII or full-width brackets (【静音】). Times like "10:30" are not speakers: a name
 * must not start with a digit-only token.
 */
export function parseSrtDubbingMarks(input: string): DubbingMarks {
  let text = input.replace(/\r\n?/g, '\n').trim();
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
  const m = SPEAKER.exec(text);
  if (m && !/^\d+$/.test(m[1].trim()) && !/^https?$/i.test(m[1].trim())) {
    speaker = m[1].trim();
    text = text.slice(m[0].length).trim();
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
