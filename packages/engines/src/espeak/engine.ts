import { EngineError } from '../errors.ts';
import { preparePolyphones } from '../text/polyphones.ts';
import { createSentenceEngine, type SentenceWord } from '../tts/sentence-engine.ts';
import type { EspeakVoice, TtsEngine } from '../tts/types.ts';
import { buildEspeakInput, isMandarinVoice, MANDARIN_VOICE } from './input.ts';
import { type EspeakEvent, type EspeakOutput, loadEspeak } from './library.ts';
import { ESPEAK_LANGUAGES, espeakVoiceForLanguage } from './personas.ts';
import { defaultEspeakProcesses, EspeakProcessPool } from './process-pool.ts';

export interface EspeakEngineOptions {
  /** Shared object to load (default libespeak-ng.so.1 from the system). */
  libraryPath?: string;
  maxTextLength?: number;
  /** Synthesis processes (default: one per core, at most four). */
  processes?: number;
}

const DEFAULT_RATE = 175;
// espeak-ng's own bounds for words per minute (above 450 it speeds up through its sonic module).
const MIN_RATE = 80;
const MAX_RATE = 900;

/** The espeak voice for a request: the voice's own, else the one for the request language (Mandarin by default). */
export function resolveEspeakVoice(voice: EspeakVoice, language = 'zh'): string {
  const name = voice.voice ?? espeakVoiceForLanguage(language);
  if (!name) {
    throw new EngineError(
      'invalid_request',
      `标准引擎不支持语言 ${language}`,
      `the espeak engine does not speak ${language}`,
    );
  }
  return isMandarinVoice(name) ? MANDARIN_VOICE : name;
}

/** The espeak voice name with its variant: 'cmn-latn-pinyin+f2'. */
export function espeakVoiceName(voice: EspeakVoice, language?: string): string {
  const base = resolveEspeakVoice(voice, language);
  return voice.variant ? `${base}+${voice.variant}` : base;
}

/** Word events → words with times; a word lasts until whatever espeak reports next (word, clause end). */
function wordsOf(
  out: EspeakOutput,
  locate: (position: number, length: number) => { start: number; end: number } | undefined,
  text: string,
): SentenceWord[] {
  const durationMs = (out.samples.length / out.sampleRate) * 1000;
  const words: SentenceWord[] = [];
  out.events.forEach((e: EspeakEvent, i) => {
    if (e.type !== 'word') return;
    const where = locate(e.position, e.length);
    if (!where) return;
    const next = out.events.slice(i + 1).find((n) => n.audioMs > e.audioMs);
    const startMs = Math.min(e.audioMs, durationMs);
    words.push({
      ...where,
      text: text.slice(where.start, where.end),
      startMs,
      endMs: Math.min(next?.audioMs ?? durationMs, durationMs),
    });
  });
  return words;
}

/**
 * The embedded default: espeak-ng through its C library, with word timings from its synthesis
 * events. Sentences are synthesised in a pool of processes, several at a time for long texts.
 */
export function createEspeakEngine(options: EspeakEngineOptions = {}): TtsEngine {
  // Load now so that a machine without espeak-ng fails at start-up, not at the first request.
  const lib = loadEspeak(options.libraryPath);
  const processes = options.processes ?? defaultEspeakProcesses();
  const pool = new EspeakProcessPool(processes, options.libraryPath);
  // The pinyin layer loads its word dictionary on first use (~0.6–1 s): pay that at start-up, not on a request.
  buildEspeakInput('预热', { voice: MANDARIN_VOICE });
  return createSentenceEngine({
    id: 'espeak',
    capabilities: {
      languages: ESPEAK_LANGUAGES.map((l) => l.code),
      maxTextLength: options.maxTextLength ?? 20_000,
      timings: 'word',
      cloning: false,
      streaming: true,
      dictionary: true,
    },
    fallbackSampleRate: lib.sampleRate,
    nativePitch: true,
    maxSentenceLength: 200,
    parallelism: processes,
    async synthesizeSentence(text, request) {
      const voice = request.voice as EspeakVoice;
      const name = resolveEspeakVoice(voice, request.language);
      // The polyphone model (g2pW, when installed) reads the sentence in its helper process first.
      if (isMandarinVoice(name)) await preparePolyphones(text);
      const input = buildEspeakInput(text, {
        voice: name,
        dictionary: request.dictionary,
        pitch: request.pitch,
      });
      const rate = Math.round((voice.rate ?? DEFAULT_RATE) * (request.speed ?? 1));
      const out = await pool.synth(input.ssml, {
        voiceName: espeakVoiceName(voice, request.language),
        rate: Math.max(MIN_RATE, Math.min(MAX_RATE, rate)),
        pitch: voice.pitch ?? 50,
        range: voice.range ?? 50,
      });
      return { samples: out.samples, sampleRate: out.sampleRate, words: wordsOf(out, input.locate, text) };
    },
    close: () => pool.close(),
  });
}
