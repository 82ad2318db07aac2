/**
 * The small SSML-like markup of the text-to-speech editor. Everything else in the text is plain text
 * (a literal `<` that starts no tag below is read as text).
 *
 * - `<break time="500ms"/>` or `<break time="1.5s"/>`: a pause of that length (50 ms … 10 s).
 * - `<phoneme ph="hang2">行</phoneme>`: read the enclosed Chinese text with this pinyin (tone numbers
 *   1–5, one syllable per character, space separated) — a polyphone fixed for one place only.
 */

export const MIN_BREAK_MS = 50;
export const MAX_BREAK_MS = 10_000;
/** Preset pause lengths the editor offers (ms). */
export const BREAK_PRESETS_MS = [200, 500, 1000, 2000] as const;

/** `start`/`end`: UTF-16 offsets of the piece (the whole tag for pauses and phonemes) in the marked-up text. */
export type TtsPiece = { start: number; end: number } & (
  | { type: 'text'; text: string }
  | { type: 'pause'; ms: number }
  | { type: 'phoneme'; text: string; pinyin: string }
);

const TAG =
  /<break\s+time\s*=\s*"(\d+(?:\.\d+)?)(ms|s)"\s*\/>|<phoneme\s+ph\s*=\s*"([^"<>]*)"\s*>([^<]*)<\/phoneme>/g;

/** One pinyin syllable with a tone number, e.g. `hang2`, `lv4`, `lü4`, `ma5`. */
export const PINYIN_SYLLABLE_RE = /^[a-zü:v]{1,7}[1-5]$/;

/** `hang2` / `yin2 hang2`: each syllable with a tone number, separated by single spaces. */
export function isPinyin(value: string): boolean {
  const parts = value.trim().toLowerCase().split(/\s+/);
  return parts.length > 0 && parts.every((p) => PINYIN_SYLLABLE_RE.test(p));
}

export function breakTag(ms: number): string {
  const clamped = Math.min(MAX_BREAK_MS, Math.max(MIN_BREAK_MS, Math.round(ms)));
  return `<break time="${clamped}ms"/>`;
}

export function phonemeTag(text: string, pinyin: string): string {
  return `<phoneme ph="${pinyin.trim().toLowerCase()}">${text}</phoneme>`;
}

/** Splits text into plain text, pauses and pinyin overrides (adjacent plain text is merged). */
export function parseTtsMarkup(text: string): TtsPiece[] {
  const out: TtsPiece[] = [];
  const pushText = (t: string, start: number, end: number) => {
    if (!t) return;
    const last = out[out.length - 1];
    // Merged only when contiguous (an invalid phoneme tag's inner text is not).
    if (last?.type === 'text' && last.end === start && end - start === t.length) {
      last.text += t;
      last.end = end;
    } else out.push({ type: 'text', text: t, start, end });
  };
  let at = 0;
  for (const m of text.matchAll(TAG)) {
    pushText(text.slice(at, m.index), at, m.index);
    const start = m.index;
    at = m.index + m[0].length;
    if (m[1] !== undefined) {
      const ms = Number(m[1]) * (m[2] === 's' ? 1000 : 1);
      out.push({
        type: 'pause',
        ms: Math.min(MAX_BREAK_MS, Math.max(MIN_BREAK_MS, Math.round(ms))),
        start,
        end: at,
      });
    } else if (isPinyin(m[3]) && m[4]) {
      out.push({
        type: 'phoneme',
        text: m[4],
        pinyin: m[3].trim().toLowerCase().replace(/\s+/g, ' '),
        start,
        end: at,
      });
    } else {
      const inner = at - '</phoneme>'.length - (m[4]?.length ?? 0);
      pushText(m[4] ?? '', inner, inner + (m[4]?.length ?? 0));
    }
  }
  pushText(text.slice(at), at, text.length);
  return out;
}

/** The text as it is read (pauses removed, phoneme tags replaced by their enclosed text). */
export function stripTtsMarkup(text: string): string {
  return parseTtsMarkup(text)
    .map((p) => (p.type === 'pause' ? '' : p.text))
    .join('');
}

/** Characters that count for limits and pricing: code points of the read text, whitespace excluded. */
export function countTtsCharacters(text: string): number {
  let n = 0;
  for (const ch of stripTtsMarkup(text)) if (!/\s/u.test(ch)) n++;
  return n;
}
