import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeVoiceServers, startFakeVoiceServers } from '../../../../e2e/fake-voice-servers.mjs';
import { measureFormants, measurePitch } from '../audio/pitch.ts';
import { isEngineError } from '../errors.ts';
import { probeFile } from '../media/probe.ts';
import { measureVoiceChange } from './envelope.ts';
import { createHttpVcProvider } from './http.ts';
import { createVcRegistry, VC_UNAVAILABLE_ZH } from './registry.ts';
import { createRubberbandProvider, FORMANT_FOLLOW, followingFormant } from './rubberband.ts';

const run = promisify(execFile);

let dir: string;
let speech: string;
let speechMs: number;
let fake: FakeVoiceServers;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-vc-'));
  speech = join(dir, 'speech.wav');
  // A low male espeak voice (~100 Hz): conversions to a female target are a big, measurable move.
  await run('espeak-ng', [
    '-v',
    'en-us',
    '-p',
    '30',
    '-w',
    speech,
    'the quick brown fox jumps over the lazy dog',
  ]);
  speechMs = (await probeFile(speech)).durationMs;
  fake = await startFakeVoiceServers({ port: 0, apiKey: 'k-123' });
}, 30_000);
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

const rb = createRubberbandProvider();

describe('Rubber Band R3 provider', { timeout: 60_000 }, () => {
  it('lands the output median F0 within 5 % of the target (up and down), keeping the length', async () => {
    const source = await measurePitch(speech);
    for (const targetHz of [210, 75]) {
      const out = join(dir, `to-${targetHz}.wav`);
      const work = await mkdtemp(join(dir, 'w-'));
      const result = await rb.convert(speech, out, { pitch: { median_hz: targetHz } }, { workDir: work });
      const measured = await measurePitch(out);
      expect(Math.abs(measured.median_hz / targetHz - 1)).toBeLessThan(0.05);
      expect(result.output_f0_hz).toBeCloseTo(measured.median_hz, 0);
      expect(result.source_f0_hz).toBeCloseTo(source.median_hz, 0);
      expect(Math.sign(result.semitones)).toBe(Math.sign(targetHz - source.median_hz));
      expect(result).toMatchObject({
        engine: 'rubberband-r3',
        label: 'Rubber Band R3',
        target_f0_hz: targetHz,
      });
      expect(Math.abs(result.duration_ms - speechMs)).toBeLessThan(60);
    }
  });

  it('toward a higher target voice the formants follow part of the pitch move (measured), none when told not to', async () => {
    const source = await measurePitch(speech);
    const targetHz = 210;
    const auto = join(dir, 'auto.wav');
    const r = await rb.convert(speech, auto, { pitch: { median_hz: targetHz } }, { workDir: dir });
    const expected = followingFormant(source.median_hz, targetHz);
    expect(r.formant_semitones).toBeCloseTo(expected, 1);
    expect(r.method).toBe('signal');
    // ~85 Hz → 210 Hz is +15.7 semitones: the formants follow 0.35 of it, capped at +4 (×1.26).
    expect(expected).toBeGreaterThan(3);
    const moved = await measureVoiceChange(speech, auto);
    expect(Math.abs(moved.envelope_ratio / 2 ** (expected / 12) - 1), JSON.stringify(moved)).toBeLessThan(
      0.04,
    );
    expect(Math.abs(moved.f0_ratio * source.median_hz - targetHz) / targetHz).toBeLessThan(0.05);
    const kept = join(dir, 'kept.wav');
    const k = await rb.convert(
      speech,
      kept,
      { pitch: { median_hz: targetHz }, formantFollow: 0 },
      { workDir: dir },
    );
    expect(k.formant_semitones).toBe(0);
    expect(Math.abs((await measureVoiceChange(speech, kept)).envelope_ratio - 1)).toBeLessThan(0.03);
    // A target near the source's pitch barely moves the formants.
    expect(Math.abs(followingFormant(100, 110))).toBeLessThan(0.6);
    expect(followingFormant(200, 120)).toBeCloseTo(FORMANT_FOLLOW * 12 * Math.log2(120 / 200), 5);
  });

  it('formant shift moves the envelope and keeps pitch; formants stay put without it', async () => {
    const before = await measureFormants(speech);
    const keep = join(dir, 'keep.wav');
    const moved = join(dir, 'moved.wav');
    await rb.convert(speech, keep, { semitones: 4 }, { workDir: dir });
    await rb.convert(speech, moved, { semitones: 4, formantSemitones: 4 }, { workDir: dir });
    const [fKeep, fMoved] = [await measureFormants(keep), await measureFormants(moved)];
    const [pKeep, pMoved] = [await measurePitch(keep), await measurePitch(moved)];
    expect(Math.abs(pMoved.median_hz / pKeep.median_hz - 1)).toBeLessThan(0.04);
    // +4 semitones = ×1.26: the moved envelope sits clearly higher than the kept one (F1 is the
    // steadier of the two envelope peaks on espeak speech).
    expect(fMoved.f1_hz / fKeep.f1_hz).toBeGreaterThan(1.1);
    expect(Math.abs(fKeep.f1_hz / before.f1_hz - 1)).toBeLessThan(0.12);
    expect(Math.abs((await probeFile(moved)).durationMs - speechMs)).toBeLessThan(60);
  });

  it('keepTiming false is a tape-speed change: shorter when higher', async () => {
    const out = join(dir, 'tape.wav');
    const r = await rb.convert(speech, out, { semitones: 12 }, { workDir: dir, keepTiming: false });
    expect(r.duration_ms).toBeGreaterThan(speechMs * 0.45);
    expect(r.duration_ms).toBeLessThan(speechMs * 0.55);
  });

  it('stops at once when aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await rb
      .convert(speech, join(dir, 'x.wav'), { semitones: 3 }, { workDir: dir, signal: ac.signal })
      .catch((e) => e);
    expect(isEngineError(err, 'aborted')).toBe(true);
  });
});

describe('HTTP voice-conversion provider (fake server speaking vw-vc/1)', { timeout: 60_000 }, () => {
  it('posts the audio, voice, reference and transpose; returns the server audio labelled with its model', async () => {
    const vc = createHttpVcProvider({ baseURL: `${fake.url}/vc/`, apiKey: 'k-123', label: 'RVC 服务' });
    const out = join(dir, 'remote.wav');
    const before = fake.requests.length;
    const r = await vc.convert(
      speech,
      out,
      { pitch: { median_hz: 200 }, voiceId: 'alice', referenceAudio: speech, formantSemitones: 1 },
      { workDir: dir, denoise: true },
    );
    const req = fake.requests[before];
    expect(req.authorization).toBe('Bearer k-123');
    expect(req.fields).toMatchObject({ voice: 'alice', formant_shift: '1', keep_timing: 'true' });
    expect(Number(req.fields.pitch_semitones)).toBeCloseTo(r.semitones, 1);
    expect(req.files.audio).toBeGreaterThan(10_000);
    expect(req.files.reference).toBeGreaterThan(10_000);
    expect(r).toMatchObject({ engine: 'vc-server', label: 'RVC 服务 · fake-rvc', denoised: true });
    // The fake transposes by what it was asked: the result is near the target.
    expect(Math.abs(r.output_f0_hz / 200 - 1)).toBeLessThan(0.06);
    expect((await probeFile(out)).durationMs).toBeGreaterThan(speechMs - 100);
  });

  it('turns server errors, a wrong key and an unreachable server into engine errors with reasons', async () => {
    const vc = createHttpVcProvider({ baseURL: `${fake.url}/vc`, apiKey: 'k-123' });
    const broken = await vc
      .convert(speech, join(dir, 'b.wav'), { voiceId: 'broken' }, { workDir: dir })
      .catch((e) => e);
    expect(isEngineError(broken, 'remote_error')).toBe(true);
    expect(broken.zh).toContain('model failed to load');
    const badKey = createHttpVcProvider({ baseURL: `${fake.url}/vc`, apiKey: 'nope' });
    const denied = await badKey.convert(speech, join(dir, 'c.wav'), {}, { workDir: dir }).catch((e) => e);
    expect(isEngineError(denied, 'remote_error')).toBe(true);
    const gone = createHttpVcProvider({ baseURL: 'http://127.0.0.1:1/vc' });
    const down = await gone.convert(speech, join(dir, 'd.wav'), {}, { workDir: dir }).catch((e) => e);
    expect(isEngineError(down, 'engine_unavailable')).toBe(true);
    expect(down.zh).toBe('暂时无法连接变声服务，请稍后重试或换用其他变声引擎');
    expect(down.en).toContain('VC_SERVER_URL');
  });
});

describe('registry', { timeout: 60_000 }, () => {
  it('offers the offline default first; with nothing there the user is told to ask, the log what to configure', () => {
    const reg = createVcRegistry([rb, createHttpVcProvider({ baseURL: 'http://x/vc' })]);
    expect(reg.list().map((p) => p.id)).toEqual(['rubberband-r3', 'vc-server']);
    expect(reg.get().id).toBe('rubberband-r3');
    const empty = createVcRegistry([], VC_UNAVAILABLE_ZH);
    expect(() => empty.get()).toThrow(
      expect.objectContaining({
        zh: '变声功能暂未开放，请联系管理员',
        en: expect.stringMatching(/rubberband-cli/),
      }),
    );
    expect(() => createVcRegistry([rb]).get('vc-server')).toThrow(
      expect.objectContaining({
        zh: expect.not.stringMatching(/VC_SERVER_URL/),
        en: expect.stringMatching(/VC_SERVER_URL/),
      }),
    );
  });
});
