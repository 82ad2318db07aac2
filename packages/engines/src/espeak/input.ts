import { convert, polyphonic } from 'pinyin-pro';
import { pinyinReadings } from '../text/polyphones.ts';
import type { PronunciationDictionary } from '../tts/types.ts';

/** `-v cmn` reads tone digits as English numbers on Debian 12: Mandarin always goes through pinyin. */
export const MANDARIN_VOICE = 'cmn-latn-pinyin';

const MANDARIN_ALIASES = new Set(['cmn', 'zh', 'zh-cn', 'cmn-latn-pinyin', 'cmn-latn']);

export function isMandarinVoice(voice: string): boolean {
  return MANDARIN_ALIASES.has(voice.toLowerCase());
}

export interface MandarinSyllable {
  /** The characters this reading covers (one hanzi, or a whole dictionary word). */
  text: string;
  start: number;
  end: number;
  /** Pinyin with tone numbers, neutral tone as 5 (espeak reads 0 as a level tone). */
  pinyin: string;
}

/** Tone-marked or numbered pinyin → numbered, neutral tone 5: 'yín háng' → 'yin2 hang2', 'ma' → 'ma5'. */
export function normalizePinyin(value: string): string {
  return value
    .toLowerCase()
    .replaceAll('v', 'ü')
    .split(/\s+/)
    .filter(Boolean)
    .map((s) => {
      // Numbered syllables pass as they are (convert would append a second digit).
      const numbered = /[0-5]$/.test(s) ? s : convert(s, { format: 'symbolToNum' });
      return /[0-5]$/.test(numbered) ? numbered.replace(/0$/, '5') : `${numbered}5`;
    })
    .join(' ');
}

const neutralAs5 = (syllable: string) => syllable.replace(/0$/, '5');

const normalized = new WeakMap<PronunciationDictionary, Map<string, string>>();

function prepare(dictionary: PronunciationDictionary): Map<string, string> {
  let map = normalized.get(dictionary);
  if (!map) {
    // Longest words first so 银行卡 wins over 银行.
    // Latin words' readings are the normaliser's (text/normalize.ts), not pinyin.
    const words = Object.keys(dictionary)
      .filter((w) => w && dictionary[w]?.trim() && /\p{Script=Han}/u.test(w))
      .sort((a, b) => b.length - a.length);
    map = new Map(words.map((w) => [w, normalizePinyin(dictionary[w])]));
    normalized.set(dictionary, map);
  }
  return map;
}

/**
 * Hanzi → pinyin through the polyphone layer (`text/polyphones.ts`: word dictionary, phrase table and
 * context rules), then the user's dictionary overrides whole words or single characters. Non-Chinese
 * runs are not returned.
 */
export function mandarinSyllables(text: string, dictionary?: PronunciationDictionary): MandarinSyllable[] {
  const items = pinyinReadings(text).map((r) => ({
    origin: r.char,
    pinyin: r.pinyin,
    isZh: r.pinyin !== '',
  }));
  const out: MandarinSyllable[] = [];
  const words = dictionary ? prepare(dictionary) : undefined;
  let at = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const start = at;
    at += item.origin.length;
    if (words) {
      const word = findWord(text, start, words);
      if (word) {
        const syllables = word.pinyin.split(' ');
        const chars = [...word.text];
        // One reading per character keeps per-character timings; otherwise the word shares one token.
        if (syllables.length === chars.length) {
          let pos = start;
          chars.forEach((ch, k) => {
            out.push({ text: ch, start: pos, end: pos + ch.length, pinyin: syllables[k] });
            pos += ch.length;
          });
        } else out.push({ text: word.text, start, end: start + word.text.length, pinyin: word.pinyin });
        // Skip the items the word covered.
        while (at < start + word.text.length && i + 1 < items.length) at += items[++i].origin.length;
        continue;
      }
    }
    if (item.isZh) out.push({ text: item.origin, start, end: at, pinyin: item.pinyin });
  }
  return out;
}

function findWord(text: string, at: number, words: Map<string, string>) {
  for (const [word, reading] of words) {
    if (text.startsWith(word, at)) return { text: word, pinyin: reading };
  }
  return undefined;
}

export interface CharacterReading extends MandarinSyllable {
  /** Every reading the character has, for polyphone correction in the editor. */
  candidates: string[];
}

/** The reading chosen for each Chinese character plus its alternatives (the editor's polyphone picker). */
export function mandarinReadings(text: string, dictionary?: PronunciationDictionary): CharacterReading[] {
  return mandarinSyllables(text, dictionary).map((s) => ({
    ...s,
    candidates:
      s.text.length === 1
        ? // pinyin-pro writes the neutral tone as 0; readings use 5 (so `de5` is offered once, never `de0`).
          [...new Set((polyphonic(s.text, { toneType: 'num', type: 'array' })[0] ?? []).map(neutralAs5))]
        : [s.pinyin],
  }));
}

// Chinese punctuation becomes ASCII so espeak pauses and intones at it; markup characters become spaces
// because the text travels inside SSML.
const PUNCTUATION: Record<string, string> = {
  '，': ',',
  '、': ',',
  '。': '.',
  '！': '!',
  '？': '?',
  '；': ';',
  '：': ':',
  '…': '.',
  '—': ',',
  '～': ' ',
  '<': ' ',
  '>': ' ',
  '&': ' ',
};
const QUOTES = /[“”‘’「」『』《》（）【】〈〉]/u;

export interface EspeakInputOptions {
  /** espeak-ng voice name; Mandarin aliases go through pinyin. */
  voice: string;
  dictionary?: PronunciationDictionary;
  /** Semitones, sent as SSML prosody. */
  pitch?: number;
}

export interface EspeakInput {
  /** The exact string handed to espeak_Synth. */
  ssml: string;
  /** Maps an espeak event (1-based position and length in code points) back to UTF-16 offsets of the text. */
  locate(position: number, length: number): { start: number; end: number } | undefined;
}

/** Builds the SSML for one sentence, remembering for every character sent where it came from. */
export function buildEspeakInput(text: string, options: EspeakInputOptions): EspeakInput {
  const chars: string[] = [];
  const sources: Array<[number, number] | undefined> = [];
  const emit = (s: string, source?: [number, number]) => {
    for (const ch of s) {
      chars.push(ch);
      sources.push(source);
    }
  };
  const emitPlain = (from: number, to: number) => {
    let i = from;
    for (const ch of text.slice(from, to)) {
      emit(QUOTES.test(ch) ? ' ' : (PUNCTUATION[ch] ?? ch), [i, i + ch.length]);
      i += ch.length;
    }
  };

  // The pinyin voice would read an English word by pinyin rules (tech → "te ts.h"): Latin words go
  // to espeak's English voice (the persona's variant is kept) and back. Pinyin written inline
  // (xing2, a tone digit after it) stays with the Mandarin voice.
  let switched = 0;
  const emitMixed = (from: number, to: number) => {
    let at = from;
    for (const m of text.slice(from, to).matchAll(/[A-Za-z]+(?:['’][A-Za-z]+)*(?![\dA-Za-z])/g)) {
      const start = from + m.index;
      emitPlain(at, start);
      emit('<voice xml:lang="en">');
      emitPlain(start, start + m[0].length);
      emit(`</voice><voice xml:lang="${MANDARIN_VOICE}">`);
      switched++;
      at = start + m[0].length;
    }
    emitPlain(at, to);
  };

  if (isMandarinVoice(options.voice)) {
    let at = 0;
    for (const s of mandarinSyllables(text, options.dictionary)) {
      emitMixed(at, s.start);
      // Syllables are space-separated words for espeak, which gives one word event per syllable.
      if (chars.length && chars[chars.length - 1] !== ' ') emit(' ');
      emit(s.pinyin, [s.start, s.end]);
      emit(' ');
      at = s.end;
    }
    emitMixed(at, text.length);
  } else emitPlain(0, text.length);

  // Trim in code points: espeak counts positions in code points, not UTF-16 units.
  let lead = 0;
  while (lead < chars.length && /\s/u.test(chars[lead])) lead++;
  const body = chars.slice(lead).join('').trimEnd();
  const pitch = options.pitch ? `<prosody pitch="${options.pitch > 0 ? '+' : ''}${options.pitch}st">` : '';
  const prefix = `<speak>${pitch}`;
  const ssml = `${prefix}${body}${'</voice>'.repeat(switched)}${pitch ? '</prosody>' : ''}</speak>`;

  return {
    ssml,
    locate(position, length) {
      const from = position - 1 - prefix.length + lead;
      let start = Number.POSITIVE_INFINITY;
      let end = -1;
      for (let k = Math.max(0, from); k < from + Math.max(1, length) && k < sources.length; k++) {
        const src = sources[k];
        if (!src) continue;
        start = Math.min(start, src[0]);
        end = Math.max(end, src[1]);
      }
      return end < 0 ? undefined : { start, end };
    },
  };
}

/** The string handed to espeak for a text (tests and the editor's pronunciation preview). */
export function toEspeakInput(text: string, options: EspeakInputOptions): string {
  return buildEspeakInput(text, options).ssml;
}
