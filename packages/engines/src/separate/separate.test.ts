import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.ts';
import { probeFile } from '../media/probe.ts';
import { type FakeSeparatorServer, startFakeSeparatorServer } from './fake-separator-server.ts';
import { createHttpSeparator } from './http.ts';

const run = promisify(execFile);

/** Mean level (dB) of a file after a filter, by volumedetect. */
async function meanDb(file: string, filter: string): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-hide_banner',
    '-i',
    file,
    '-af',
    `${filter},volumedetect`,
    '-f',
    'null',
    '-',
  ]);
  const m = /mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  return m?.[1] === '-inf' || !m ? -120 : Number(m[1]);
}

describe('separator over HTTP (vw-sep/1)', () => {
  let dir: string;
  let fake: FakeSeparatorServer;
  let input: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sep-test-'));
    fake = await startFakeSeparatorServer({ apiKey: 'k1' });
    input = join(dir, 'mix.wav');
    // A 150 Hz "bed" and a 3 kHz "voice", 2 s, 48 kHz mono: the fake splits at 500 Hz.
    await run('ffmpeg', [
      '-hide_banner',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=150:sample_rate=48000:duration=2',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=3000:sample_rate=48000:duration=2',
      '-filter_complex',
      '[0][1]amix=inputs=2:normalize=0',
      '-y',
      input,
    ]);
  });
  afterAll(async () => {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the audio with the key and model, and returns both stems where they belong', async () => {
    const sep = createHttpSeparator({ baseURL: `${fake.url}/`, apiKey: 'k1', model: 'htdemucs' });
    const stems = await sep.separate(input, join(dir, 'w1'));
    expect(fake.requests.at(-1)).toMatchObject({ model: 'htdemucs', authorization: 'Bearer k1' });
    expect(stems.model).toBe('fake-split (500 Hz)');
    for (const f of [stems.vocals, stems.accompaniment]) {
      const p = await probeFile(f);
      expect(p.streams.find((s) => s.type === 'audio')?.sampleRate).toBe(48_000);
      expect(Math.abs(p.durationMs - 2000)).toBeLessThan(30);
    }
    // The accompaniment holds the 150 Hz bed, not the 3 kHz tone; the vocals the other way round.
    const accLow = await meanDb(stems.accompaniment, 'bandpass=f=150:w=50');
    const accHigh = await meanDb(stems.accompaniment, 'bandpass=f=3000:w=300');
    const vocLow = await meanDb(stems.vocals, 'bandpass=f=150:w=50');
    const vocHigh = await meanDb(stems.vocals, 'bandpass=f=3000:w=300');
    expect(accLow - accHigh).toBeGreaterThan(30);
    expect(vocHigh - vocLow).toBeGreaterThan(30);
  });

  it('names SEPARATOR_URL when unreachable, and passes the server error on', async () => {
    const down = createHttpSeparator({ baseURL: 'http://127.0.0.1:9' });
    const e1 = await down.separate(input, join(dir, 'w2')).catch((e: unknown) => e);
    expect(isEngineError(e1, 'engine_unavailable')).toBe(true);
    expect((e1 as Error).message).toContain('SEPARATOR_URL');
    const wrongKey = createHttpSeparator({ baseURL: fake.url, apiKey: 'nope' });
    const e2 = await wrongKey.separate(input, join(dir, 'w3')).catch((e: unknown) => e);
    expect(isEngineError(e2, 'remote_error')).toBe(true);
    expect((e2 as Error).message).toContain('401');
  });
});
