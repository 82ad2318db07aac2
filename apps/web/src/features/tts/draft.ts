/**
 * The text-to-speech draft: the user's text exactly as typed, with pauses and per-place readings kept
 * beside it as marks (offsets into that text that follow every edit). The server's SSML-like markup
 * (contract helpers/tts-markup.ts) is only the wire format: built when the text is sent, parsed when an
 * item comes back from the history. The user never sees a tag.
 */
import {
  breakTag,
  countTtsCharacters,
  MAX_BREAK_MS,
  MIN_BREAK_MS,
  parseTtsMarkup,
  phonemeTag,
} from '@vw/contract/helpers/tts-markup.ts';

/** A pause before the character at `at` (`at` = text length: at the end). */
export interface PauseMark {
  kind: 'pause';
  at: number;
  ms: number;
}
/** A reading for text[at, at + text.length): tone-numbered pinyin, one syllable per character. */
export interface ReadingMark {
  kind: 'reading';
  at: number;
  text: string;
  pinyin: string;
}
export type Mark = PauseMark | ReadingMark;

export interface Draft {
  text: string;
  /** Sorted by offset; at one offset pauses come before the reading. */
  marks: Mark[];
}

export const emptyDraft: Draft = { text: '', marks: [] };

const order = (a: Mark, b: Mark) => a.at - b.at || (a.kind === b.kind ? 0 : a.kind === 'pause' ? -1 : 1);
const sorted = (marks: Mark[]) => [...marks].sort(order);
const endOf = (m: ReadingMark) => m.at + m.text.length;

/** Marked-up text (history items, older drafts) → the text with its marks. */
export function fromMarkup(raw: string): Draft {
  let text = '';
  const marks: Mark[] = [];
  for (const p of parseTtsMarkup(raw)) {
    if (p.type === 'pause') {
      marks.push({ kind: 'pause', at: text.length, ms: p.ms });
      continue;
    }
    if (p.type === 'phoneme') {
      const chars = [...p.text];
      const syllables = p.pinyin.split(' ');
      if (chars.length === syllables.length) {
        // One mark per character, so each can be changed on its own.
        let at = text.length;
        chars.forEach((ch, i) => {
          marks.push({ kind: 'reading', at, text: ch, pinyin: syllables[i] });
          at += ch.length;
        });
      } else marks.push({ kind: 'reading', at: text.length, text: p.text, pinyin: p.pinyin });
    }
    text += p.text;
  }
  return { text, marks };
}

/** The text as the server takes it: pauses and readings written as the contract's markup. */
export function toMarkup(draft: Draft): string {
  const { text } = draft;
  let out = '';
  let at = 0;
  for (const m of draft.marks) {
    if (m.at < at || m.at > text.length) continue; // inside an earlier reading: never split a tag
    out += text.slice(at, m.at);
    at = m.at;
    if (m.kind === 'pause') out += breakTag(m.ms);
    else if (text.startsWith(m.text, m.at)) {
      out += phonemeTag(m.text, m.pinyin);
      at = endOf(m);
    }
  }
  return out + text.slice(at);
}

/** Characters counted against the limit and for pricing (the contract's rule on what is sent). */
export const draftChars = (draft: Draft): number => countTtsCharacters(toMarkup(draft));

/**
 * The text after a change in the text box: marks before the change stay, marks after it move with
 * their characters, marks on replaced characters (and pauses inside a removed stretch) go. `caret` is
 * where the caret is afterwards: the change ends there, which tells apart which of several equal
 * characters was typed or deleted.
 */
export function editText(draft: Draft, next: string, caret?: number): Draft {
  const prev = draft.text;
  if (prev === next) return draft;
  const after = caret === undefined ? next.length : next.length - Math.min(Math.max(caret, 0), next.length);
  let suffix = 0;
  const maxSuffix = Math.min(prev.length, after);
  while (suffix < maxSuffix && prev[prev.length - 1 - suffix] === next[next.length - 1 - suffix]) suffix++;
  let start = 0;
  const maxPrefix = Math.min(prev.length, next.length) - suffix;
  while (start < maxPrefix && prev[start] === next[start]) start++;
  const end = prev.length - suffix;
  const delta = next.length - prev.length;
  const marks: Mark[] = [];
  for (const m of draft.marks) {
    if (m.kind === 'pause') {
      if (m.at <= start) marks.push(m);
      else if (m.at >= end) marks.push({ ...m, at: m.at + delta });
    } else if (endOf(m) <= start) marks.push(m);
    else if (m.at >= end) marks.push({ ...m, at: m.at + delta });
  }
  return { text: next, marks };
}

/** Adds a pause before the character at `at`, never inside a marked reading. */
export function addPause(draft: Draft, at: number, ms: number): Draft {
  let pos = Math.min(Math.max(0, at), draft.text.length);
  for (const m of draft.marks) if (m.kind === 'reading' && pos > m.at && pos < endOf(m)) pos = endOf(m);
  const clamped = Math.min(MAX_BREAK_MS, Math.max(MIN_BREAK_MS, Math.round(ms)));
  return { ...draft, marks: sorted([...draft.marks, { kind: 'pause', at: pos, ms: clamped }]) };
}

/** The pauses at `at`. */
export const pausesAt = (draft: Draft, at: number): PauseMark[] =>
  draft.marks.filter((m): m is PauseMark => m.kind === 'pause' && m.at === at);

/** Removes the last pause at `at` (as Backspace/Delete would remove a character there). */
export function removePause(draft: Draft, at: number): Draft {
  const last = pausesAt(draft, at).at(-1);
  return last ? { ...draft, marks: draft.marks.filter((m) => m !== last) } : draft;
}

/** The reading mark covering the character at `at`, with that character's syllable. */
export function readingAt(draft: Draft, at: number): { mark: ReadingMark; pinyin: string } | undefined {
  for (const m of draft.marks) {
    if (m.kind !== 'reading' || at < m.at || at >= endOf(m)) continue;
    const syllables = m.pinyin.split(' ');
    const index = [...draft.text.slice(m.at, at)].length;
    return { mark: m, pinyin: syllables.length > 1 ? (syllables[index] ?? syllables[0]) : m.pinyin };
  }
  return undefined;
}

/** Sets the reading of the character at `at` (replacing any mark over it); '' removes it. */
export function setReading(draft: Draft, at: number, pinyin: string): Draft {
  const cp = draft.text.codePointAt(at);
  if (cp === undefined) return draft;
  const ch = String.fromCodePoint(cp);
  const marks = draft.marks.filter((m) => m.kind !== 'reading' || at < m.at || at >= endOf(m));
  if (pinyin) marks.push({ kind: 'reading', at, text: ch, pinyin: pinyin.trim().toLowerCase() });
  return { ...draft, marks: sorted(marks) };
}
