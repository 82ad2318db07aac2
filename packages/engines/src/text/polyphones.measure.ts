import type { DictionaryEntry } from '../book/types.ts';
import { pinyinReadings } from './polyphones.ts';

export interface PolyphoneCase {
  sentence: string;
  at: number;
  expected: string;
}

/** '我去[还]书|huan2' → the sentence, the marked character's index (code points) and its reading. */
export function parseCase(line: string): PolyphoneCase {
  const [marked, expected] = line.split('|');
  const at = [...marked].indexOf('[');
  return { sentence: marked.replace('[', '').replace(']', ''), at, expected };
}

export interface Measure {
  total: number;
  right: number;
  accuracy: number;
  wrong: Array<PolyphoneCase & { got: string }>;
}

export function measurePolyphones(
  lines: string[],
  dictionaryFor?: (c: PolyphoneCase) => DictionaryEntry[],
): Measure {
  const wrong: Measure['wrong'] = [];
  for (const line of lines) {
    const c = parseCase(line);
    const got = pinyinReadings(c.sentence, dictionaryFor?.(c))[c.at]?.pinyin ?? '';
    if (got !== c.expected) wrong.push({ ...c, got });
  }
  const right = lines.length - wrong.length;
  return { total: lines.length, right, accuracy: right / lines.length, wrong };
}

/**
 * What a user would add after hearing a wrong reading: the marked character with its right
 * neighbour (or left one at the end) as a word, the neighbour keeping its current reading.
 */
export function userFix(c: PolyphoneCase): DictionaryEntry[] {
  const chars = [...c.sentence];
  const readings = pinyinReadings(c.sentence);
  const han = (i: number) => /\p{Script=Han}/u.test(chars[i] ?? '');
  if (han(c.at + 1)) {
    return [{ word: chars[c.at] + chars[c.at + 1], pinyin: `${c.expected} ${readings[c.at + 1].pinyin}` }];
  }
  if (han(c.at - 1)) {
    return [{ word: chars[c.at - 1] + chars[c.at], pinyin: `${readings[c.at - 1].pinyin} ${c.expected}` }];
  }
  return [{ word: chars[c.at], pinyin: c.expected }];
}
