import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureLevels } from '../audio/levels.ts';
import { applySampleFix } from './fixes.ts';
import { type CheckRule, checkLevels, checkSample, type SampleCheck } from './sample-check.ts';

/*
 * Sample checks on generated speech with known defects: each defect is reported, and each fix
 * measurably removes it. Speech from espeak-ng (≈ 12 s), defects added by ffmpeg with known amounts.
 */

const run = promisify(execFile);
const ff = (...args: string[]) =>
  run('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args, '-y']);

let dir: string;
let clean: string;

const TEXT =
  'Voice cloning needs a clean sample. Read a few sentences in a quiet room, keep a steady distance from the microphone, and speak naturally. The quick brown fox jumps over the lazy dog.';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-sample-'));
  const raw = join(dir, 'raw.wav');
  await run('espeak-ng', ['-v', 'en-us', '-s', '165', '-w', raw, TEXT]);
  // 48 kHz mono, speech RMS brought to about −20 dB, peaks limited to −6 dB
  const { rms_db } = await measureLevels(raw);
  clean = join(dir, 'clean.wav');
  const gain = (-20 - rms_db).toFixed(2);
  await ff(
    '-i',
    raw,
    '-ar',
    '48000',
    '-ac',
    '1',
    '-af',
    `volume=${gain}dB,alimiter=limit=0.5:level=0`,
    clean,
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const item = (check: SampleCheck, rule: CheckRule) =>
  [...check.files[0]!.items, ...check.overall].find((i) => i.rule === rule)!;
const checkOne = (path: string) => checkSample([{ name: 'a.wav', path }], { kind: 'fast' });

describe('sample check', () => {
  it('passes clean speech in the level window, and says what it did not check', async () => {
    const check = await checkOne(clean);
    for (const rule of [
      'rms',
      'true_peak',
      'clipping',
      'noise_floor',
      'snr',
      'speech_share',
      'duration',
    ] as const) {
      expect(item(check, rule).status, rule).toBe('pass');
    }
    expect(item(check, 'speaker').status).toBe('not_checked');
    expect(item(check, 'language').status).toBe('not_checked');
    expect(check.ok).toBe(true);
    expect(check.files[0]!.fixes).toEqual([]);
  });

  it('reports noise added at 10 dB SNR, and denoise lowers the noise floor by more than 10 dB', async () => {
    const noisy = join(dir, 'noisy.wav');
    // white noise 10 dB under the speech RMS (−20 dB): an RMS of −30 dB is amplitude 0.0316 of a uniform-ish
    // generator, whose RMS is amplitude/√3
    const amp = (10 ** (-30 / 20) * Math.sqrt(3)).toFixed(4);
    await ff(
      '-i',
      clean,
      '-f',
      'lavfi',
      '-i',
      `anoisesrc=color=white:amplitude=${amp}:sample_rate=48000:seed=7`,
      '-filter_complex',
      '[0:a][1:a]amix=inputs=2:duration=first:normalize=0',
      '-ac',
      '1',
      noisy,
    );
    const before = await checkOne(noisy);
    const snr = before.files[0]!.levels.snr_db;
    expect(snr).toBeGreaterThan(5);
    expect(snr).toBeLessThan(15);
    expect(item(before, 'snr').status).toBe('fail');
    expect(item(before, 'noise_floor').status).not.toBe('pass');
    expect(before.files[0]!.fixes).toContain('denoise');
    const fixed = join(dir, 'noisy-denoised.wav');
    await applySampleFix('denoise', noisy, fixed);
    const after = await measureLevels(fixed);
    expect(after.noise_floor_db).toBeLessThan(before.files[0]!.levels.noise_floor_db - 10);
    expect(after.snr_db).toBeGreaterThan(snr + 10);
  });

  it('reports clipping (no automatic fix: re-record)', async () => {
    const clipped = join(dir, 'clipped.wav');
    await ff('-i', clean, '-af', 'volume=18dB', '-c:a', 'pcm_s16le', clipped);
    const check = await checkOne(clipped);
    expect(item(check, 'clipping').status).toBe('fail');
    expect(item(check, 'clipping').fix).toBeNull();
    expect(item(check, 'true_peak').status).toBe('warn');
    expect(check.ok).toBe(false);
  });

  it('reports a too-quiet sample, and normalise brings it into −23…−18 dB with true peak ≤ −3 dB', async () => {
    const quiet = join(dir, 'quiet.wav');
    await ff('-i', clean, '-af', 'volume=-22dB', quiet);
    const check = await checkOne(quiet);
    expect(item(check, 'rms').status).toBe('fail');
    expect(check.files[0]!.fixes).toContain('normalize');
    const fixed = join(dir, 'quiet-normalized.wav');
    await applySampleFix('normalize', quiet, fixed);
    const after = await checkOne(fixed);
    expect(after.files[0]!.levels.rms_db).toBeGreaterThanOrEqual(-23);
    expect(after.files[0]!.levels.rms_db).toBeLessThanOrEqual(-18);
    expect(after.files[0]!.levels.true_peak_db).toBeLessThanOrEqual(-3);
    expect(item(after, 'rms').status).toBe('pass');
    expect(item(after, 'true_peak').status).toBe('pass');
  });

  it('refuses a sample shorter than 10 s overall (and accepts it with a second file)', async () => {
    const short = join(dir, 'short.wav');
    await ff('-i', clean, '-t', '4', short);
    const check = await checkOne(short);
    expect(item(check, 'duration').status).toBe('fail');
    expect(item(check, 'duration').advice).toMatch(/太短/);
    expect(check.ok).toBe(false);
    const two = await checkSample(
      [
        { name: 'a.wav', path: short },
        { name: 'b.wav', path: clean },
      ],
      { kind: 'fast' },
    );
    expect(two.overall.find((i) => i.rule === 'duration')!.status).toBe('pass');
    expect(two.files).toHaveLength(2);
  });

  it('reports long silences, and trim shortens every pause to ≤ 1 s and the edges to ≤ 0.3 s', async () => {
    const gappy = join(dir, 'gappy.wav');
    await ff(
      '-i',
      clean,
      '-filter_complex',
      '[0:a]atrim=0:5,asetpts=N/SR/TB[a];[0:a]atrim=5,asetpts=N/SR/TB[b];anullsrc=r=48000:cl=mono,atrim=0:4[s];anullsrc=r=48000:cl=mono,atrim=0:3[l];anullsrc=r=48000:cl=mono,atrim=0:3[t];[l][a][s][b][t]concat=n=5:v=0:a=1',
      gappy,
    );
    const check = await checkOne(gappy);
    const levels = check.files[0]!.levels;
    expect(levels.longest_pause_ms).toBeGreaterThan(3500);
    expect(levels.leading_silence_ms).toBeGreaterThan(2500);
    expect(item(check, 'pauses').status).toBe('warn');
    expect(check.files[0]!.fixes).toContain('trim');
    const fixed = join(dir, 'gappy-trimmed.wav');
    await applySampleFix('trim', gappy, fixed);
    const after = await measureLevels(fixed);
    expect(after.longest_pause_ms).toBeLessThanOrEqual(1000);
    expect(after.leading_silence_ms).toBeLessThanOrEqual(300);
    expect(after.trailing_silence_ms).toBeLessThanOrEqual(300);
    expect(after.duration_ms).toBeLessThan(levels.duration_ms - 8000);
    // the speech itself is kept
    expect(after.duration_ms).toBeGreaterThan(
      levels.duration_ms - levels.duration_ms * levels.speech_share * 0.1 - 10_500,
    );
  });
});

describe('each row is judged on the figure it shows (issue 30 item 9)', () => {
  const good = {
    rms_db: -20,
    peak_db: -6,
    true_peak_db: -6,
    noise_floor_db: -70,
    snr_db: 40,
    clipped_share: 0,
    speech_share: 0.8,
    longest_pause_ms: 500,
    longest_speech_ms: 8000,
    leading_silence_ms: 200,
    trailing_silence_ms: 200,
    duration_ms: 12_000,
    sample_rate: 48_000,
  };
  const row = (patch: Partial<typeof good>, rule: CheckRule) =>
    checkLevels({ ...good, ...patch }).find((i) => i.rule === rule)!;

  it('never shows an in-range figure with 建议修复 or 不通过 (a few clipped samples read 0%)', () => {
    const edges: Array<[Partial<typeof good>, CheckRule, string]> = [
      [{ clipped_share: 0.00003 }, 'clipping', '0%'],
      [{ rms_db: -18.04 }, 'rms', '-18.0 dB'],
      [{ rms_db: -23.04 }, 'rms', '-23.0 dB'],
      [{ true_peak_db: -2.96 }, 'true_peak', '-3.0 dB'],
      [{ noise_floor_db: -59.96 }, 'noise_floor', '-60.0 dB'],
      [{ snr_db: 29.96 }, 'snr', '30.0 dB'],
      [{ speech_share: 0.598 }, 'speech_share', '60%'],
      [{ longest_speech_ms: 4960 }, 'continuous_speech', '5.0 秒'],
      [{ longest_pause_ms: 2040 }, 'pauses', '最长停顿 2.0 秒，首尾静音 0.2 秒 / 0.2 秒'],
    ];
    for (const [patch, rule, shown] of edges) {
      expect(row(patch, rule)).toMatchObject({ measured: shown, status: 'pass', advice: '' });
    }
  });

  it('still flags what shows out of range, with a figure that says so', () => {
    expect(row({ clipped_share: 0.00006 }, 'clipping')).toMatchObject({ measured: '0.01%', status: 'warn' });
    expect(row({ clipped_share: 0.02 }, 'clipping')).toMatchObject({ measured: '2%', status: 'fail' });
    expect(row({ rms_db: -17.94 }, 'rms')).toMatchObject({ measured: '-17.9 dB', status: 'warn' });
    expect(row({ speech_share: 0.594 }, 'speech_share')).toMatchObject({ measured: '59%', status: 'warn' });
  });
});
