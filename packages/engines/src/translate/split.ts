import { readingLength, subtitleRulesFor } from '@vw/contract';
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
  /** Characters per line (code points, as the editor's checker counts): 16 for CJK, 42 otherwise. */
  maxCharsPerLine?: number;
  /** Default 2. */
  maxLines?: number;
  /** Reading speed, visible characters per second (no spaces/punctuation): CJK 9, others 17. */
  maxCps?: number;
  /** Default 1000. */
  minMs?: number;
  /** Default 7000. */
  maxMs?: number;
  /** Least gap between two output cues (default 80, the contract's `min_gap_ms`). */
  gapMs?: number;
  /** Recognised cues further apart than this are never joined into one cue (default 800 ms). */
  joinMs?: number;
}

const CJK_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const STRONG = /[。！？!?；;…]$/u;
const WEAK = /[，、：,:—]$/u;
const PARTICLE = /^[的了吗呢吧啊呀哦着过地得么嘛]$/u;
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

/**
 * Line length as the editor's rule checker counts it (`checkCue` in the contract): code points, spaces
 * included. Reading length is the contract's `readingLength` (visible characters, no spaces/punctuation).
 */
export function displayLength(text: string): number {
  return [...text.replace(/\n/g, '')].length;
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
    // A Chinese particle stays with the word before it: no line or cue starts with 的/了/吗….
    const particle = PARTICLE.test(segment) && /\p{Script=Han}/u.test(prev);
    const breakable =
      !particle &&
      (/\s/u.test(prev) || isCjk(prev) || isCjk(first) || /[,;!?，。！？；：、…）」』》”]/u.test(prev));
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

/**
 * Between two Han words of two or more characters each (人工|智能, 日常|生活): the dictionary splits
 * compounds like that, so such a boundary is a worse place for a break than one beside a particle.
 */
function compoundBoundary(left: TextUnit | undefined, right: TextUnit | undefined): boolean {
  const han = (u: TextUnit | undefined) => !!u && /^\p{Script=Han}{2,}$/u.test(u.text);
  return han(left) && han(right);
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

/** Undoes display line breaks: lines joined without a space between CJK characters, with one elsewhere. */
export function flattenText(text: string): string {
  return text
    .split(/\r?\n/u)
    .map((l) => l.trim())
    .filter(Boolean)
    .reduce((acc, l) => joinText(acc, l), '');
}

/**
 * Line breaks for display: at most `maxLines` lines of `maxCharsPerLine` (code points) when the
 * text allows, balanced, preferring breaks after punctuation; a word longer than a line is cut hard.
 * More lines come back when the text cannot fit (callers check with `fitsLines`).
 */
export function wrapLines(text: string, language: string, maxCharsPerLine: number, maxLines: number): string {
  void maxLines; // the caller checks the count (fitsLines); the text is never dropped
  return wrap(text, language, maxCharsPerLine).join('\n');
}

function wrap(text: string, language: string, max: number): string[] {
  const flat = text.replace(/\s*\n\s*/gu, ' ').trim();
  if (displayLength(flat) <= max) return flat ? [flat] : [];
  // Units longer than a line are cut into line-sized pieces.
  const units: TextUnit[] = [];
  for (const u of textUnits(flat, language)) {
    if (displayLength(u.text.trim()) <= max) {
      units.push(u);
      continue;
    }
    let piece = '';
    for (const c of u.text) {
      if (displayLength(piece + c) > max) {
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
      const len = displayLength(lineText(i, j));
      if (len > max && j - i > 1) break;
      const prev = dp[i];
      if (prev.lines === Infinity) continue;
      const end = units[j - 1];
      // Balanced lines (squares); a break after punctuation is worth a line's length, one inside a
      // likely compound costs as much.
      const breakCost =
        j < n ? (end.strong || end.weak ? -max : compoundBoundary(end, units[j]) ? max : 0) : 0;
      const cost = prev.cost + len * len + breakCost;
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
  return lines.length <= maxLines && lines.every((l) => displayLength(l) <= maxCharsPerLine);
}

interface TimedUnit extends TextUnit {
  start: number;
  end: number;
  cue: string;
  /** Last unit of its recognised cue. */
  cueEnd: boolean;
}

function defaults(opts: SplitOptions) {
  const d = subtitleRulesFor(isCjkLanguage(opts.language) ? 'zh' : 'en');
  return {
    language: opts.language,
    maxChars: opts.maxCharsPerLine ?? d.max_chars_per_line,
    maxLines: opts.maxLines ?? d.max_lines,
    maxCps: opts.maxCps ?? d.max_cps,
    minMs: opts.minMs ?? d.min_duration_ms,
    maxMs: opts.maxMs ?? d.max_duration_ms,
    gapMs: opts.gapMs ?? d.min_gap_ms,
    joinMs: opts.joinMs ?? 800,
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
    if (g && prev && c.start_ms - prev.end_ms < o.joinMs) g.push(c);
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
    const weights = units.map((u) => Math.max(readingLength(u.text), 0.01));
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
  return fitsShape(p, o) && readingLength(pieceText(p)) / Math.max(span(p), 1) <= o.maxCps / 1000;
}

/**
 * The best cut at clause punctuation (，、：) that leaves both sides at least 4 characters and
 * minMs + gapMs long, or -1: a piece needing two lines is cut there, so clauses get a cue each.
 */
function clauseCut(p: TimedUnit[], o: Limits): number {
  const whole = displayLength(pieceText(p));
  let best = -1;
  let bestImbalance = Infinity;
  for (let k = 1; k < p.length; k++) {
    if (!p[k - 1].weak) continue;
    const left = p.slice(0, k);
    const right = p.slice(k);
    const l = displayLength(pieceText(left));
    const least = o.minMs + o.gapMs;
    if (l < 4 || whole - l < 4 || span(left) < least || span(right) < least) continue;
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
  const oneLine = displayLength(pieceText(p)) <= o.maxChars;
  const clause = oneLine ? -1 : clauseCut(p, o);
  if (clause < 0 && fitsShape(p, o)) return [p];
  let best = clause;
  if (best < 0) {
    const len = (q: TimedUnit[]) => displayLength(pieceText(q));
    const whole = len(p);
    let bestScore = Infinity;
    for (let k = 1; k < p.length; k++) {
      const left = len(p.slice(0, k));
      const imbalance = Math.abs(left - (whole - left)) / whole;
      const u = p[k - 1];
      // Punctuation and cue ends are preferred unless they leave a sliver (< about a fifth).
      const bonus = u.strong ? 0.7 : u.weak ? 0.6 : u.cueEnd ? 0.4 : 0;
      const score = imbalance - (imbalance < 0.6 ? bonus : 0) + (compoundBoundary(u, p[k]) ? 0.15 : 0);
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
      // The gap opened later takes up to gapMs from a cue.
      if (span(out[i]) >= o.minMs + o.gapMs) continue;
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

/**
 * Opens the least gap between cues that share a boundary (half taken from each side), then lengthens
 * cues into the silence around them for minMs and the reading speed: never closer than gapMs to a
 * neighbour, never outside the span of the input.
 */
function retime(cues: SplitCue[], o: Limits, spanStart: number, spanEnd: number): SplitCue[] {
  const out = cues.map((c) => ({ ...c }));
  for (let i = 1; i < out.length; i++) {
    const prev = out[i - 1];
    const c = out[i];
    const missing = o.gapMs - (c.start_ms - prev.end_ms);
    if (missing <= 0) continue;
    prev.end_ms -= Math.min(missing / 2, (prev.end_ms - prev.start_ms) / 2);
    c.start_ms += Math.min(missing / 2, (c.end_ms - c.start_ms) / 2);
  }
  for (const c of out) {
    c.start_ms = Math.ceil(c.start_ms);
    c.end_ms = Math.floor(c.end_ms);
  }
  for (let i = 0; i < out.length; i++) {
    const c = out[i];
    const need = Math.min(o.maxMs, Math.max(o.minMs, Math.ceil((readingLength(c.text) / o.maxCps) * 1000)));
    const next = out[i + 1];
    const prev = out[i - 1];
    const latest = next ? next.start_ms - o.gapMs : spanEnd;
    const earliest = prev ? prev.end_ms + o.gapMs : spanStart;
    if (c.end_ms - c.start_ms < need) c.end_ms = Math.max(c.end_ms, Math.min(latest, c.start_ms + need));
    if (c.end_ms - c.start_ms < need) c.start_ms = Math.min(c.start_ms, Math.max(earliest, c.end_ms - need));
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
  const weight = units.map((x) => Math.max(displayLength(x.text.trim()), 0.5));
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
