import { writeFile } from 'node:fs/promises';
import { denoise } from '../audio/denoise.ts';
import { analyseLevels, analysisRate, measureLevels, readMonoFloat } from '../audio/levels.ts';
import { encodeWav, floatToPcm } from '../audio/wav.ts';
import { runFfmpeg } from '../media/run.ts';

/*
 * One-click fixes of a voice sample. Each writes a new 16-bit mono WAV next to the original (the
 * original is kept for before/after playback).
 */

export type SampleFix = 'denoise' | 'normalize' | 'trim';

/** Where `normalize` puts the speech RMS (middle of the −23…−18 dB window) and the true-peak ceiling. */
export const NORMALIZE_TARGET_RMS_DB = -20;
export const NORMALIZE_TRUE_PEAK_DB = -3;

/** Gain so the speech sits at −20 dB RMS, then a look-ahead limiter keeps the peaks under −3 dBTP. */
export async function normalizeSample(
  input: string,
  output: string,
  opts: { signal?: AbortSignal } = {},
): Promise<void> {
  const levels = await measureLevels(input, opts);
  const gain = Math.max(-40, Math.min(50, NORMALIZE_TARGET_RMS_DB - levels.rms_db));
  // Sample-peak limit a little under the true-peak ceiling: inter-sample peaks sit up to ~1 dB higher.
  const limit = 10 ** ((NORMALIZE_TRUE_PEAK_DB - 1.5) / 20);
  const rate = levels.sample_rate;
  await runFfmpeg(
    [
      '-i',
      input,
      '-vn',
      '-ac',
      '1',
      '-ar',
      String(rate),
      '-af',
      `volume=${gain.toFixed(2)}dB,alimiter=limit=${limit.toFixed(4)}:attack=5:release=50:level=0`,
      '-c:a',
      'pcm_s16le',
      '-y',
      output,
    ],
    { signal: opts.signal },
  );
}

/**
 * Cuts leading and trailing silence to 150 ms and shortens pauses longer than 1 s to 500 ms, by the
 * same speech decision the check uses.
 */
export async function trimSilence(
  input: string,
  output: string,
  opts: { signal?: AbortSignal; edgeMs?: number; maxPauseMs?: number; keepPauseMs?: number } = {},
): Promise<void> {
  const { edgeMs = 150, maxPauseMs = 1000, keepPauseMs = 500 } = opts;
  const rate = await analysisRate(input);
  const x = await readMonoFloat(input, rate, opts.signal);
  const { speech_spans: spans } = analyseLevels(x, rate);
  const toSample = (ms: number) => Math.max(0, Math.min(x.length, Math.round((ms * rate) / 1000)));
  const pieces: Array<[number, number]> = [];
  if (spans.length === 0) {
    pieces.push([0, x.length]);
  } else {
    let start = Math.max(0, spans[0]!.start_ms - edgeMs);
    for (let i = 0; i < spans.length; i++) {
      const s = spans[i]!;
      const next = spans[i + 1];
      if (!next) {
        pieces.push([toSample(start), toSample(s.end_ms + edgeMs)]);
        break;
      }
      const gap = next.start_ms - s.end_ms;
      if (gap > maxPauseMs) {
        // keep half of the kept pause on each side of the cut
        pieces.push([toSample(start), toSample(s.end_ms + keepPauseMs / 2)]);
        start = next.start_ms - keepPauseMs / 2;
      }
    }
  }
  const total = pieces.reduce((n, [a, b]) => n + Math.max(0, b - a), 0);
  const out = new Float32Array(total);
  let at = 0;
  for (const [a, b] of pieces) {
    out.set(x.subarray(a, b), at);
    at += Math.max(0, b - a);
  }
  await writeFile(output, encodeWav(floatToPcm(out, rate)));
}

/** RNNoise (via the shared `denoise`), written as 16-bit mono WAV. */
export async function denoiseSample(
  input: string,
  output: string,
  opts: { signal?: AbortSignal } = {},
): Promise<void> {
  await denoise(input, output, opts);
}

export async function applySampleFix(
  fix: SampleFix,
  input: string,
  output: string,
  opts: { signal?: AbortSignal } = {},
): Promise<void> {
  if (fix === 'denoise') return denoiseSample(input, output, opts);
  if (fix === 'normalize') return normalizeSample(input, output, opts);
  return trimSilence(input, output, opts);
}
