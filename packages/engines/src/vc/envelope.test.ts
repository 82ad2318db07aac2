import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMonoWav } from '../audio/denoise.ts';
import { measureVoiceChange } from './envelope.ts';
import { createRubberbandProvider } from './rubberband.ts';

const RATE = 16_000;
/** F1–F4 of four vowels (Peterson & Barney, adult male), cycled every 300 ms. */
const VOWELS = [
  [730, 1090, 2440, 3400],
  [270, 2290, 3010, 3600],
  [300, 870, 2240, 3400],
  [530, 1840, 2480, 3500],
];
const BANDWIDTHS = [80, 100, 150, 200];

/**
 * A source-filter voice with known truth: a pulse train at `f0` (a slow ±6 % vibrato so harmonics
 * sweep the envelope) through a glottal low-pass and four formant resonators, every formant frequency
 * and bandwidth scaled by `k` (a vocal tract k times shorter).
 */
function voice(f0: number, k: number, seconds = 3): Float32Array {
  const n = Math.round(seconds * RATE);
  const x = new Float32Array(n);
  const state = BANDWIDTHS.map(() => [0, 0]);
  let phase = 0;
  let glottal = 0;
  let peak = 0;
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    phase += (f0 * (1 + 0.06 * Math.sin(2 * Math.PI * 2.5 * t))) / RATE;
    let pulse = 0;
    if (phase >= 1) {
      phase -= 1;
      pulse = 1;
    }
    glottal = 0.9 * glottal + pulse;
    let s = glottal;
    const formants = VOWELS[Math.floor(t / 0.3) % VOWELS.length];
    for (let j = 0; j < formants.length; j++) {
      const r = Math.exp((-Math.PI * BANDWIDTHS[j] * k) / RATE);
      const theta = (2 * Math.PI * formants[j] * k) / RATE;
      const y = (1 - r) * s + 2 * r * Math.cos(theta) * state[j][0] - r * r * state[j][1];
      state[j][1] = state[j][0];
      state[j][0] = y;
      s = y;
    }
    x[i] = s;
    peak = Math.max(peak, Math.abs(s));
  }
  for (let i = 0; i < n; i++) x[i] *= 0.7 / peak;
  return x;
}

let dir: string;
let source: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-envelope-'));
  source = join(dir, 'source.wav');
  await writeMonoWav(source, voice(110, 1), RATE);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('envelope warp and F0 change of a voice change', { timeout: 60_000 }, () => {
  it('recovers known formant and pitch factors of synthesised voices, pitch and formants independently', async () => {
    const cases = [
      { pitch: 1, formants: 1 },
      { pitch: 1.6, formants: 1 },
      { pitch: 1.6, formants: 1.18 },
      { pitch: 1, formants: 1.18 },
      { pitch: 0.7, formants: 0.85 },
      { pitch: 1.9, formants: 1.25 },
    ];
    for (const c of cases) {
      const file = join(dir, `p${c.pitch}-k${c.formants}.wav`);
      await writeMonoWav(file, voice(110 * c.pitch, c.formants), RATE);
      const m = await measureVoiceChange(source, file);
      expect(Math.abs(m.envelope_ratio / c.formants - 1), JSON.stringify({ c, m })).toBeLessThan(0.015);
      expect(Math.abs(m.f0_ratio / c.pitch - 1), JSON.stringify({ c, m })).toBeLessThan(0.02);
    }
  });

  it('measures ×1.18 on Rubber Band R3 output shifted ×1.6 in pitch with ×1.18 formants, ×1 with formants kept', async () => {
    const rb = createRubberbandProvider();
    const pitch = 12 * Math.log2(1.6);
    for (const formants of [1, 1.18]) {
      const out = join(dir, `rb-${formants}.wav`);
      await rb.convert(
        source,
        out,
        { semitones: pitch, formantSemitones: 12 * Math.log2(formants) },
        { workDir: dir },
      );
      const m = await measureVoiceChange(source, out);
      expect(Math.abs(m.envelope_ratio / formants - 1), JSON.stringify(m)).toBeLessThan(0.03);
      expect(Math.abs(m.f0_ratio / 1.6 - 1), JSON.stringify(m)).toBeLessThan(0.03);
    }
  });

  it('says "not measurable" (0) when there is no voiced speech', async () => {
    const silent = join(dir, 'silent.wav');
    await writeMonoWav(silent, new Float32Array(RATE), RATE);
    expect(await measureVoiceChange(source, silent)).toMatchObject({ f0_ratio: 0, envelope_ratio: 0 });
  });
});
