import { readMonoFloat } from '../audio/levels.ts';
import { measurePitch } from '../audio/pitch.ts';
import type { VoiceProfile } from './types.ts';

/** Below this median F0 a voice reads as male (typical: male 85–155 Hz, female 165–255 Hz). */
export const GENDER_SPLIT_HZ = 160;

const RATE = 16_000;

/**
 * Syllables per second: peaks of the smoothed energy envelope (syllable nuclei) at least 100 ms
 * apart and within 20 dB of the loud frames, divided by the time that is speech.
 */
export function syllableRate(x: Float32Array, rate = RATE): number {
  const frame = Math.round(rate / 100);
  const n = Math.floor(x.length / frame);
  if (n < 10) return 0;
  const e = new Float64Array(n);
  for (let f = 0; f < n; f++) {
    let s = 0;
    for (let i = 0; i < frame; i++) {
      const v = x[f * frame + i]!;
      s += v * v;
    }
    e[f] = s / frame;
  }
  // 50 ms moving average of the envelope (amplitude), then dB
  const smooth = new Float64Array(n);
  for (let f = 0; f < n; f++) {
    let s = 0;
    let c = 0;
    for (let k = -2; k <= 2; k++) {
      const j = f + k;
      if (j >= 0 && j < n) {
        s += Math.sqrt(e[j]!);
        c++;
      }
    }
    smooth[f] = 20 * Math.log10(s / c + 1e-9);
  }
  const sorted = Float64Array.from(smooth).sort();
  const loud = sorted[Math.floor(sorted.length * 0.95)]!;
  const floor = sorted[Math.floor(sorted.length * 0.1)]!;
  const gate = Math.max(loud - 20, floor + 10);
  let speechFrames = 0;
  for (let f = 0; f < n; f++) if (smooth[f]! > gate) speechFrames++;
  let peaks = 0;
  let lastPeak = -100;
  for (let f = 1; f < n - 1; f++) {
    const v = smooth[f]!;
    if (v <= gate || v < smooth[f - 1]! || v < smooth[f + 1]!) continue;
    // a real nucleus: 3 dB above the lowest point since the last peak
    let dip = v;
    for (let j = f - 1; j > lastPeak && j >= 0; j--) dip = Math.min(dip, smooth[j]!);
    if (f - lastPeak >= 10 && v - dip >= 3) {
      peaks++;
      lastPeak = f;
    }
  }
  return speechFrames ? Math.round((peaks / (speechFrames / 100)) * 100) / 100 : 0;
}

/** Pitch (median, 10th and 90th percentile), speaking rate and gender of one or more files. */
export async function measureProfile(
  files: string[],
  opts: { signal?: AbortSignal } = {},
): Promise<VoiceProfile> {
  let w = 0;
  let median = 0;
  let p10 = 0;
  let p90 = 0;
  let rateSum = 0;
  let rateW = 0;
  for (const file of files) {
    const pitch = await measurePitch(file, opts);
    const x = await readMonoFloat(file, RATE, opts.signal);
    const seconds = x.length / RATE;
    const weight = Math.max(0.01, pitch.voiced_share * seconds);
    if (pitch.median_hz > 0) {
      median += pitch.median_hz * weight;
      p10 += pitch.p10_hz * weight;
      p90 += pitch.p90_hz * weight;
      w += weight;
    }
    const r = syllableRate(x);
    if (r > 0) {
      rateSum += r * seconds;
      rateW += seconds;
    }
  }
  const m = w ? median / w : 0;
  return {
    median_hz: Math.round(m * 10) / 10,
    p10_hz: w ? Math.round((p10 / w) * 10) / 10 : 0,
    p90_hz: w ? Math.round((p90 / w) * 10) / 10 : 0,
    rate: rateW ? Math.round((rateSum / rateW) * 100) / 100 : 0,
    gender: m > 0 && m < GENDER_SPLIT_HZ ? 'male' : 'female',
  };
}
