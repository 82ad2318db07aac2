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

/**
 * The CPP dataset of g2pM (Park & Lee, Interspeech 2020; github.com/kakaobrain/g2pM `data/`, Apache-2.0):
 * encyclopaedia sentences with one polyphone marked ▁X▁ per line and its reading in the matching line
 * of the `.lb` file (ü written u:). Returns our case lines ('…[X]…|reading').
 */
export function cppCases(sentences: string, labels: string): string[] {
  const lbs = labels.trim().split('\n');
  return sentences
    .trim()
    .split('\n')
    .map((s, i) => `${s.replace('▁', '[').replace('▁', ']')}|${lbs[i].trim().replace('u:', 'ü')}`);
}

/** Misses that are only a neutral against a full tone of the same syllable, where dictionaries differ. */
export function toneOnly(wrong: Measure['wrong']): number {
  const base = (p: string) => p.replace(/[1-5]$/, '');
  return wrong.filter(
    (w) => base(w.got) === base(w.expected) && (w.got.endsWith('5') || w.expected.endsWith('5')),
  ).length;
}
