import type { CharacterReading } from '@vw/contract';
import { zhCN } from '@/locales/zh-CN.ts';
import { toneNumbers } from '../tts/polyphone.ts';

const HAN = /^\p{Script=Han}+$/u;
const SYLLABLE = /^[a-zü]+[1-5]$/;
const problems = zhCN.audioBook.pronunciation.problems;

/** One character of the word being fixed: what is read now and what it may be read as. */
export interface WordChar {
  char: string;
  pinyin: string;
  candidates: string[];
}

/**
 * The characters of `word` at its first place in `text` with the readings helper's answer for `text`
 * (dictionary applied): the current reading and the candidates of each; null when the word is not in
 * the text. Whole-word readings (a dictionary word answered as one entry) are split per character.
 */
export function wordChars(
  text: string,
  readings: readonly CharacterReading[],
  word: string,
): WordChar[] | null {
  const at = word ? text.indexOf(word) : -1;
  if (at < 0) return null;
  const out: WordChar[] = [];
  for (let i = 0; i < word.length; i++) {
    const pos = at + i;
    const r = readings.find((x) => x.start <= pos && pos < x.end);
    if (!r) {
      out.push({ char: word[i], pinyin: '', candidates: [] });
      continue;
    }
    const syllables = r.pinyin.split(/\s+/);
    const pinyin = r.end - r.start === 1 ? r.pinyin : (syllables[pos - r.start] ?? '');
    const candidates = r.end - r.start === 1 ? r.candidates : [pinyin];
    out.push({
      char: word[i],
      pinyin,
      candidates: candidates.includes(pinyin) ? candidates : [pinyin, ...candidates],
    });
  }
  return out;
}

/** Replaces the syllable of character `index` in a space-separated pinyin string. */
export function setSyllable(pinyin: string, count: number, index: number, syllable: string): string {
  const parts = pinyin.trim().split(/\s+/).filter(Boolean);
  while (parts.length < count) parts.push('');
  parts[index] = syllable;
  return parts.slice(0, count).join(' ').trim();
}

/** A message saying what is wrong with a word → pinyin entry, or null when it can be saved. */
export function checkEntry(word: string, pinyin: string): string | null {
  if (!word) return problems.noWord;
  if (word.length > 20) return problems.tooLong;
  if (!HAN.test(word)) return problems.notHan;
  // A syllable without a tone is neutral only beside others that have one ('shuō de').
  const written = toneNumbers(pinyin, false).split(' ').filter(Boolean);
  const syllables = written.some((s) => /\d$/.test(s)) ? toneNumbers(pinyin).split(' ') : written;
  if (syllables.length !== word.length) return problems.count(word, syllables.length);
  const bad = syllables.find((s) => !SYLLABLE.test(s));
  if (bad) return problems.noTone(bad);
  return null;
}

/** The selected text inside `container` (trimmed), or '' when the selection is elsewhere. */
export function selectionIn(container: Element | null): string {
  const sel = typeof window === 'undefined' ? null : window.getSelection();
  if (!container || !sel || sel.rangeCount === 0 || sel.isCollapsed) return '';
  const range = sel.getRangeAt(0);
  if (!container.contains(range.commonAncestorContainer)) return '';
  return sel.toString().trim();
}
