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
