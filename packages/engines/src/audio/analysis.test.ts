import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoise } from './denoise.ts';
import { decodeMono, measureFormants, measurePitch } from './pitch.ts';

const run = promisify(execFile);
const ff = (...args: string[]) =>
  run('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args, '-y']);

let dir: string;
let speech: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-analysis-'));
  speech = join(dir, 'speech.wav');
  await run('espeak-ng', [
    '-v',
    'en-us',
    '-s',
    '150',
    '-w',
    speech,
    'she sells sea shells by the sea shore today',
  ]);
}, 30_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A buzz with harmonics (like a voiced vowel) at a known F0. */
async function harmonicTone(out: string, hz: number, seconds: number) {
  const expr = [1, 2, 3, 4, 5].map((k) => `${(0.3 / k).toFixed(3)}*sin(${k}*2*PI*${hz}*t)`).join('+');
  await ff('-f', 'lavfi', '-i', `aevalsrc=${expr}:s=16000:d=${seconds}`, out);
}

describe('measurePitch', { timeout: 60_000 }, () => {
  it('finds the F0 of a harmonic tone within 1 %, also an octave-prone low voice', async () => {
    for (const hz of [95, 180, 310]) {
      const f = join(dir, `tone-${hz}.wav`);
      await harmonicTone(f, hz, 1.5);
      const p = await measurePitch(f);
      expect(Math.abs(p.median_hz - hz) / hz).toBeLessThan(0.01);
      expect(p.p10_hz).toBeGreaterThan(hz * 0.97);
      expect(p.p90_hz).toBeLessThan(hz * 1.03);
      expect(p.voiced_share).toBeGreaterThan(0.9);
    }
  });

  it('counts silence as unvoiced: one second tone + one second silence ≈ half voiced', async () => {
    const tone = join(dir, 'half-tone.wav');
    await harmonicTone(tone, 200, 1);
    const half = join(dir, 'half.wav');
    await ff('-i', tone, '-af', 'apad=pad_dur=1', half);
    const p = await measurePitch(half);
    expect(p.voiced_share).toBeGreaterThan(0.4);
    expect(p.voiced_share).toBeLessThan(0.6);
    const silent = join(dir, 'silent.wav');
    await ff('-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '1', silent);
    expect(await measurePitch(silent)).toEqual({ median_hz: 0, p10_hz: 0, p90_hz: 0, voiced_share: 0 });
  });

  it('follows a raised voice: speech resampled up by 25 % measures 25 % higher', async () => {
    const up = join(dir, 'up.wav');
    await ff('-i', speech, '-af', 'asetrate=22050*1.25,aresample=22050', up);
    const a = await measurePitch(speech);
    const b = await measurePitch(up);
    expect(a.median_hz).toBeGreaterThan(70);
    expect(a.median_hz).toBeLessThan(250);
    expect(a.voiced_share).toBeGreaterThan(0.3);
    expect(Math.abs(b.median_hz / a.median_hz - 1.25)).toBeLessThan(0.03);
  });
});

describe('measureFormants', { timeout: 60_000 }, () => {
  it('moves with the spectral envelope: resampling speech up by 20 % raises F1/F2 by about 20 %', async () => {
    const up = join(dir, 'formant-up.wav');
    await ff('-i', speech, '-af', 'asetrate=22050*1.2,aresample=22050', up);
    const a = await measureFormants(speech);
    const b = await measureFormants(up);
    expect(a.f1_hz).toBeGreaterThan(200);
    expect(a.f2_hz).toBeGreaterThan(a.f1_hz);
    expect(b.f1_hz / a.f1_hz).toBeGreaterThan(1.08);
    expect(b.f2_hz / a.f2_hz).toBeGreaterThan(1.08);
    expect(b.f2_hz / a.f2_hz).toBeLessThan(1.35);
  });
});

/** RMS in dB of 20 ms frames, sorted. */
async function frameDb(file: string) {
  const x = await decodeMono(file, 16000);
  const out: number[] = [];
  for (let s = 0; s + 320 <= x.length; s += 320) {
    let sum = 0;
    for (let i = s; i < s + 320; i++) sum += x[i] * x[i];
    out.push(10 * Math.log10(sum / 320 + 1e-12));
  }
  return out.sort((a, b) => a - b);
}
const pct = (v: number[], q: number) => v[Math.floor((v.length - 1) * q)];

describe('denoise (RNNoise)', { timeout: 60_000 }, () => {
  it('lowers the noise floor of speech with white noise at 10 dB SNR, keeps speech level and length', async () => {
    // Speech padded with pauses, plus white noise 10 dB below the speech RMS.
    const padded = join(dir, 'padded.wav');
    await ff('-i', speech, '-af', 'adelay=800:all=1,apad=pad_dur=0.8', '-ar', '48000', padded);
    const x = await decodeMono(padded, 48000);
    let sum = 0;
    let n = 0;
    for (const v of x)
      if (Math.abs(v) > 0.01) {
        sum += v * v;
        n++;
      }
    const speechRms = Math.sqrt(sum / n);
    const noiseAmp = speechRms / 10 ** (10 / 20);
    const noisy = join(dir, 'noisy.wav');
    await ff(
      ...[
        '-i',
        padded,
        '-f',
        'lavfi',
        '-i',
        `anoisesrc=color=white:amplitude=${noiseAmp.toFixed(5)}:r=48000:seed=7`,
      ],
      ...['-filter_complex', '[0:a][1:a]amix=inputs=2:duration=first:normalize=0', noisy],
    );
    const clean = join(dir, 'clean.wav');
    await denoise(noisy, clean);
    const before = await frameDb(noisy);
    const after = await frameDb(clean);
    // Noise floor: the quietest 10 % of frames (the pauses).
    expect(pct(after, 0.1)).toBeLessThan(pct(before, 0.1) - 15);
    // Speech: the loudest frames stay within 4 dB.
    expect(Math.abs(pct(after, 0.95) - pct(before, 0.95))).toBeLessThan(4);
    const lenIn = (await decodeMono(noisy, 48000)).length;
    expect((await decodeMono(clean, 48000)).length).toBe(lenIn);
  });
});
