/**
 * The editor's markup (contract helpers/tts-markup.ts): pauses inserted at the caret and
 * per-place readings (polyphone corrections). The tags come from the contract's helpers; these
 * functions place them in the text and keep offsets so the editor can map clicks back to it.
 */
import {
  BREAK_PRESETS_MS,
  breakTag,
  countTtsCharacters,
  isPinyin,
  MAX_BREAK_MS,
  MIN_BREAK_MS,
  phonemeTag,
  stripTtsMarkup,
} from '@vw/contract/helpers/tts-markup.ts';

export { BREAK_PRESETS_MS, isPinyin, MAX_BREAK_MS, MIN_BREAK_MS };

/** Same tags as the contract's parser, with offsets (tokenize is checked against it in tests). */
const TAG_RE =
  /<break\s+time\s*=\s*"(\d+(?:\.\d+)?)(ms|s)"\s*\/>|<phoneme\s+ph\s*=\s*"([^"<>]*)"\s*>([^<]*)<\/phoneme>/g;

export interface EditResult {
  text: string;
  /** Where the caret goes afterwards (after the inserted markup). */
  caret: number;
}

/** Replaces text[start, end) by `insert`. */
export function replaceRange(text: string, start: number, end: number, insert: string): EditResult {
  const a = Math.max(0, Math.min(start, end, text.length));
  const b = Math.min(text.length, Math.max(start, end));
  return { text: text.slice(0, a) + insert + text.slice(b), caret: a + insert.length };
}

/** A caret that sits inside a tag is moved to the tag's end, so markup is never split. */
export function safeCaret(text: string, pos: number): number {
  for (const m of text.matchAll(TAG_RE)) {
    const s = m.index;
    const e = s + m[0].length;
    if (pos > s && pos < e) return e;
  }
  return pos;
}

/** Clamps a custom length (seconds, as typed) to the contract's range, in whole milliseconds. */
export function pauseMs(seconds: number): number {
  if (!Number.isFinite(seconds)) return MIN_BREAK_MS;
  return Math.min(MAX_BREAK_MS, Math.max(MIN_BREAK_MS, Math.round(seconds * 1000)));
}

/** Inserts a pause at the caret; with a selection the pause goes after it (the text stays). */
export function insertPause(text: string, selStart: number, selEnd: number, ms: number): EditResult {
  const at = safeCaret(text, Math.max(selStart, selEnd));
  return replaceRange(text, at, at, breakTag(ms));
}

/** "0.5 秒"-style length of a pause. */
export const pauseSeconds = (ms: number) => Math.round(ms / 100) / 10;

/** The text as it is read: markup removed. */
export const plainText = stripTtsMarkup;
/** Characters counted against the limit and for pricing (the contract's rule). */
export const countChars = countTtsCharacters;

export type Token =
  | { kind: 'text'; text: string; start: number; end: number }
  | { kind: 'pause'; ms: number; start: number; end: number }
  | { kind: 'reading'; text: string; reading: string; start: number; end: number };

/** Splits marked-up text into plain runs, pauses and characters with a chosen reading, with offsets. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let last = 0;
  const pushText = (start: number, end: number) => {
    if (end <= start) return;
    const prev = out[out.length - 1];
    if (prev?.kind === 'text' && prev.end === start) {
      prev.text += text.slice(start, end);
      prev.end = end;
    } else out.push({ kind: 'text', text: text.slice(start, end), start, end });
  };
  for (const m of text.matchAll(TAG_RE)) {
    const s = m.index;
    const e = s + m[0].length;
    pushText(last, s);
    if (m[1] !== undefined) {
      const ms = Number(m[1]) * (m[2] === 's' ? 1000 : 1);
      out.push({
        kind: 'pause',
        ms: Math.min(MAX_BREAK_MS, Math.max(MIN_BREAK_MS, Math.round(ms))),
        start: s,
        end: e,
      });
    } else if (isPinyin(m[3]) && m[4]) {
      out.push({
        kind: 'reading',
        text: m[4],
        reading: m[3].trim().toLowerCase().replace(/\s+/g, ' '),
        start: s,
        end: e,
      });
    } else {
      // An invalid reading is read as its enclosed text; keep the raw tag visible as text.
      pushText(s, e);
    }
    last = e;
  }
  pushText(last, text.length);
  return out;
}

/**
 * Sets the reading of the character at raw offset `index` (a plain character, or one already
 * carrying a reading). An empty reading removes the markup again.
 */
export function setReading(text: string, index: number, reading: string): EditResult {
  for (const t of tokenize(text)) {
    if (index < t.start || index >= t.end) continue;
    if (t.kind === 'reading')
      return replaceRange(text, t.start, t.end, reading ? phonemeTag(t.text, reading) : t.text);
    if (t.kind === 'text') {
      const ch = String.fromCodePoint(text.codePointAt(index) ?? 0);
      return replaceRange(text, index, index + ch.length, reading ? phonemeTag(ch, reading) : ch);
    }
  }
  return { text, caret: index };
}

/**
 * Where each character of the plain (read) text sits in the raw text: plain offset → raw offset.
 * The readings helper answers in plain-text offsets; clicks and edits work on the raw text.
 */
export function plainToRaw(text: string): number[] {
  const map: number[] = [];
  for (const t of tokenize(text)) {
    if (t.kind === 'pause') continue;
    if (t.kind === 'reading') {
      // The enclosed text sits just before `</phoneme>`.
      const inner = t.end - '</phoneme>'.length - t.text.length;
      for (let i = 0; i < t.text.length; i++) map.push(inner + i);
      continue;
    }
    for (let i = 0; i < t.text.length; i++) map.push(t.start + i);
  }
  return map;
}

/**
 * An integer with thousands separators exactly as zh-CN writes it ('100,000'), without Intl:
 * the first `toLocaleString('zh-CN')` of a page costs tens of milliseconds, on the first paint.
 */
export function groupDigits(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
