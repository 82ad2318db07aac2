import { parseTtsMarkup, type TimedWord, type TtsSentence } from '@vw/contract';
import {
  normalizeText,
  type PronunciationDictionary,
  readsAsChinese,
  type Segment,
  splitSentences,
} from '@vw/engines';

/** One unit of synthesis: a sentence of the text (pauses folded in), the unit a long task resumes at. */
export interface SentenceUnit {
  index: number;
  /** UTF-16 offsets of the sentence in the marked-up text. */
  start: number;
  end: number;
  /** What the subtitles show (markup removed). */
  plain: string;
  /** What the engine gets: text and pauses; pinyin overrides written inline for Mandarin espeak voices. */
  segments: Segment[];
  /**
   * The shown text in the order it is spoken, each piece weighted by how much is said for it (a
   * number written 1234 is said in 7 syllables): subtitles share a sentence's time out by these.
   */
  pieces: SpokenPiece[];
}

/**
 * A written piece and where its reading sits in the engine's request (segment index and offsets
 * in that segment's text), so the engine's word timings find it; or a pause.
 */
export type SpokenPiece =
  | { text: string; weight: number; segment: number; from: number; to: number }
  | { pauseMs: number };

/** When each piece of a unit was said (ms from the unit's start), from the engine's word timings. */
export type PieceTimes = Array<[number, number] | null>;

/** How the text is read: Chinese voices get numbers, dates, units and Latin words written out. */
export interface ReadingOptions {
  language?: string;
  /** The user's dictionary: Latin words in it are said as written there. */
  words?: PronunciationDictionary;
}

/** Syllables a reading takes: a hanzi each, a Latin letter run or a digit each. */
const weightOf = (spoken: string) => (spoken.match(/\p{Script=Han}|[A-Za-z]+|\d/gu) ?? []).length;

const PAUSE = '\uE000';
/** Longest sentence handed to an engine in one call (engines cut longer ones at commas as well). */
export const MAX_SENTENCE_CHARS = 200;

/**
 * Splits marked-up text into sentence units. Pauses become silence segments inside their sentence;
 * `<phoneme>` readings are spoken inline as tone-numbered pinyin when `inlinePinyin` (espeak Mandarin
 * reads pinyin as written), otherwise the enclosed text is read as it is. For a Chinese voice the
 * engine gets the normalised reading of numbers, dates, units and Latin words (text/normalize.ts);
 * `plain` keeps what was written. A sentence of pauses only joins its neighbour, so every unit has
 * something to say.
 */
export function planSentences(
  text: string,
  inlinePinyin: boolean,
  options: ReadingOptions = {},
): SentenceUnit[] {
  let plain = '';
  const from: number[] = [];
  const to: number[] = [];
  const pauses = new Map<number, number>();
  const readings = new Map<number, { length: number; pinyin: string }>();
  for (const piece of parseTtsMarkup(text)) {
    if (piece.type === 'pause') {
      pauses.set(plain.length, piece.ms);
      plain += PAUSE;
      from.push(piece.start);
      to.push(piece.end);
    } else if (piece.type === 'phoneme') {
      readings.set(plain.length, { length: piece.text.length, pinyin: piece.pinyin });
      for (let i = 0; i < piece.text.length; i++) {
        from.push(i === 0 ? piece.start : piece.end);
        to.push(piece.end);
      }
      plain += piece.text;
    } else {
      for (let i = 0; i < piece.text.length; i++) {
        from.push(piece.start + i);
        to.push(piece.start + i + 1);
      }
      plain += piece.text;
    }
  }

  // Normalised spans by where they start in the plain text (the reading layer; the text stays);
  // text the user marked with a reading is read as marked.
  const marked = (s: { start: number; end: number }) =>
    [...readings].some(([at, r]) => at < s.end && at + r.length > s.start);
  const spoken = new Map(
    (readsAsChinese(options.language, plain) ? normalizeText(plain, { words: options.words }).spans : [])
      .filter((s) => !marked(s))
      .map((s) => [s.start, s]),
  );

  const units: SentenceUnit[] = [];
  let carry: Segment[] = [];
  let carryPieces: SpokenPiece[] = [];
  let carryStart: number | undefined;
  for (const s of splitSentences(plain, MAX_SENTENCE_CHARS)) {
    const segments: Segment[] = [...carry];
    const pieces: SpokenPiece[] = [...carryPieces];
    let words = '';
    let shown = '';
    // A piece spoken as `said`, appended to the segment being built (its index once flushed).
    const say = (text: string, weight: number, said: string) => {
      pieces.push({
        text,
        weight,
        segment: segments.length,
        from: words.length,
        to: words.length + said.length,
      });
      words += said;
    };
    const flush = () => {
      if (words) segments.push({ text: words });
      words = '';
    };
    for (let i = s.start; i < s.end; i++) {
      const pause = pauses.get(i);
      if (pause !== undefined) {
        flush();
        segments.push({ pauseMs: pause });
        pieces.push({ pauseMs: pause });
        continue;
      }
      const reading = inlinePinyin ? readings.get(i) : undefined;
      const span = spoken.get(i);
      if (reading && i + reading.length <= s.end) {
        const chars = [...plain.slice(i, i + reading.length)];
        const syllables = reading.pinyin.split(' ');
        // One syllable per character when they match, else the word shares its reading.
        chars.forEach((ch, k) => {
          say(
            ch,
            1,
            syllables.length === chars.length ? ` ${syllables[k]}` : k === 0 ? ` ${reading.pinyin}` : '',
          );
        });
        words += ' ';
        shown += plain.slice(i, i + reading.length);
        i += reading.length - 1;
        continue;
      }
      if (span && span.end <= s.end) {
        say(
          span.text,
          weightOf(span.spoken),
          /[A-Za-z]/.test(span.spoken) ? ` ${span.spoken} ` : span.spoken,
        );
        shown += span.text;
        i = span.end - 1;
        continue;
      }
      say(plain[i], /[\s\p{P}]/u.test(plain[i]) ? 0 : 1, plain[i]);
      shown += plain[i];
    }
    flush();
    const start = carryStart ?? from[s.start];
    if (!segments.some((g) => 'text' in g && g.text.trim())) {
      carry = segments;
      carryPieces = pieces;
      carryStart = start;
      continue;
    }
    carry = [];
    carryPieces = [];
    carryStart = undefined;
    units.push({ index: units.length, start, end: to[s.end - 1], plain: shown.trim(), segments, pieces });
  }
  if (carry.length && units.length) {
    const last = units[units.length - 1];
    const shift = last.segments.length;
    last.segments.push(...carry);
    last.pieces.push(...carryPieces.map((p) => ('segment' in p ? { ...p, segment: p.segment + shift } : p)));
    last.end = text.length;
  }
  return units;
}

const WORDS = new Intl.Segmenter('zh', { granularity: 'word' });

/**
 * The words of the spoken sentences with the times they are said: each sentence's measured span,
 * less its pauses, shared out by what is said for each piece (so 1234 gets the time of its seven
 * syllables); pieces join into words (学习|新的|技能) so cues are cut between words; punctuation
 * rides on the word before it, an opening quote on the word after.
 */
export function spokenWords(
  units: Array<Pick<SentenceUnit, 'pieces'>>,
  sentences: Array<Pick<TtsSentence, 'start_ms' | 'end_ms'>>,
  /** The engine's times of each unit's pieces, when it reports word timings. */
  times: Array<PieceTimes | undefined> = [],
): TimedWord[] {
  const words: TimedWord[] = [];
  units.forEach((unit, i) => {
    const s = sentences[i];
    if (!s) return;
    // The engine's own times when every spoken piece has one, else the weighted share.
    const own = times[i];
    const timed =
      own?.length === unit.pieces.length &&
      unit.pieces.every((p, k) => !('weight' in p) || p.weight === 0 || own[k] !== null);
    const paused = unit.pieces.reduce((a, p) => a + ('pauseMs' in p ? p.pauseMs : 0), 0);
    const weight = unit.pieces.reduce((a, p) => a + ('weight' in p ? p.weight : 0), 0);
    const perWeight = weight > 0 ? Math.max(0, s.end_ms - s.start_ms - paused) / weight : 0;
    const said = unit.pieces.map((p) => ('text' in p ? p.text : '')).join('');
    const bounds = new Set([...WORDS.segment(said)].map((g) => g.index));
    let at = s.start_ms;
    let offset = 0;
    let opening = '';
    let inWord = false;
    for (const p of unit.pieces) {
      if ('pauseMs' in p) {
        at += p.pauseMs;
        inWord = false;
        continue;
      }
      const pos = offset;
      offset += p.text.length;
      if (p.weight === 0) {
        inWord = false;
        if (!p.text.trim()) continue;
        if (/^[\p{Ps}\p{Pi}]$/u.test(p.text) || !words.length) opening += p.text;
        else words[words.length - 1].text += p.text;
        continue;
      }
      const k = unit.pieces.indexOf(p);
      const start = timed ? Math.max(at, s.start_ms + own![k]![0]) : at;
      const end = timed ? Math.max(start, s.start_ms + own![k]![1]) : at + p.weight * perWeight;
      const last = words.at(-1);
      if (inWord && last && !bounds.has(pos)) {
        last.text += p.text;
        last.end_ms = end;
      } else {
        words.push({ text: opening + p.text, start_ms: start, end_ms: end });
        opening = '';
      }
      inWord = true;
      at = end;
    }
    if (opening && words.length) words[words.length - 1].text += opening;
  });
  return words;
}

/** Each piece's time in the unit from the engine's word timings (offsets in the request's segments). */
export function pieceTimes(
  unit: Pick<SentenceUnit, 'pieces'>,
  timings: Array<{
    kind: string;
    segment: number;
    start: number;
    end: number;
    startMs: number;
    endMs: number;
  }>,
): PieceTimes {
  const words = timings.filter((t) => t.kind === 'word');
  return unit.pieces.map((p) => {
    if (!('segment' in p) || p.to <= p.from) return null;
    const hits = words.filter((w) => w.segment === p.segment && w.start < p.to && w.end > p.from);
    if (!hits.length) return null;
    return [Math.min(...hits.map((w) => w.startMs)), Math.max(...hits.map((w) => w.endMs))];
  });
}
