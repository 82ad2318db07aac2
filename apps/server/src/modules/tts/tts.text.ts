import { parseTtsMarkup } from '@vw/contract';
import { type Segment, splitSentences } from '@vw/engines';

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
}

const PAUSE = '\uE000';
/** Longest sentence handed to an engine in one call (engines cut longer ones at commas as well). */
export const MAX_SENTENCE_CHARS = 200;

/**
 * Splits marked-up text into sentence units. Pauses become silence segments inside their sentence;
 * `<phoneme>` readings are spoken inline as tone-numbered pinyin when `inlinePinyin` (espeak Mandarin
 * reads pinyin as written), otherwise the enclosed text is read as it is. A sentence of pauses only
 * joins its neighbour, so every unit has something to say.
 */
export function planSentences(text: string, inlinePinyin: boolean): SentenceUnit[] {
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

  const units: SentenceUnit[] = [];
  let carry: Segment[] = [];
  let carryStart: number | undefined;
  for (const s of splitSentences(plain, MAX_SENTENCE_CHARS)) {
    const segments: Segment[] = [...carry];
    let words = '';
    let shown = '';
    const flush = () => {
      if (words) segments.push({ text: words });
      words = '';
    };
    for (let i = s.start; i < s.end; i++) {
      const pause = pauses.get(i);
      if (pause !== undefined) {
        flush();
        segments.push({ pauseMs: pause });
        continue;
      }
      const reading = inlinePinyin ? readings.get(i) : undefined;
      if (reading && i + reading.length <= s.end) {
        words += ` ${reading.pinyin} `;
        shown += plain.slice(i, i + reading.length);
        i += reading.length - 1;
        continue;
      }
      words += plain[i];
      shown += plain[i];
    }
    flush();
    const start = carryStart ?? from[s.start];
    if (!segments.some((g) => 'text' in g && g.text.trim())) {
      carry = segments;
      carryStart = start;
      continue;
    }
    carry = [];
    carryStart = undefined;
    units.push({ index: units.length, start, end: to[s.end - 1], plain: shown.trim(), segments });
  }
  if (carry.length && units.length) {
    const last = units[units.length - 1];
    last.segments.push(...carry);
    last.end = text.length;
  }
  return units;
}
