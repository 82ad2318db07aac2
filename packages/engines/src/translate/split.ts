import { isCjkLanguage } from './languages.ts';
import type { TranslateLine } from './translate.ts';

/**
 * Smart subtitle splitting (智能字幕断句) and fitting text to cues. Text is cut into units — a word
 * (Intl.Segmenter) with the punctuation and space that follow it — so no cut ever falls inside a word;
 * cuts prefer sentence ends, then clause punctuation, then the most balanced word boundary.
 */

export interface SplitCue {
  id: string;
  start_ms: number;
  end_ms: number;
  text: string;
  /** Ids of the recognised cues this cue's text came from. */
  source_ids: string[];
}

export interface SplitOptions {
  language: string;
  /** Display width per line: 16 for Chinese/Japanese/Korean (a Latin character counts ½), 42 otherwise. */
  maxCharsPerLine?: number;
  maxLines?: number;
  /** Reading speed: characters per second (CJK 9, counting Han characters; Latin 17, counting all). */
  maxCps?: number;
  minMs?: number;
  maxMs?: number;
  /** Recognised cues further apart than this are never joined into one cue (default 800 ms). */
  gapMs?: number;
}

const CJK_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const STRONG = /[。！？!?；;…]$/u;
const WEAK = /[，、：,:—]$/u;
const OPENERS = /^[“‘《（([【「『"']+$/u;
const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(language: string): Intl.Segmenter {
  let s = segmenters.get(language);
  if (!s) {
    try {
      s = new Intl.Segmenter(language, { granularity: 'word' });
    } catch {
      s = new Intl.Segmenter('en', { granularity: 'word' });
    }
    segmenters.set(language, s);
  }
  return s;
}

/** On-screen width: CJK characters 1, others ½ (CJK languages); characters (others). */
export function displayLength(text: string, language: string): number {
  const chars = [...text.replace(/\n/g, '')];
  if (!isCjkLanguage(language)) return chars.length;
  let n = 0;
  for (const c of chars) n += CJK_CHAR.test(c) ? 1 : 0.5;
  return n;
}

/** What reading speed counts: Han/kana/hangul characters and Latin letters/digits (½) for CJK; all characters else. */
export function readingLength(text: string, language: string): number {
  if (!isCjkLanguage(language)) return [...text.trim()].length;
  let n = 0;
  for (const c of text) {
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(c)) n += 1;
    else if (/[\p{L}\p{N}]/u.test(c)) n += 0.5;
  }
  return n;
}

export interface TextUnit {
  text: string;
  /** Ends with sentence punctuation (。！？…) or clause punctuation (，、：). */
  strong: boolean;
  weak: boolean;
}

const lastChar = (s: string) => [...s].at(-1) ?? '';
const isCjk = (c: string) => CJK_CHAR.test(c);

/**
 * The text as units: a word with the punctuation and spaces after it (opening quotes/brackets go with
 * the next word). Between Latin words, a cut is allowed only at a space or after , ; ! ? (not inside
 * e-mail, 3.14, don't).
 */
export function textUnits(text: string, language: string): TextUnit[] {
  const units: string[] = [];
  let cur = '';
  let openOnly = false;
  for (const { segment, isWordLike } of segmenter(language).segment(text)) {
    if (!cur) {
      cur = segment;
      openOnly = !isWordLike && OPENERS.test(segment);
      continue;
    }
    const prev = lastChar(cur);
    const first = [...segment][0] ?? '';
    const breakable =
      /\s/u.test(prev) || isCjk(prev) || isCjk(first) || /[,;!?，。！？；：、…）」』》”]/u.test(prev);
    if (isWordLike) {
      if (breakable && !openOnly) {
        units.push(cur);
        cur = segment;
      } else cur += segment;
      openOnly = false;
    } else if (OPENERS.test(segment.trim()) && segment.trim() && breakable && !openOnly) {
      units.push(cur);
      cur = segment;
      openOnly = true;
    } else cur += segment;
  }
  if (cur) units.push(cur);
  return units.map((u) => {
    const t = u.trimEnd();
    const strong = STRONG.test(t) || (/\.$/.test(t) && (u !== t || u === units.at(-1)));
    return { text: u, strong, weak: !strong && (WEAK.test(t) || /[”」』》)）]$/u.test(t)) };
  });
}

/** Joins two pieces of text: no space between CJK characters, one space otherwise. */
function joinText(a: string, b: string): string {
  const x = a.trimEnd();
  const y = b.trimStart();
  if (!x || !y) return x + y;
  const l = lastChar(x);
  const f = [...y][0];
  return isCjk(l) && isCjk(f)
    ? x + y
    : /[\s]$/u.test(a) || /^\s/u.test(b) || !(isCjk(l) || isCjk(f))
      ? `${x} ${y}`
      : x + y;
}

/**
 * Line breaks for display: at most `maxLines` lines of `maxCharsPerLine` (display width) when the
 * text allows, balanced, preferring breaks after punctuation; a word longer than a line is cut hard.
 * More lines come back when the text cannot fit (callers check with `fitsLines`).
 */
export function wrapLines(text: string, language: string, maxCharsPerLine: number, maxLines: number): string {
  void maxLines; // the caller checks the count (fitsLines); the text is never dropped
  return wrap(text, language, maxCharsPerLine).join('\n');
}

function wrap(text: string, language: string, max: number): string[] {
  const flat = text.replace(/\s*\n\s*/gu, ' ').trim();
  if (displayLength(flat, language) <= max) return flat ? [flat] : [];
  // Units longer than a line are cut into line-sized pieces.
  const units: TextUnit[] = [];
  for (const u of textUnits(flat, language)) {
    if (displayLength(u.text.trim(), language) <= max) {
      units.push(u);
      continue;
    }
    let piece = '';
    for (const c of u.text) {
      if (displayLength(piece + c, language) > max) {
        units.push({ text: piece, strong: false, weak: false });
        piece = '';
      }
      piece += c;
    }
    units.push({ ...u, text: piece });
  }
  const n = units.length;
  const lineText = (i: number, j: number) =>
    units
      .slice(i, j)
      .map((u) => u.text)
      .join('')
      .trim();
  // dp[j]: fewest lines, then least cost, covering units[0..j).
  const dp: Array<{ lines: number; cost: number; from: number }> = [{ lines: 0, cost: 0, from: -1 }];
  for (let j = 1; j <= n; j++) {
    dp[j] = { lines: Infinity, cost: Infinity, from: -1 };
    for (let i = j - 1; i >= 0; i--) {
      const len = displayLength(lineText(i, j), language);
      if (len > max && j - i > 1) break;
      const prev = dp[i];
      if (prev.lines === Infinity) continue;
      const end = units[j - 1];
      // Balanced lines (squares), a break after punctuation is worth a few characters.
      const cost = prev.cost + len * len - (j < n && (end.strong || end.weak) ? max : 0);
      const lines = prev.lines + 1;
      if (lines < dp[j].lines || (lines === dp[j].lines && cost < dp[j].cost))
        dp[j] = { lines, cost, from: i };
    }
  }
  const out: string[] = [];
  for (let j = n; j > 0; j = dp[j].from) out.unshift(lineText(dp[j].from, j));
  return out;
}

/** True when the text wraps into at most `maxLines` lines of at most `maxCharsPerLine`. */
export function fitsLines(
  text: string,
  language: string,
  maxCharsPerLine: number,
  maxLines: number,
): boolean {
  const lines = wrap(text, language, maxCharsPerLine);
  return lines.length <= maxLines && lines.every((l) => displayLength(l, language) <= maxCharsPerLine);
}

interface TimedUnit extends TextUnit {
  start: number;
  end: number;
  cue: string;
  /** Last unit of its recognised cue. */
  cueEnd: boolean;
}

function defaults(opts: SplitOptions) {
  const cjk = isCjkLanguage(opts.language);
  return {
    language: opts.language,
    maxChars: opts.maxCharsPerLine ?? (cjk ? 16 : 42),
    maxLines: opts.maxLines ?? 2,
    maxCps: opts.maxCps ?? (cjk ? 9 : 17),
    minMs: opts.minMs ?? 1000,
    maxMs: opts.maxMs ?? 7000,
    gapMs: opts.gapMs ?? 800,
  };
}

/**
 * Re-segments recognised cues into readable cues: sentences first, then over-long or over-wide pieces
 * cut at clause punctuation, at cue ends, then at the most balanced word boundary; pieces shorter than
 * `minMs` are merged with a neighbour when the result still fits; times come from each cue's span split
 * proportionally to the characters; finally each cue is lengthened into the silence after (or before)
 * it, when there is some, to reach `minMs` and the reading speed. Output cues never overlap and stay
 * inside the span of the input.
 */
export function splitCues(
  cues: Array<{ id: string; start_ms: number; end_ms: number; text: string }>,
  opts: SplitOptions,
): SplitCue[] {
  const o = defaults(opts);
  const sorted = cues
    .filter((c) => c.text.trim() && c.end_ms > c.start_ms)
    .sort((a, b) => a.start_ms - b.start_ms);
  if (!sorted.length) return [];
  // Groups of cues close enough to be joined.
  const groups: Array<typeof sorted> = [];
  for (const c of sorted) {
    const g = groups.at(-1);
    const prev = g?.at(-1);
    if (g && prev && c.start_ms - prev.end_ms < o.gapMs) g.push(c);
    else groups.push([c]);
  }
  const pieces: TimedUnit[][] = [];
  for (const group of groups) {
    const units = timedUnits(group, o.language);
    // Sentences, then recursive cuts.
    let from = 0;
    const sentences: TimedUnit[][] = [];
    units.forEach((u, i) => {
      if (u.strong || i === units.length - 1) {
        sentences.push(units.slice(from, i + 1));
        from = i + 1;
      }
    });
    const split = sentences.flatMap((s) => cut(s, o));
    pieces.push(...mergeShort(split, o));
  }
  const out = pieces.map((p, i) => ({
    id: String(i + 1),
    start_ms: p[0].start,
    end_ms: p.at(-1)?.end ?? p[0].end,
    text: pieceText(p),
    source_ids: [...new Set(p.map((u) => u.cue))],
  }));
  return retime(out, o, sorted[0].start_ms, Math.max(...sorted.map((c) => c.end_ms)));
}

function pieceText(units: TimedUnit[]): string {
  let text = '';
  for (let i = 0; i < units.length; i++) {
    const u = units[i];
    text = i > 0 && units[i - 1].cue !== u.cue ? joinText(text, u.text) : text + u.text;
  }
  return text.trim();
}

function timedUnits(
  group: Array<{ id: string; start_ms: number; end_ms: number; text: string }>,
  language: string,
) {
  const out: TimedUnit[] = [];
  for (const cue of group) {
    const units = textUnits(cue.text.trim(), language);
    const weights = units.map((u) => Math.max(readingLength(u.text, language), 0.01));
    const total = weights.reduce((a, b) => a + b, 0);
    let acc = 0;
    units.forEach((u, i) => {
      const start = cue.start_ms + ((cue.end_ms - cue.start_ms) * acc) / total;
      acc += weights[i];
      const end = cue.start_ms + ((cue.end_ms - cue.start_ms) * acc) / total;
      out.push({ ...u, start, end, cue: cue.id, cueEnd: i === units.length - 1 });
    });
  }
  return out;
}

type Limits = ReturnType<typeof defaults>;

const span = (p: TimedUnit[]) => (p.at(-1)?.end ?? 0) - (p[0]?.start ?? 0);

function fitsShape(p: TimedUnit[], o: Limits): boolean {
  return span(p) <= o.maxMs && fitsLines(pieceText(p), o.language, o.maxChars, o.maxLines);
}

function fitsAll(p: TimedUnit[], o: Limits): boolean {
  return fitsShape(p, o) && readingLength(pieceText(p), o.language) / Math.max(span(p), 1) <= o.maxCps / 1000;
}

/**
 * The best cut at clause punctuation (，、：) that leaves both sides at least 4 characters and minMs
 * long, or -1: a piece needing two lines is cut there, so clauses get a cue each.
 */
function clauseCut(p: TimedUnit[], o: Limits): number {
  const whole = displayLength(pieceText(p), o.language);
  let best = -1;
  let bestImbalance = Infinity;
  for (let k = 1; k < p.length; k++) {
    if (!p[k - 1].weak) continue;
    const left = p.slice(0, k);
    const right = p.slice(k);
    const l = displayLength(pieceText(left), o.language);
    if (l < 4 || whole - l < 4 || span(left) < o.minMs || span(right) < o.minMs) continue;
    const imbalance = Math.abs(whole - 2 * l);
    if (imbalance < bestImbalance) {
      bestImbalance = imbalance;
      best = k;
    }
  }
  return best;
}

/** Cuts a piece until every part fits the lines and the longest duration, one clause per cue when possible. */
function cut(p: TimedUnit[], o: Limits): TimedUnit[][] {
  if (p.length < 2) return [p];
  const oneLine = displayLength(pieceText(p), o.language) <= o.maxChars;
  const clause = oneLine ? -1 : clauseCut(p, o);
  if (clause < 0 && fitsShape(p, o)) return [p];
  let best = clause;
  if (best < 0) {
    const len = (q: TimedUnit[]) => displayLength(pieceText(q), o.language);
    const whole = len(p);
    let bestScore = Infinity;
    for (let k = 1; k < p.length; k++) {
      const left = len(p.slice(0, k));
      const imbalance = Math.abs(left - (whole - left)) / whole;
      const u = p[k - 1];
      // Punctuation and cue ends are preferred unless they leave a sliver (< about a fifth).
      const bonus = u.strong ? 0.7 : u.weak ? 0.6 : u.cueEnd ? 0.4 : 0;
      const score = imbalance - (imbalance < 0.6 ? bonus : 0);
      if (score < bestScore) {
        bestScore = score;
        best = k;
      }
    }
  }
  return [...cut(p.slice(0, best), o), ...cut(p.slice(best), o)];
}

/** Merges pieces shorter than minMs with a neighbour (the shorter result) while everything still fits. */
function mergeShort(pieces: TimedUnit[][], o: Limits): TimedUnit[][] {
  const out = [...pieces];
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < out.length; i++) {
      if (span(out[i]) >= o.minMs) continue;
      const options = [i - 1, i + 1]
        .filter((j) => j >= 0 && j < out.length)
        .map((j) => ({ j, merged: j < i ? [...out[j], ...out[i]] : [...out[i], ...out[j]] }))
        .filter((m) => fitsAll(m.merged, o))
        .sort((a, b) => a.merged.length - b.merged.length);
      const m = options[0];
      if (!m) continue;
      out.splice(Math.min(i, m.j), 2, m.merged);
      changed = true;
      break;
    }
  }
  return out;
}

/** Lengthens cues into the silence around them for minMs and reading speed; no overlap, inside the span. */
function retime(cues: SplitCue[], o: Limits, spanStart: number, spanEnd: number): SplitCue[] {
  const out = cues.map((c) => ({ ...c, start_ms: Math.round(c.start_ms), end_ms: Math.round(c.end_ms) }));
  for (let i = 0; i < out.length; i++) {
    const c = out[i];
    const need = Math.min(
      o.maxMs,
      Math.max(o.minMs, Math.ceil((readingLength(c.text, o.language) / o.maxCps) * 1000)),
    );
    const nextStart = out[i + 1]?.start_ms ?? spanEnd;
    const prevEnd = out[i - 1]?.end_ms ?? spanStart;
    if (c.end_ms - c.start_ms < need) c.end_ms = Math.min(nextStart, c.start_ms + need);
    if (c.end_ms - c.start_ms < need) c.start_ms = Math.max(prevEnd, c.end_ms - need);
    if (c.end_ms - c.start_ms > o.maxMs) c.end_ms = c.start_ms + o.maxMs;
  }
  return out;
}

/**
 * Fits one translated sentence back over several cues: parts proportional to the cues' durations,
 * cut only between words (Intl.Segmenter), preferring punctuation near the proportional point. With
 * fewer words than cues, one word per cue from the first and the last cues get empty text.
 */
export function distributeTranslation(
  text: string,
  slots: Array<{ id: string; start_ms: number; end_ms: number }>,
  language: string,
): TranslateLine[] {
  if (slots.length <= 1) return slots.map((s) => ({ id: s.id, text: text.trim() }));
  const units = textUnits(text.trim(), language);
  const u = units.length;
  const n = slots.length;
  // Fewer words than cues: a word each, from the first cue.
  if (u < n) return slots.map((s, j) => ({ id: s.id, text: units[j]?.text.trim() ?? '' }));
  const weight = units.map((x) => Math.max(displayLength(x.text.trim(), language), 0.5));
  const cum = [0];
  for (const w of weight) cum.push((cum.at(-1) ?? 0) + w);
  const total = cum[u] || 1;
  const durs = slots.map((s) => Math.max(1, s.end_ms - s.start_ms));
  const durTotal = durs.reduce((a, b) => a + b, 0);
  const targets: number[] = [];
  let acc = 0;
  for (let j = 0; j < n - 1; j++) {
    acc += durs[j];
    targets.push((total * acc) / durTotal);
  }
  const cost = (j: number, k: number) => {
    const end = units[k - 1];
    const punct = k > 0 && k < u && (end.strong || end.weak) ? 0.12 : 0;
    return Math.abs(cum[k] - targets[j]) / total - punct;
  };
  // dp[j][k]: least cost with boundary j at position k (0..u).
  const dp: number[][] = [];
  const from: number[][] = [];
  for (let j = 0; j < n - 1; j++) {
    dp.push(new Array(u + 1).fill(Infinity));
    from.push(new Array(u + 1).fill(-1));
    for (let k = 0; k <= u; k++) {
      if (k < j + 1 || k > u - (n - 1 - j)) continue;
      if (j === 0) {
        dp[j][k] = cost(j, k);
        continue;
      }
      for (let p = 0; p < k; p++) {
        const v = dp[j - 1][p] + cost(j, k);
        if (v < dp[j][k]) {
          dp[j][k] = v;
          from[j][k] = p;
        }
      }
    }
  }
  const bounds: number[] = new Array(n - 1).fill(0);
  let k = dp[n - 2].indexOf(Math.min(...dp[n - 2]));
  for (let j = n - 2; j >= 0; j--) {
    bounds[j] = k;
    k = from[j][k];
  }
  const edges = [0, ...bounds, u];
  return slots.map((s, j) => ({
    id: s.id,
    text: units
      .slice(edges[j], edges[j + 1])
      .map((x) => x.text)
      .join('')
      .trim(),
  }));
}
