import type { CharacterReading } from '@vw/contract';
import { type Draft, readingAt, setReading } from './draft.ts';

const HAN = /\p{Script=Han}/u;

/** A place in the text whose reading the user may choose. */
export interface Spot {
  /** Offset of the character in the user's text (the readings helper got the same text). */
  at: number;
  text: string;
  /** What will be spoken: the place's own mark first, else the server's reading (dictionary applied). */
  pinyin: string;
  candidates: string[];
  /** Fixed for this place only by a mark. */
  marked: boolean;
  fromDictionary: boolean;
}

/**
 * Joins the readings helper's answer for the draft's text with the draft's marks: every character
 * with more than one candidate reading (or a reading of its own) becomes a spot; a mark wins over the
 * server's reading.
 */
export function findSpots(draft: Draft, readings: readonly CharacterReading[]): Spot[] {
  const out: Spot[] = [];
  for (const r of readings) {
    // One character each, still where the helper saw it (readings for an older text are skipped).
    if ([...r.text].length !== 1 || draft.text.slice(r.start, r.end) !== r.text) continue;
    const own = readingAt(draft, r.start)?.pinyin;
    if (r.candidates.length < 2 && own === undefined) continue;
    out.push({
      at: r.start,
      text: r.text,
      pinyin: own ?? r.pinyin,
      candidates: own && !r.candidates.includes(own) ? [...r.candidates, own] : r.candidates,
      marked: own !== undefined,
      fromDictionary: own === undefined && r.from_dictionary,
    });
  }
  return out;
}

/** A dictionary word around a spot: the character alone, or with its Chinese neighbour. */
export interface WordOption {
  word: string;
  pinyin: string;
}

/**
 * Words the user may save for a spot with the chosen reading: the character with the previous or
 * the next Chinese character (their readings from the helper), and the character alone.
 */
export function wordOptions(
  draft: Draft,
  readings: readonly CharacterReading[],
  spot: Pick<Spot, 'at' | 'text'>,
  chosen: string,
): WordOption[] {
  const { text } = draft;
  const byStart = new Map(readings.filter((r) => r.end - r.start === 1).map((r) => [r.start, r]));
  // A neighbour is read as its own mark says, else as the helper reads it.
  const readingOf = (at: number) => readingAt(draft, at)?.pinyin ?? byStart.get(at)?.pinyin;
  const prev = readingOf(spot.at - 1);
  const next = readingOf(spot.at + 1);
  const out: WordOption[] = [];
  if (prev && HAN.test(text[spot.at - 1]))
    out.push({ word: text[spot.at - 1] + spot.text, pinyin: `${prev} ${chosen}` });
  if (next && HAN.test(text[spot.at + 1]))
    out.push({ word: spot.text + text[spot.at + 1], pinyin: `${chosen} ${next}` });
  out.push({ word: spot.text, pinyin: chosen });
  return out;
}

export interface Choice {
  draft: Draft;
  /** The entry to save, when the user asked to keep the reading in the dictionary. */
  dictionary: WordOption | null;
}

/**
 * Applies a chosen reading. The place gets a mark (so this text is read that way at once); saving
 * to the dictionary also returns the word entry. Choosing the default reading again removes the
 * mark when nothing else needs it.
 */
export function choose(
  draft: Draft,
  spot: Spot,
  reading: string,
  save: WordOption | null,
  defaultReading?: string,
): Choice {
  const clear = !save && defaultReading !== undefined && reading === defaultReading;
  return { draft: setReading(draft, spot.at, clear ? '' : reading), dictionary: save };
}

/** Tone-numbered pinyin with tone marks, for display ('hang2' → 'háng'; neutral 5 or 0: 'de5' → 'de'). */
export function toneMarks(pinyin: string): string {
  const marks: Record<string, string[]> = {
    a: ['ā', 'á', 'ǎ', 'à'],
    e: ['ē', 'é', 'ě', 'è'],
    i: ['ī', 'í', 'ǐ', 'ì'],
    o: ['ō', 'ó', 'ǒ', 'ò'],
    u: ['ū', 'ú', 'ǔ', 'ù'],
    ü: ['ǖ', 'ǘ', 'ǚ', 'ǜ'],
  };
  return pinyin
    .split(' ')
    .map((syl) => {
      const m = /^([a-zü:v]+)([0-5])$/.exec(syl);
      if (!m) return syl;
      const base = m[1].replace(/v|u:/g, 'ü');
      const tone = Number(m[2]);
      if (tone === 5 || tone === 0) return base;
      // The tone mark goes on a or e, on the o of ou, otherwise on the last vowel.
      let idx = base.search(/[ae]/);
      if (idx < 0) idx = base.indexOf('ou');
      if (idx < 0) {
        for (let i = base.length - 1; i >= 0; i--)
          if ('iouü'.includes(base[i])) {
            idx = i;
            break;
          }
      }
      if (idx < 0) return base;
      return base.slice(0, idx) + marks[base[idx]][tone - 1] + base.slice(idx + 1);
    })
    .join(' ');
}

const MARKED: Record<string, [string, number]> = Object.fromEntries(
  ['āáǎà', 'ēéěè', 'īíǐì', 'ōóǒò', 'ūúǔù', 'ǖǘǚǜ'].flatMap((row, v) =>
    [...row].map((ch, tone) => [ch, ['aeiouü'[v], tone + 1] as [string, number]]),
  ),
);

/**
 * Pinyin as a user writes it, with tone marks or tone numbers ('yín háng', 'yin2 hang2', 'lv4'),
 * → tone-numbered ('yin2 hang2'), the form the dictionary keeps. A syllable without either is
 * neutral (5) when `bareIsNeutral`, else left without a number (the caller says what is missing).
 */
export function toneNumbers(value: string, bareIsNeutral = true): string {
  return value
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((syl) => {
      const s = syl.replace(/v|u:/g, 'ü');
      if (/[0-5]$/.test(s)) return s.replace(/0$/, '5');
      let tone = 0;
      let base = '';
      for (const ch of s) {
        const marked = MARKED[ch];
        if (marked) tone = marked[1];
        base += marked ? marked[0] : ch;
      }
      return tone ? `${base}${tone}` : bareIsNeutral ? `${base}5` : base;
    })
    .join(' ');
}
