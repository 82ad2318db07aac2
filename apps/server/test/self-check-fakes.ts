import { createHash } from 'node:crypto';
import type { AsrProvider, EngineRegistry, Pcm, SynthesisRequest, SynthesisResult } from '@vw/engines';
import type { Db } from '../src/db/database.ts';

/*
 * The speech self-check's test pair: a TTS engine that drops or repeats a word on purpose in chosen
 * sentences, and a recognizer that reports what that engine actually said in a piece of audio (a map
 * from the audio it produced to the text spoken), so every verdict of the check can be predicted.
 */

export interface Fault {
  /** Text the engine is asked to say that this fault applies to (a part of the sentence). */
  in: string;
  kind: 'drop' | 'repeat';
  word: string;
  /** Takes said wrong before the engine gets it right (Infinity: never). */
  takes: number;
}

const RATE = 16_000;

/** The engine of the test voice TEST_NEURAL_VOICE (addTestNeuralVoice), spoken by faultyTts. */
export const TEST_NEURAL_ENGINE = 'test-neural';
export const TEST_NEURAL_VOICE = 'test-neural-zh';

/** A library voice on TEST_NEURAL_ENGINE, otherwise the standard 晓雯 (language, plan level). */
export async function addTestNeuralVoice(db: Db): Promise<void> {
  const row = await db
    .selectFrom('voices')
    .selectAll()
    .where('voice_id', '=', 'espeak-zh-xiaowen')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('voices')
    .values({
      ...row,
      voice_id: TEST_NEURAL_VOICE,
      engine: TEST_NEURAL_ENGINE,
      engine_params: JSON.stringify({ engine: TEST_NEURAL_ENGINE }),
    })
    .execute();
}

export interface FaultyTts {
  engines: EngineRegistry;
  /** Every call: the text asked, what was said, the speed. */
  calls: Array<{ asked: string; said: string; speed: number | undefined }>;
  /** What each produced piece of audio says, by a digest of its samples. */
  said: Map<string, string>;
  faults: Fault[];
}

export const digest = (pcm: Pcm) =>
  createHash('sha1')
    .update(Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength))
    .digest('hex');

/**
 * Wraps `inner` (its voices, lists and lookups stay) with a synthesize that says each sentence — with
 * the faults applied — as distinct 16 kHz noise (each take different), remembering what it said.
 */
export function faultyTts(inner: EngineRegistry, faults: Fault[] = []): FaultyTts {
  const calls: FaultyTts['calls'] = [];
  const said = new Map<string, string>();
  const used = new Map<Fault, number>();
  let seed = 1;
  const engines: EngineRegistry = {
    ...inner,
    list: () => inner.list(),
    // A neural-like engine id: TTS checks only engines that are not rule-based (the standard one is not).
    has: (id) => id === TEST_NEURAL_ENGINE || inner.has(id),
    get: (id) => inner.get(id === TEST_NEURAL_ENGINE ? 'espeak' : id),
    async synthesize(request: SynthesisRequest): Promise<SynthesisResult> {
      const asked = request.segments.map((s) => ('text' in s ? s.text : '')).join('');
      let spoken = asked;
      for (const f of faults) {
        if (!asked.includes(f.in)) continue;
        const n = used.get(f) ?? 0;
        if (n >= f.takes) continue;
        used.set(f, n + 1);
        spoken = spoken.replace(f.word, f.kind === 'drop' ? '' : f.word + f.word);
      }
      calls.push({ asked, said: spoken, speed: request.speed });
      const samples = new Int16Array(Math.max(1, [...spoken].length) * 320);
      let x = seed++ * 7919;
      for (let i = 0; i < samples.length; i++) {
        x = (x * 1103515245 + 12345) & 0x7fffffff;
        samples[i] = (x % 2000) - 1000;
      }
      const pcm = { samples, sampleRate: RATE };
      said.set(digest(pcm), spoken);
      return { ...pcm, durationMs: (samples.length / RATE) * 1000, timings: [] };
    },
  };
  return { engines, calls, said, faults };
}

/**
 * A recognizer on this machine that hears PCM without files and reports what the faulty engine said
 * in it; `writes` rewrites what it heard the way recognizers write (e.g. 二〇二四年 → 2024年).
 */
export function hearingRecognizer(
  tts: Pick<FaultyTts, 'said' | 'calls'>,
  writes: Record<string, string> = {},
  /**
   * Audio that is not the engine's own (a dubbed line fitted to its slot) is what the engine said
   * last: the check hears each take right after it is made.
   */
  lastWhenUnknown = false,
): AsrProvider & { heard: string[] } {
  const heard: string[] = [];
  const transcriptOf = (text: string, durationMs: number) => ({
    language: 'zh',
    durationMs,
    engine: 'sherpa-onnx:test-hearing',
    segments: [{ id: 0, startMs: 0, endMs: durationMs, text, words: [] }],
  });
  return {
    id: 'sherpa-onnx:test-hearing',
    label: '中文识别（测试）',
    languages: ['zh'],
    diarization: false,
    wordTimes: false,
    heard,
    async transcribe() {
      throw new Error('the self-check should hand PCM to a recognizer that takes it');
    },
    async transcribePcm(pcm) {
      if (pcm.sampleRate !== 16_000) throw new Error(`expected 16 kHz, got ${pcm.sampleRate}`);
      let text = tts.said.get(digest(pcm)) ?? (lastWhenUnknown ? (tts.calls.at(-1)?.said ?? '') : '');
      for (const [from, to] of Object.entries(writes)) text = text.replaceAll(from, to);
      heard.push(text);
      return transcriptOf(text, (pcm.samples.length / pcm.sampleRate) * 1000);
    },
    async close() {},
  };
}
