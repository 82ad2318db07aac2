import { formatTime, parseTime } from './time.ts';

/*
 * Subtitle cues as the editor, the exports and the tools share them: writers and readers for
 * SRT / VTT / TXT, the rule checker (design §10) and the splitter that turns recognised segments
 * into subtitle-sized cues. Pure functions: the web and the server run the same rules.
 */

export interface TimedText {
  start_ms: number;
  end_ms: number;
  text: string;
}

export interface CueRules {
  max_chars_per_line: number;
  max_lines: number;
  max_cps: number;
  min_duration_ms: number;
  max_duration_ms: number;
  min_gap_ms: number;
}

/** `hh:mm:ss,mmm` — SRT wants a comma before the milliseconds. */
export const srtTime = (ms: number) => formatTime(ms).replace('.', ',');

const oneLine = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
const keepLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n');

/** SRT; line breaks inside a cue are kept unless `singleLine`. Empty cues are left out. */
export function toSrt(cues: TimedText[], options: { singleLine?: boolean } = {}): string {
  const text = options.singleLine ? oneLine : keepLines;
  return cues
    .filter((c) => text(c.text))
    .map((c, i) => `${i + 1}\n${srtTime(c.start_ms)} --> ${srtTime(c.end_ms)}\n${text(c.text)}\n`)
    .join('\n');
}

/**
 * WebVTT. `&`, `<` and `>` are escaped: in VTT cue text `<` opens a tag and `&` a character
 * reference, and `-->` is not allowed at all, so "a < b" would otherwise vanish in a browser.
 */
export function toVtt(cues: TimedText[], options: { singleLine?: boolean } = {}): string {
  const text = options.singleLine ? oneLine : keepLines;
  const body = cues
    .filter((c) => text(c.text))
    .map((c) => `${formatTime(c.start_ms)} --> ${formatTime(c.end_ms)}\n${escapeVtt(text(c.text))}\n`)
    .join('\n');
  return `WEBVTT\n\n${body}`;
}

const escapeVtt = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const VTT_ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&nbsp;': '\u00a0',
  '&lrm;': '\u200e',
  '&rlm;': '\u200f',
};

/** Plain text, one cue per line, optionally prefixed by `[hh:mm:ss.mmm]` and/or `speaker：`. */
export function toTxt(
  cues: Array<TimedText & { speaker?: string | null }>,
  options: { timestamps?: boolean; speakers?: boolean } = {},
): string {
  const lines = cues
    .filter((c) => oneLine(c.text))
    .map((c) => {
      const time = options.timestamps ? `[${formatTime(c.start_ms)}] ` : '';
      const who = options.speakers && c.speaker ? `${c.speaker}：` : '';
      return `${time}${who}${oneLine(c.text)}`;
    });
  // An empty track is an empty file, not a lone line break.
  return lines.length ? `${lines.join('\n')}\n` : '';
}

// Spaces around the arrow are optional: `00:00:01,000-->00:00:02,000` occurs in the wild.
const ARROW_RE = /^\s*([\d:.,]+)\s*-->\s*([\d:.,]+)/;

/**
 * Reads SRT or WebVTT (cue settings, identifiers, NOTE/STYLE blocks and formatting tags — HTML-like
 * and ASS `{\an8}` — are dropped; VTT character references are decoded); malformed blocks are ignored.
 */
export function parseSubtitles(source: string): TimedText[] {
  const cues: TimedText[] = [];
  const clean = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const isVtt = /^WEBVTT(?:[ \t\n]|$)/.test(clean);
  // A line of only spaces separates blocks as well as an empty one.
  const blocks = clean.split(/\n[ \t]*\n/);
  for (const block of blocks) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => ARROW_RE.test(l));
    if (at < 0) continue;
    const [, from, to] = ARROW_RE.exec(lines[at]!)!;
    const start = parseCueTime(from!);
    const end = parseCueTime(to!);
    if (start === null || end === null || end < start) continue;
    let text = lines
      .slice(at + 1)
      .join('\n')
      .replace(/<[^>]+>/g, '')
      .replace(/\{\\[^}]*\}/g, '')
      .trim();
    if (isVtt) text = text.replace(/&(?:amp|lt|gt|nbsp|lrm|rlm);/g, (e) => VTT_ENTITIES[e]!);
    cues.push({ start_ms: start, end_ms: end, text });
  }
  return cues;
}

/** VTT allows `mm:ss.mmm` as well as `hh:mm:ss.mmm`. */
function parseCueTime(text: string): number | null {
  return parseTime(text) ?? parseTime(`00:${text}`);
}

// ---------------------------------------------------------------- rule checker

export type CueIssueKind =
  | 'line_too_long'
  | 'too_many_lines'
  | 'too_fast'
  | 'too_short'
  | 'too_long'
  | 'gap_too_small'
  | 'overlap';

export interface CueIssue {
  kind: CueIssueKind;
  /** Chinese, shown next to the red flag. */
  message: string;
}

/** Visible characters, ignoring spaces and punctuation (what a reader reads). */
export function readingLength(text: string): number {
  return [...text.replace(/[\s\p{P}]/gu, '')].length;
}

/** Each explicit line's length in characters (code points, spaces included as typed). */
function lineLengths(text: string): number[] {
  return text.split('\n').map((l) => [...l.trim()].length);
}

/** The rules a cue breaks, given its neighbour after it (the gap rule looks forward). */
export function checkCue(cue: TimedText, next: TimedText | null, rules: CueRules): CueIssue[] {
  const issues: CueIssue[] = [];
  const lines = lineLengths(cue.text);
  const longest = Math.max(0, ...lines);
  if (longest > rules.max_chars_per_line) {
    issues.push({
      kind: 'line_too_long',
      message: `单行 ${longest} 字，超过 ${rules.max_chars_per_line} 字`,
    });
  }
  if (lines.length > rules.max_lines) {
    issues.push({ kind: 'too_many_lines', message: `${lines.length} 行，超过 ${rules.max_lines} 行` });
  }
  const duration = cue.end_ms - cue.start_ms;
  const chars = readingLength(cue.text);
  // An empty cue cannot be read too fast; text shown for no time at all can.
  const cps = chars === 0 ? 0 : duration > 0 ? chars / (duration / 1000) : Number.POSITIVE_INFINITY;
  if (cps > rules.max_cps) {
    const speed = Number.isFinite(cps) ? `${cps.toFixed(1)} 字/秒` : '无穷大（时长为 0）';
    issues.push({ kind: 'too_fast', message: `阅读速度 ${speed}，超过 ${rules.max_cps} 字/秒` });
  }
  if (duration < rules.min_duration_ms) {
    issues.push({
      kind: 'too_short',
      message: `时长 ${(duration / 1000).toFixed(2)} 秒，短于 ${rules.min_duration_ms / 1000} 秒`,
    });
  }
  if (duration > rules.max_duration_ms) {
    issues.push({
      kind: 'too_long',
      message: `时长 ${(duration / 1000).toFixed(2)} 秒，长于 ${rules.max_duration_ms / 1000} 秒`,
    });
  }
  if (next) {
    const gap = next.start_ms - cue.end_ms;
    if (gap < 0) issues.push({ kind: 'overlap', message: `与下一条重叠 ${(-gap / 1000).toFixed(2)} 秒` });
    else if (gap < rules.min_gap_ms) {
      issues.push({
        kind: 'gap_too_small',
        message: `与下一条间隔 ${gap} 毫秒，小于 ${rules.min_gap_ms} 毫秒`,
      });
    }
  }
  return issues;
}

/** Issues of every cue of a track sorted by start (index-aligned with `cues`). */
export function checkCues(cues: TimedText[], rules: CueRules): CueIssue[][] {
  return cues.map((c, i) => checkCue(c, cues[i + 1] ?? null, rules));
}

// ---------------------------------------------------------------- splitting recognised speech into cues

export interface TimedWord {
  text: string;
  start_ms: number;
  end_ms: number;
}

// A closing quote or bracket after the mark still ends the sentence (`好。”`).
const CLOSERS = `["'”’」』）)\\]]*`;
const SENTENCE_END = new RegExp(`(?:[。！？!?；;…]|[.](?=\\s|$))${CLOSERS}$`);
const CLAUSE_END = new RegExp(`[，,、：:]${CLOSERS}$`);
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;
/** Marks that hug the word before them (no space before): closing and trailing punctuation. */
const HUGS_LEFT = /^[\p{Pe}\p{Pf},.!?;:%…，。！？；：、']/u;
/** Marks that hug the word after them: opening brackets and quotes. */
const HUGS_RIGHT = /[\p{Ps}\p{Pi}]$/u;

/** Joins words the way the language writes them: no spaces between CJK, spaces elsewhere. */
export function joinWords(words: string[]): string {
  let out = '';
  for (const w of words) {
    const t = w.trim();
    if (!t) continue;
    const glue =
      out && !CJK.test(out.at(-1)!) && !CJK.test(t[0]!) && !HUGS_LEFT.test(t) && !HUGS_RIGHT.test(out);
    out += (glue ? ' ' : '') + t;
  }
  return out;
}

const length = (text: string) => [...text].length;

/**
 * Cuts one recognised segment (its words with times) into cues that fit the rules: at most
 * `max_chars_per_line × max_lines` characters (as written, spaces included) and `max_duration_ms`,
 * preferring sentence ends, then clause ends, then the widest pause. Lines inside a cue are wrapped
 * to `max_chars_per_line`.
 */
export function splitIntoCues(input: TimedWord[], rules: CueRules): TimedText[] {
  const words = input.filter((w) => w.text.trim());
  const limit = rules.max_chars_per_line * rules.max_lines;
  const cues: TimedText[] = [];
  let start = 0;
  while (start < words.length) {
    let end = start;
    // Grow while the cue still fits.
    while (end < words.length) {
      const chars = length(joinWords(words.slice(start, end + 1).map((w) => w.text)));
      const duration = words[end]!.end_ms - words[start]!.start_ms;
      if (end > start && (chars > limit || duration > rules.max_duration_ms)) break;
      end++;
      // A sentence end closes the cue once it holds half a line (a very short cue reads badly).
      if (SENTENCE_END.test(words[end - 1]!.text.trim()) && chars >= rules.max_chars_per_line / 2) break;
    }
    // Cut by a limit: step back to a better break inside the cue (sentence end, clause end, a wider
    // pause) — only when it beats the break the limit gave, so even speech keeps full cues.
    if (end < words.length && !SENTENCE_END.test(words[end - 1]!.text.trim())) {
      const score = (i: number) => {
        const word = words[i - 1]!.text.trim();
        const pause = Math.max(0, words[i]!.start_ms - words[i - 1]!.end_ms);
        return (SENTENCE_END.test(word) ? 10_000 : 0) + (CLAUSE_END.test(word) ? 5_000 : 0) + pause;
      };
      let best = end;
      let bestScore = score(end);
      for (let i = end - 1; i >= start + 2; i--) {
        const s = score(i);
        if (s > bestScore) {
          bestScore = s;
          best = i;
        }
      }
      end = best;
    }
    const slice = words.slice(start, end);
    cues.push({
      start_ms: slice[0]!.start_ms,
      end_ms: Math.max(slice[0]!.start_ms, slice.at(-1)!.end_ms),
      text: wrapText(joinWords(slice.map((w) => w.text)), rules.max_chars_per_line),
    });
    start = end;
  }
  return cues;
}

const BREAK_AFTER = /[\s，,。、！？!?；;：:]/;
/** Chinese typography: these never begin a line (避头). */
const NO_LINE_START = /[，,。、！？!?；;：:）)」』”’…]/;

/**
 * Breaks a cue's text into lines of at most `max` characters, as even as possible (20 hanzi at 16
 * per line → 10 + 10, not 16 + 4), at a space or punctuation near the middle when there is one, and
 * never with punctuation at the start of a line.
 */
export function wrapText(text: string, max: number): string {
  let rest = [...text.replace(/\s*\n\s*/g, ' ').trim()];
  if (rest.length <= max) return rest.join('');
  const lines: string[] = [];
  while (rest.length > max) {
    const linesLeft = Math.ceil(rest.length / max);
    const ideal = Math.ceil(rest.length / linesLeft);
    // The break closest to the even cut, within a quarter line of it and never past `max`.
    const reach = Math.max(1, Math.floor(max / 4));
    let cut = -1;
    for (let d = 0; d <= reach && cut < 0; d++) {
      for (const i of [ideal + d, ideal - d]) {
        if (i < 1 || i > max || i >= rest.length) continue;
        // Break after a space/mark, or before a space.
        if ((BREAK_AFTER.test(rest[i - 1]!) || /\s/.test(rest[i]!)) && !NO_LINE_START.test(rest[i]!)) {
          cut = i;
          break;
        }
      }
    }
    if (cut < 0) {
      cut = Math.min(ideal, max);
      // Pull a mark that would start the next line back onto this one (or push a character down).
      while (cut < max && cut < rest.length && NO_LINE_START.test(rest[cut]!)) cut++;
      while (cut > 1 && NO_LINE_START.test(rest[cut]!)) cut--;
    }
    lines.push(rest.slice(0, cut).join('').trim());
    rest = [...rest.slice(cut).join('').trimStart()];
  }
  if (rest.length) lines.push(rest.join('').trim());
  return lines.filter(Boolean).join('\n');
}

/**
 * Subtitles from synthesised speech (TTS, audiobooks): the words with the times they are spoken
 * (the engine's, or a sentence's measured span shared out by what is said) cut into cues by the
 * rules. Clauses are the units: one too long for a cue is cut into even parts at word boundaries
 * (never a one-word tail), then clauses are packed into cues, a sentence end closing a cue that
 * holds half a line. Each cue then stays up for the minimum duration and its reading time where
 * the next cue leaves room, `min_gap_ms` before it.
 */
export function speechCues(input: TimedWord[], rules: CueRules): TimedText[] {
  const words = input.filter((w) => w.text.trim());
  const limit = rules.max_chars_per_line * rules.max_lines;
  const charsOf = (part: TimedWord[]) => length(joinWords(part.map((w) => w.text)));
  const spanOf = (part: TimedWord[]) => part.at(-1)!.end_ms - part[0]!.start_ms;
  const fits = (part: TimedWord[]) => charsOf(part) <= limit && spanOf(part) <= rules.max_duration_ms;

  // Clauses, each cut into even parts when it does not fit one cue.
  const parts: TimedWord[][] = [];
  let clause: TimedWord[] = [];
  const closeClause = () => {
    if (!clause.length) return;
    const n = Math.max(
      1,
      Math.ceil(charsOf(clause) / limit),
      Math.ceil(spanOf(clause) / rules.max_duration_ms),
    );
    let from = 0;
    for (let k = 1; k <= n; k++) {
      // The word boundary nearest the k-th even cut (in time and characters), the last part takes the rest.
      let to = clause.length;
      if (k < n) {
        const target = clause[0]!.start_ms + (spanOf(clause) * k) / n;
        to = from + 1;
        while (to < clause.length - 1 && clause[to]!.end_ms <= target) to++;
        while (to > from + 1 && !fits(clause.slice(from, to))) to--;
      }
      parts.push(clause.slice(from, to));
      from = to;
      if (from >= clause.length) break;
    }
    if (from < clause.length) parts.push(clause.slice(from));
    clause = [];
  };
  for (const w of words) {
    clause.push(w);
    const t = w.text.trim();
    if (SENTENCE_END.test(t) || CLAUSE_END.test(t)) closeClause();
  }
  closeClause();

  // Parts packed into cues.
  const groups: TimedWord[][] = [];
  let cue: TimedWord[] = [];
  const closeCue = () => {
    if (cue.length) groups.push(cue);
    cue = [];
  };
  for (const part of parts) {
    if (cue.length && !fits([...cue, ...part])) closeCue();
    cue.push(...part);
    if (SENTENCE_END.test(cue.at(-1)!.text.trim()) && charsOf(cue) >= rules.max_chars_per_line / 2)
      closeCue();
  }
  closeCue();

  // A cue the next leaves no time to stay up (好。 before a long sentence) joins a neighbour when
  // they fit together, else borrows the next cue's first words.
  const tooShort = (g: TimedWord[], next?: TimedWord[]) =>
    (next ? next[0]!.start_ms - rules.min_gap_ms : Number.POSITIVE_INFINITY) - g[0]!.start_ms <
    rules.min_duration_ms;
  for (let i = 0; i < groups.length; i++) {
    const [prev, g, next] = [groups[i - 1], groups[i]!, groups[i + 1]];
    if (!tooShort(g, next)) continue;
    if (prev && fits([...prev, ...g])) {
      groups.splice(i - 1, 2, [...prev, ...g]);
      i -= 2;
    } else if (next && fits([...g, ...next])) {
      groups.splice(i, 2, [...g, ...next]);
      i -= 1;
    } else {
      while (next && next.length > 1 && tooShort(g, next) && fits([...g, next[0]!])) g.push(next.shift()!);
    }
  }
  const cues: TimedText[] = groups.map((g) => ({
    start_ms: g[0]!.start_ms,
    end_ms: Math.max(g[0]!.start_ms, g.at(-1)!.end_ms),
    text: wrapText(joinWords(g.map((w) => w.text)), rules.max_chars_per_line),
  }));

  return cues.map((c, i) => {
    const next = cues[i + 1];
    const latest = next ? next.start_ms - rules.min_gap_ms : Number.POSITIVE_INFINITY;
    const toRead = (readingLength(c.text) / rules.max_cps) * 1000;
    const wanted = Math.max(c.end_ms, c.start_ms + rules.min_duration_ms, c.start_ms + toRead);
    return { ...c, end_ms: Math.round(Math.max(c.start_ms, Math.min(wanted, latest))) };
  });
}

const WORDS = new Intl.Segmenter('zh', { granularity: 'word' });

/** A text spoken evenly between two times, as words (punctuation riding on the word before it). */
export function spreadWords(text: string, start_ms: number, end_ms: number): TimedWord[] {
  const pieces = [...WORDS.segment(text)].map((s) => s.segment);
  const weight = (p: string) => readingLength(p);
  const total = pieces.reduce((a, p) => a + weight(p), 0);
  const per = total > 0 ? (end_ms - start_ms) / total : 0;
  const words: TimedWord[] = [];
  let at = start_ms;
  for (const p of pieces) {
    if (!weight(p)) {
      if (p.trim() && words.length) words[words.length - 1]!.text += p;
      continue;
    }
    words.push({ text: p, start_ms: at, end_ms: at + weight(p) * per });
    at += weight(p) * per;
  }
  return words;
}

/**
 * Cues of speech whose times the audio fixes (dubbed lines): a cue too long for the rules (characters
 * or duration) is cut by `speechCues` over its own time; cues that fit are kept as they are.
 */
export function fitCues(cues: TimedText[], rules: CueRules): TimedText[] {
  const limit = rules.max_chars_per_line * rules.max_lines;
  return cues.flatMap((cue) => {
    const text = joinWords(cue.text.split(/\s*\n\s*/));
    if (length(text) <= limit && cue.end_ms - cue.start_ms <= rules.max_duration_ms) return [cue];
    return speechCues(spreadWords(text, cue.start_ms, cue.end_ms), rules).map((c) => ({
      ...c,
      end_ms: Math.min(c.end_ms, cue.end_ms),
    }));
  });
}
