import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { resamplePcm } from './ffmpeg.ts';
import { resampledLength, resampleInt16 } from './resample.ts';
import { bufferToSamples, pcmToBuffer } from './wav.ts';

/** Sum of sines (Hz, amplitude) sampled at `rate`, `n` samples, unrounded. */
const ideal = (tones: [number, number][], rate: number, n: number) =>
  Float64Array.from({ length: n }, (_, i) =>
    tones.reduce((s, [hz, a]) => s + a * Math.sin((2 * Math.PI * hz * i) / rate), 0),
  );
const toInt16 = (x: Float64Array) => Int16Array.from(x, (v) => Math.round(v));

/** SNR in dB of `got` against `want`, leaving out `edge` samples at both ends. */
function snr(got: ArrayLike<number>, want: ArrayLike<number>, edge: number): number {
  let signal = 0;
  let noise = 0;
  for (let i = edge; i < Math.min(got.length, want.length) - edge; i++) {
    signal += want[i] ** 2;
    noise += (got[i] - want[i]) ** 2;
  }
  return 10 * Math.log10(signal / noise);
}

const rms = (x: ArrayLike<number>, edge: number) => {
  let sum = 0;
  for (let i = edge; i < x.length - edge; i++) sum += x[i] ** 2;
  return Math.sqrt(sum / (x.length - 2 * edge));
};

/** ffmpeg's aresample of the same 16-bit mono samples. */
const ffmpegResample = (samples: Int16Array, from: number, to: number) =>
  bufferToSamples(
    execFileSync(
      'ffmpeg',
      // biome-ignore format: one option per pair
      ['-v', 'error', '-f', 's16le', '-ar', String(from), '-ac', '1', '-i', 'pipe:0', '-af', `aresample=${to}`, '-f', 's16le', 'pipe:1'],
      { input: pcmToBuffer({ samples, sampleRate: from }) },
    ),
  );

describe('resampleInt16', () => {
  it('keeps a 1 kHz sine at 22 050 → 48 000 Hz: its frequency, amplitude and phase (SNR ≥ 70 dB)', async () => {
    const input = toInt16(ideal([[1000, 16000]], 22_050, 22_050));
    const out = await resampleInt16(input, 22_050, 48_000);
    expect(out.length).toBe(48_000);
    expect(snr(out, ideal([[1000, 16000]], 48_000, out.length), 200)).toBeGreaterThanOrEqual(70);
  });

  it('keeps a sine when the ratio has more phases than the table (44 101 → 48 000 Hz)', async () => {
    const input = toInt16(ideal([[1000, 16000]], 44_101, 44_101));
    const out = await resampleInt16(input, 44_101, 48_000);
    expect(snr(out, ideal([[1000, 16000]], 48_000, out.length), 200)).toBeGreaterThanOrEqual(70);
  });

  it('gives round(n × to ÷ from) samples, within one', async () => {
    for (const n of [1, 2, 7, 147, 1001, 22_051]) {
      const out = await resampleInt16(new Int16Array(n), 22_050, 48_000);
      expect(Math.abs(out.length - Math.round((n * 48_000) / 22_050))).toBeLessThanOrEqual(1);
      expect(resampledLength(n, 48_000, 16_000)).toBe(Math.round(n / 3));
    }
    expect(await resampleInt16(new Int16Array(0), 22_050, 48_000)).toHaveLength(0);
  });

  it('removes a 10 kHz tone when going 48 kHz → 16 kHz (≥ 60 dB down, no alias at 6 kHz)', async () => {
    const input = toInt16(ideal([[10_000, 16000]], 48_000, 48_000));
    const out = await resampleInt16(input, 48_000, 16_000);
    expect(out.length).toBe(16_000);
    expect(20 * Math.log10(rms(out, 200) / rms(input, 0))).toBeLessThanOrEqual(-60);
    // …while a 1 kHz tone in the same signal passes (the filter is not simply muting everything).
    const mixed = toInt16(
      ideal(
        [
          [10_000, 10000],
          [1000, 10000],
        ],
        48_000,
        48_000,
      ),
    );
    const kept = await resampleInt16(mixed, 48_000, 16_000);
    expect(snr(kept, ideal([[1000, 10000]], 16_000, kept.length), 200)).toBeGreaterThanOrEqual(60);
  });

  it('keeps DC and silence exact, to the last sample', async () => {
    for (const [from, to] of [
      [22_050, 48_000],
      [48_000, 16_000],
      [44_101, 48_000],
    ]) {
      const dc = await resampleInt16(new Int16Array(5000).fill(-12_345), from, to);
      expect(dc.every((v) => v === -12_345)).toBe(true);
      const quiet = await resampleInt16(new Int16Array(5000), from, to);
      expect(quiet.every((v) => v === 0)).toBe(true);
    }
  });

  it('converts interleaved channels each on its own', async () => {
    const left = toInt16(ideal([[440, 12000]], 22_050, 4410));
    const right = toInt16(ideal([[3000, 9000]], 22_050, 4410));
    const stereo = new Int16Array(2 * 4410);
    for (let i = 0; i < 4410; i++) [stereo[2 * i], stereo[2 * i + 1]] = [left[i], right[i]];
    const out = await resampleInt16(stereo, 22_050, 48_000, 2);
    const [l, r] = [await resampleInt16(left, 22_050, 48_000), await resampleInt16(right, 22_050, 48_000)];
    expect(out.length).toBe(2 * l.length);
    expect(out.filter((_, i) => i % 2 === 0)).toEqual(l);
    expect(out.filter((_, i) => i % 2 === 1)).toEqual(r);
  });

  it('agrees with ffmpeg aresample on speech-band audio (SNR ≥ 50 dB)', async () => {
    const tones: [number, number][] = [
      [180, 6000],
      [997, 5000],
      [2_430, 4000],
      [4_100, 3000],
    ];
    for (const [from, to] of [
      [22_050, 48_000],
      [48_000, 16_000],
      [44_100, 16_000],
    ]) {
      const input = toInt16(ideal(tones, from, from));
      const ours = await resampleInt16(input, from, to);
      const theirs = ffmpegResample(input, from, to);
      expect(Math.abs(theirs.length - ours.length)).toBeLessThanOrEqual(1);
      expect(snr(ours, theirs, 200)).toBeGreaterThanOrEqual(50);
    }
  });
});

describe('resamplePcm', () => {
  it('returns the same samples at the same rate and a Pcm at the new rate otherwise', async () => {
    const pcm = { samples: toInt16(ideal([[1000, 8000]], 22_050, 2205)), sampleRate: 22_050 };
    expect((await resamplePcm(pcm, 22_050)).samples).toBe(pcm.samples);
    const up = await resamplePcm(pcm, 48_000);
    expect(up.sampleRate).toBe(48_000);
    expect(up.samples.length).toBe(4800);
  });

  it('keeps a sine and the length in-process (short audio) and through ffmpeg (over 10 s)', async () => {
    for (const seconds of [3, 12]) {
      const n = 22_050 * seconds + 7;
      const pcm = { samples: toInt16(ideal([[1000, 16000]], 22_050, n)), sampleRate: 22_050 };
      const out = await resamplePcm(pcm, 48_000);
      expect(Math.abs(out.samples.length - Math.round((n * 48_000) / 22_050))).toBeLessThanOrEqual(1);
      expect(
        snr(out.samples, ideal([[1000, 16000]], 48_000, out.samples.length), 200),
      ).toBeGreaterThanOrEqual(70);
    }
  });
});
