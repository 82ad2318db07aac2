/**
 * Pure timing helpers shared by the providers: words from recognizer tokens or spread over a segment,
 * words assigned to segments, chunk times offset into file times, speakers from diarization turns.
 */
import type { AsrSegment, AsrWord } from './types.ts';

/** Scripts written without spaces: every character is a word of its own. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const PUNCTUATION_ONLY = /^[\p{P}\p{S}]+$/u;
const WORD =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;

/** Punctuation that closes what came before (，。!?」) — it belongs to the word before it. */
const CLOSING = /^[\p{Pe}\p{Pf}\p{Po}]+/u;

/** Words of a text: CJK characters one by one, other scripts by spaces; punctuation stays on the word before. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const [piece] of text.matchAll(WORD)) {
    const closing = words.length ? (piece.match(CLOSING)?.[0] ?? '') : '';
    if (closing) words[words.length - 1] += closing;
    const rest = piece.slice(closing.length);
    if (!rest) continue;
    if (PUNCTUATION_ONLY.test(rest) && words.length) words[words.length - 1] += rest;
    else words.push(rest);
  }
  return words;
}

const weight = (word: string) => [...word.replace(/[\p{P}\p{S}]/gu, '')].length || 1;

/**
 * Word times for a recognizer or server that gives none: the segment's time shared by characters
 * (punctuation weighs nothing), which is close for subtitles and honest about being an estimate.
 */
export function spreadWords(text: string, startMs: number, endMs: number): AsrWord[] {
  const words = splitWords(text);
  const total = words.reduce((sum, w) => sum + weight(w), 0);
  const span = Math.max(0, endMs - startMs);
  let at = 0;
  return words.map((word) => {
    const from = startMs + (span * at) / total;
    at += weight(word);
    return { text: word, startMs: Math.round(from), endMs: Math.round(startMs + (span * at) / total) };
  });
}

export interface TokenTimes {
  tokens: string[];
  /** Start of each token in seconds from the start of the chunk. */
  timestamps: number[];
  /** Length of each token in seconds, when the model gives it. */
  durations?: number[];
}

/** Recognizer markers (`<|zh|>`, `<unk>`), not text. */
const SPECIAL = /^<\|?[^>]*\|?>$/;

/**
 * Words from token timestamps. Tokens are characters (Chinese) or word pieces: SentencePiece marks
 * a word start with '▁', paraformer marks a continuation with a trailing '@@'. A token ends where the
 * next begins (or after its duration); the last one at the end of the chunk. Returns undefined when
 * the tokens carry no times (whisper, some paraformer exports), so the caller spreads instead.
 */
export function wordsFromTokens(
  { tokens, timestamps, durations }: TokenTimes,
  chunkStartMs: number,
  chunkEndMs: number,
): AsrWord[] | undefined {
  if (!tokens.length || timestamps.length !== tokens.length) return undefined;
  const words: AsrWord[] = [];
  // SentencePiece vocabularies mark word starts ('▁'): there, a piece without one continues a word.
  // Elsewhere (paraformer) a token is a whole word unless the one before ended in '@@'.
  const pieces = tokens.some((t) => t.startsWith('▁'));
  let joinNext = false;
  tokens.forEach((token, i) => {
    if (SPECIAL.test(token)) return;
    const startMs = Math.round(chunkStartMs + timestamps[i] * 1000);
    const next = timestamps[i + 1];
    const endMs = Math.min(
      chunkEndMs,
      Math.round(
        durations?.[i]
          ? startMs + durations[i] * 1000
          : next !== undefined
            ? chunkStartMs + next * 1000
            : chunkEndMs,
      ),
    );
    const continues = joinNext;
    joinNext = token.endsWith('@@');
    const text = token.replace(/@@$/, '');
    const startsWord = /^[▁ ]/.test(text);
    const clean = text.replace(/^[▁ ]+/, '');
    if (!clean) return;
    const last = words[words.length - 1];
    const attach =
      last &&
      (continues ||
        PUNCTUATION_ONLY.test(clean) ||
        (pieces && !startsWord && !UNSPACED.test(clean) && !UNSPACED.test(last.text.slice(-1))));
    if (attach) {
      last.text += clean;
      last.endMs = Math.max(last.endMs, endMs);
    } else words.push({ text: clean, startMs, endMs: Math.max(startMs, endMs) });
  });
  return words;
}

/**
 * Gives each segment the words whose middle falls inside it (or, between segments, the nearest one):
 * OpenAI's verbose_json lists words at the top level, apart from the segments.
 */
export function assignWords<S extends { startMs: number; endMs: number }>(
  segments: S[],
  words: AsrWord[],
): AsrWord[][] {
  const out = segments.map((): AsrWord[] => []);
  if (!segments.length) return out;
  for (const word of words) {
    const mid = (word.startMs + word.endMs) / 2;
    let best = 0;
    let bestDistance = Number.POSITIVE_INFINITY;
    segments.forEach((s, i) => {
      const distance = mid < s.startMs ? s.startMs - mid : mid > s.endMs ? mid - s.endMs : 0;
      if (distance < bestDistance) {
        best = i;
        bestDistance = distance;
      }
    });
    out[best].push(word);
  }
  return out;
}

/** A segment recognised in a chunk of the file, moved to file time. */
export function offsetSegment(segment: AsrSegment, offsetMs: number, id = segment.id): AsrSegment {
  const shift = (w: AsrWord) => ({ ...w, startMs: w.startMs + offsetMs, endMs: w.endMs + offsetMs });
  return {
    ...segment,
    id,
    startMs: segment.startMs + offsetMs,
    endMs: segment.endMs + offsetMs,
    words: segment.words.map(shift),
  };
}

export interface SpeakerTurn {
  startMs: number;
  endMs: number;
  /** The diarizer's cluster number. */
  speaker: number;
}

/**
 * Labels each segment with the speaker who talks most within it, 'S1', 'S2'… numbered in order of
 * first appearance (the diarizer's cluster numbers mean nothing to a reader).
 */
export function assignSpeakers(segments: AsrSegment[], turns: SpeakerTurn[]): AsrSegment[] {
  const labels = new Map<number, string>();
  return segments.map((segment) => {
    const talk = new Map<number, number>();
    for (const t of turns) {
      const overlap = Math.min(t.endMs, segment.endMs) - Math.max(t.startMs, segment.startMs);
      if (overlap > 0) talk.set(t.speaker, (talk.get(t.speaker) ?? 0) + overlap);
    }
    const [speaker] = [...talk].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0] ?? [];
    if (speaker === undefined) return segment;
    if (!labels.has(speaker)) labels.set(speaker, `S${labels.size + 1}`);
    return { ...segment, speaker: labels.get(speaker) };
  });
}

/** Characters after or before which no space goes (CJK, fullwidth punctuation). */
const CJK_EDGE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/** Texts joined as a reader expects: a space between words of spaced scripts, none around CJK. */
export function joinTexts(texts: string[]): string {
  return texts
    .map((t) => t.trim())
    .filter(Boolean)
    .reduce(
      (out, t) => (!out ? t : CJK_EDGE.test(out.at(-1)!) || CJK_EDGE.test(t[0]) ? out + t : `${out} ${t}`),
      '',
    );
}
