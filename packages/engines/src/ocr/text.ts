import * as OpenCC from 'opencc-js';
import type { ScriptConversion } from './types.ts';

/** Levenshtein distance over code points. */
export function editDistance(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  if (!s.length) return t.length;
  if (!t.length) return s.length;
  let prev = Array.from({ length: t.length + 1 }, (_, i) => i);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[t.length];
}

const squeeze = (s: string) => s.replace(/\s+/gu, '');

/** 1 = same text (whitespace ignored), 0 = nothing in common. */
export function textSimilarity(a: string, b: string): number {
  const x = squeeze(a);
  const y = squeeze(b);
  const n = Math.max([...x].length, [...y].length);
  return n ? 1 - editDistance(x, y) / n : 1;
}

/**
 * Edits needed to find `needle` somewhere inside `hay` (Levenshtein with a free start and end in
 * `hay`): 0 when `needle` is a part of `hay`, e.g. one line of a two-line subtitle.
 */
export function substringDistance(needle: string, hay: string): number {
  const s = [...needle];
  const t = [...hay];
  let prev = new Array<number>(t.length + 1).fill(0);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return Math.min(...prev);
}

/** Shorter texts than this are never joined as a part of a longer one ("好" is in many lines). */
const MIN_PART = 4;

/**
 * Whether two reads of a subtitle band show the same cue: similar enough as a whole, or one is
 * (nearly) a part of the other — a read that lost a line or a few letters to a busy background.
 */
export function sameCueText(a: string, b: string, minSimilarity: number): boolean {
  if (textSimilarity(a, b) >= minSimilarity) return true;
  const [short, long] = [squeeze(a), squeeze(b)].sort((x, y) => [...x].length - [...y].length);
  return [...short].length >= MIN_PART && textPartOf(short, long, minSimilarity);
}

/**
 * Whether `part` is shorter than `whole` and (nearly) a contiguous piece of it, whatever its length:
 * the text alone proves nothing for a short part ("好" is in many lines), so callers that use it for
 * one or two letters check something else too (the same strokes at the same place).
 */
export function textPartOf(part: string, whole: string, minSimilarity: number): boolean {
  const p = squeeze(part);
  const w = squeeze(whole);
  const n = [...p].length;
  return n > 0 && n < [...w].length && substringDistance(p, w) <= Math.floor(n * (1 - minSimilarity) * 0.5);
}

/**
 * A read of at least this many letters that is one letter off a piece of its neighbour's text
 * ("字月四" of "计分子月四", "人九行王" of "人九行干品指" on tuning seed 5) is a part of it too when
 * their steady pixels overlap: a busy picture turns a letter into a look-alike.
 */
export const MIN_NEAR_PART = 3;

/** Whether `part` is shorter than `whole` and one letter off (or exactly) a contiguous piece of it. */
export function nearPartOf(part: string, whole: string): boolean {
  const p = squeeze(part);
  const w = squeeze(whole);
  const n = [...p].length;
  return n >= MIN_NEAR_PART && n < [...w].length && substringDistance(p, w) <= 1;
}

/**
 * The text of a cue from its reads (text and confidence, one per sampled frame): the read that agrees
 * best with all others (confidence-weighted similarity), then each of its characters voted on by the
 * reads of the same length — one garbled character in one frame does not reach the result.
 */
export function voteText(reads: Array<{ text: string; score: number }>): string {
  if (!reads.length) return '';
  const support = new Map<string, number>();
  for (const r of reads) {
    if (support.has(r.text)) continue;
    support.set(
      r.text,
      reads.reduce((sum, o) => sum + o.score * textSimilarity(r.text, o.text), 0),
    );
  }
  // A read contained in a longer text read at least twice lost letters to the picture: it never
  // wins, however often it was read. (Only exact pieces: a longer read with a stray mark or two in
  // it is not the better read; nor is a longer text read once — "Junep" for "June" on tuning seed 5.)
  const count = (t: string) => reads.filter((r) => r.text === t).length;
  const partial = (t: string) =>
    [...support.keys()].some(
      (o) => count(o) >= 2 && squeeze(o).length > squeeze(t).length && squeeze(o).includes(squeeze(t)),
    );
  const candidates = [...support.keys()].filter((t) => !partial(t));
  let best = candidates[0] ?? reads[0].text;
  for (const text of candidates) if ((support.get(text) ?? 0) > (support.get(best) ?? 0)) best = text;
  const chars = [...best];
  const peers = reads
    .map((r) => ({ chars: [...r.text], score: r.score }))
    .filter((r) => r.chars.length === chars.length);
  return chars
    .map((c, i) => {
      const votes = new Map<string, number>();
      for (const p of peers) votes.set(p.chars[i], (votes.get(p.chars[i]) ?? 0) + p.score);
      let pick = c;
      for (const [v, w] of votes) if (w > (votes.get(pick) ?? 0)) pick = v;
      return pick;
    })
    .join('');
}

const HAN = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;
const LATIN = /\p{Script=Latin}/u;

/** 'zh' when the line has any Han character, 'latin' when it has Latin letters, else null (noise). */
export function lineScript(text: string): 'zh' | 'latin' | null {
  if (/\p{Script=Han}/u.test(text)) return 'zh';
  if (LATIN.test(text)) return 'latin';
  if (HAN.test(text)) return 'zh';
  return null;
}

const converters = new Map<ScriptConversion, (s: string) => string>();

/** Traditional ⇄ Simplified (OpenCC tables via opencc-js). */
export function convertScript(text: string, mode: ScriptConversion): string {
  if (mode === 'none') return text;
  let fn = converters.get(mode);
  if (!fn) {
    fn =
      mode === 't2s' ? OpenCC.Converter({ from: 't', to: 'cn' }) : OpenCC.Converter({ from: 'cn', to: 't' });
    converters.set(mode, fn);
  }
  return fn(text);
}
