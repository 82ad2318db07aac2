import { writeFile } from 'node:fs/promises';
import { EngineError } from '../errors.ts';
import { decodeMono } from './pitch.ts';
import { wavHeader } from './wav.ts';

/**
 * Background-noise removal with RNNoise (xiph, compiled to WASM by @echogarden/rnnoise-wasm; the
 * trained weights are built into the .wasm, nothing to download). RNNoise works on 48 kHz mono in
 * frames of 480 samples (10 ms) with values on the 16-bit scale. About 70× real time on one core.
 */
export const RNNOISE_RATE = 48_000;
const FRAME = 480;

interface RnnoiseModule {
  _rnnoise_create(model: number): number;
  _rnnoise_destroy(state: number): void;
  _rnnoise_process_frame(state: number, out: number, input: number): number;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  HEAPF32: Float32Array;
}

let modulePromise: Promise<RnnoiseModule> | null = null;

function loadRnnoise(): Promise<RnnoiseModule> {
  modulePromise ??= import('@echogarden/rnnoise-wasm')
    .then((m) => m.default() as Promise<RnnoiseModule>)
    .catch((e) => {
      modulePromise = null;
      throw new EngineError(
        'engine_unavailable',
        '降噪功能暂不可用，请联系管理员',
        `cannot load @echogarden/rnnoise-wasm: ${(e as Error).message}`,
      );
    });
  return modulePromise;
}

/**
 * Denoises mono 48 kHz samples (−1..1). The output has the same length; RNNoise's one-frame delay
 * is compensated so speech stays aligned with the input.
 */
export async function denoiseSamples(input: Float32Array, opts: { signal?: AbortSignal } = {}) {
  const m = await loadRnnoise();
  const state = m._rnnoise_create(0);
  const ptr = m._malloc(FRAME * 4);
  const out = new Float32Array(input.length);
  try {
    const frames = Math.ceil(input.length / FRAME) + 1; // one extra frame flushes the delay
    for (let f = 0; f < frames; f++) {
      if (f % 500 === 0) {
        if (opts.signal?.aborted) throw new EngineError('aborted', '降噪已取消', 'denoise aborted');
        // Let timers and aborts run during a long file.
        if (f > 0) await new Promise((r) => setImmediate(r));
      }
      const heap = m.HEAPF32;
      const base = ptr >> 2;
      const start = f * FRAME;
      for (let i = 0; i < FRAME; i++) heap[base + i] = (input[start + i] ?? 0) * 32768;
      m._rnnoise_process_frame(state, ptr, ptr);
      // Output frame f is input frame f−1 (RNNoise delays by one frame).
      const outStart = start - FRAME;
      for (let i = 0; i < FRAME; i++) {
        const j = outStart + i;
        if (j >= 0 && j < out.length) out[j] = m.HEAPF32[base + i] / 32768;
      }
    }
  } finally {
    m._free(ptr);
    m._rnnoise_destroy(state);
  }
  return out;
}

/** Writes mono 16-bit WAV. */
export async function writeMonoWav(path: string, samples: Float32Array, rate: number): Promise<void> {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i]));
    data.writeInt16LE(Math.round(v * 32767), i * 2);
  }
  await writeFile(path, Buffer.concat([wavHeader(data.length, rate), data]));
}

/** Any audio file → denoised mono 48 kHz 16-bit WAV at `output`. */
export async function denoise(input: string, output: string, opts: { signal?: AbortSignal } = {}) {
  const samples = await decodeMono(input, RNNOISE_RATE, opts);
  await writeMonoWav(output, await denoiseSamples(samples, opts), RNNOISE_RATE);
}
