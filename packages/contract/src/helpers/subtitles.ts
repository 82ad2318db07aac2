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

const oneLine = (text: string) => text.replace(/\r?\n+/g, ' ').trim();
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

export function toVtt(cues: TimedText[], options: { singleLine?: boolean } = {}): string {
  const text = options.singleLine ? oneLine : keepLines;
  const body = cues
    .filter((c) => text(c.text))
    .map((c) => `${formatTime(c.start_ms)} --> ${formatTime(c.end_ms)}\n${text(c.text)}\n`)
    .join('\n');
  return `WEBVTT\n\n${body}`;
}

/** Plain text, one cue per line, optionally prefixed by `[hh:mm:ss.mmm]` and/or `speaker：`. */
export function toTxt(
  cues: Array<TimedText & { speaker?: string | null }>,
  options: { timestamps?: boolean; speakers?: boolean } = {},
): string {
  return cues
    .filter((c) => oneLine(c.text))
    .map((c) => {
      const time = options.timestamps ? `[${formatTime(c.start_ms)}] ` : '';
      const who = options.speakers && c.speaker ? `${c.speaker}：` : '';
      return `${time}${who}${oneLine(c.text)}`;
    })
    .join('\n')
    .concat('\n');
}

const ARROW_RE = /^\s*(\S+)\s+-->\s+(\S+)/;

/** Reads SRT or WebVTT (cue settings, identifiers and NOTE blocks are skipped); malformed blocks are ignored. */
export function parseSubtitles(source: string): TimedText[] {
  const cues: TimedText[] = [];
  const blocks = source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => ARROW_RE.test(l));
    if (at < 0) continue;
    const [, from, to] = ARROW_RE.exec(lines[at]!)!;
    const start = parseCueTime(from!);
    const end = parseCueTime(to!);
    if (start === null || end === null || end < start) continue;
    const text = lines
      .slice(at + 1)
      .join('\n')
      .replace(/<[^>]+>/g, '')
      .trim();
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
  const cps = duration > 0 ? readingLength(cue.text) / (duration / 1000) : Number.POSITIVE_INFINITY;
  if (cps > rules.max_cps) {
    issues.push({ kind: 'too_fast', message: `阅读速度 ${cps.toFixed(1)} 字/秒，超过 ${rules.max_cps}` });
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

const SENTENCE_END = /[。！？!?；;…]$|[.](?=\s|$)/;
const CLAUSE_END = /[，,、：:]$/;
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** Joins words the way the language writes them: no spaces between CJK, spaces elsewhere. */
export function joinWords(words: string[]): string {
  let out = '';
  for (const w of words) {
    const t = w.trim();
    if (!t) continue;
    const glue = out && !(CJK.test(out.at(-1)!) || CJK.test(t[0]!)) && !/^[\p{P}]/u.test(t) ? ' ' : '';
    out += glue + t;
  }
  return out;
}

/**
 * Cuts one recognised segment (its words with times) into cues that fit the rules: at most
 * `max_chars_per_line × max_lines` characters and `max_duration_ms`, preferring sentence ends, then
 * clause ends, then the widest pause. Lines inside a cue are wrapped to `max_chars_per_line`.
 */
export function splitIntoCues(words: TimedWord[], rules: CueRules): TimedText[] {
  const limit = rules.max_chars_per_line * rules.max_lines;
  const cues: TimedText[] = [];
  let start = 0;
  while (start < words.length) {
    let end = start;
    let chars = 0;
    // Grow while the cue still fits.
    while (end < words.length) {
      const next = chars + [...words[end]!.text.trim()].length;
      const duration = words[end]!.end_ms - words[start]!.start_ms;
      if (end > start && (next > limit || duration > rules.max_duration_ms)) break;
      chars = next;
      end++;
      if (SENTENCE_END.test(words[end - 1]!.text.trim()) && chars >= rules.max_chars_per_line / 2) break;
    }
    // If the cue was cut by a limit, step back to the best break inside it.
    if (end < words.length && !SENTENCE_END.test(words[end - 1]!.text.trim())) {
      let best = -1;
      let bestScore = -1;
      for (let i = start + 1; i < end; i++) {
        const word = words[i - 1]!.text.trim();
        const pause = words[i]!.start_ms - words[i - 1]!.end_ms;
        const score = (SENTENCE_END.test(word) ? 10_000 : 0) + (CLAUSE_END.test(word) ? 5_000 : 0) + pause;
        if (score > bestScore && i - start >= 2) {
          bestScore = score;
          best = i;
        }
      }
      if (best > start && bestScore > 0) end = best;
    }
    const slice = words.slice(start, end);
    cues.push({
      start_ms: slice[0]!.start_ms,
      end_ms: slice.at(-1)!.end_ms,
      text: wrapText(joinWords(slice.map((w) => w.text)), rules.max_chars_per_line),
    });
    start = end;
  }
  return cues;
}

/** Breaks a cue's text into lines of at most `max` characters, at a space or punctuation when one is near. */
export function wrapText(text: string, max: number): string {
  const chars = [...text.replace(/\n/g, ' ')];
  if (chars.length <= max) return chars.join('');
  const lines: string[] = [];
  let rest = chars;
  while (rest.length > max) {
    let cut = max;
    for (let i = max; i > Math.floor(max / 2); i--) {
      if (/[\s，,。、！？!?；;：:]/.test(rest[i - 1]!)) {
        cut = i;
        break;
      }
    }
    lines.push(rest.slice(0, cut).join('').trim());
    rest = rest.slice(cut);
  }
  if (rest.length) lines.push(rest.join('').trim());
  return lines.filter(Boolean).join('\n');
}
