import { afterAll, describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.ts';
import { EspeakProcessPool } from './process-pool.ts';

const params = { voiceName: 'en', rate: 175, pitch: 50, range: 50 };

describe('espeak process pool', () => {
  const pool = new EspeakProcessPool(2);
  afterAll(() => pool.close());

  it('runs calls in parallel processes and answers each with its own audio', async () => {
    await pool.ready();
    const texts = ['one', 'two three four five six seven', 'eight', 'nine ten eleven twelve'];
    const outs = await Promise.all(texts.map((t) => pool.synth(`<speak>${t}</speak>`, params)));
    for (const out of outs) expect(out.samples).toBeInstanceOf(Int16Array);
    // Longer texts give longer audio, so every answer went back to its own call.
    expect(outs[1].samples.length).toBeGreaterThan(outs[0].samples.length);
    expect(outs[3].samples.length).toBeGreaterThan(outs[2].samples.length);
    expect(outs[1].events.filter((e) => e.type === 'word')).toHaveLength(6);
  });

  it('reports a bad voice as the engine error it is', async () => {
    const failed = await pool
      .synth('<speak>x</speak>', { ...params, voiceName: 'no-such-voice' })
      .catch((e) => e);
    expect(isEngineError(failed, 'invalid_request')).toBe(true);
  });

  it('fails the call of a process that dies and replaces the process', async () => {
    const victim = (pool as unknown as { helpers: { pids(): number[] } }).helpers.pids()[0];
    const call = pool.synth(`<speak>${'long text '.repeat(400)}</speak>`, params);
    process.kill(victim);
    const outcome = await call.then(
      () => 'done',
      (e) => (isEngineError(e, 'media_failed') ? 'failed' : String(e)),
    );
    // Both processes were idle, so the call went to the first one, which died under it.
    expect(outcome).toBe('failed');
    await new Promise((r) => setTimeout(r, 200));
    await pool.ready();
    const after = await pool.synth('<speak>still here</speak>', params);
    expect(after.samples.length).toBeGreaterThan(0);
  });
});

describe('espeak process pool without the library', () => {
  it('rejects with the install hint instead of restarting forever', async () => {
    const pool = new EspeakProcessPool(1, '/nonexistent/libespeak-ng.so.1');
    const failed = await pool.synth('<speak>x</speak>', params).catch((e) => e);
    expect(isEngineError(failed, 'engine_unavailable')).toBe(true);
    await expect(pool.ready()).rejects.toThrow(/espeak-ng/);
    await pool.close();
  });
});
