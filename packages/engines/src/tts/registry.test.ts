import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngines } from './registry.ts';

describe('engine registry', () => {
  it('lists the embedded default and routes by voice engine', async () => {
    const engines = await createEngines();
    expect(engines.list().map((e) => e.id)).toEqual(['espeak']);
    expect(engines.list()[0].capabilities).toMatchObject({
      timings: 'word',
      dictionary: true,
      streaming: true,
    });
    const out = await engines.synthesize({
      segments: [{ text: '你好' }],
      voice: { engine: 'espeak', voice: 'cmn-latn-pinyin' },
    });
    expect(out.durationMs).toBeGreaterThan(200);
    await engines.close();
  });

  it('tells the user to ask the operator, and the operator (in English) what to configure', async () => {
    const engines = await createEngines({ hints: { 'openai-compatible': 'set X' } });
    expect(() => engines.get('sherpa-onnx')).toThrow(
      expect.objectContaining({ en: expect.stringMatching(/SHERPA_ONNX_MODELS_DIR/) }),
    );
    expect(() => engines.get('sherpa-onnx')).toThrow(
      expect.objectContaining({ zh: '语音引擎 sherpa-onnx 暂未开放，请联系管理员或换用其他声音' }),
    );
    expect(() => engines.get('openai-compatible')).toThrow(
      /speech engine openai-compatible is not configured: set X/,
    );
    expect(() => engines.get('wavenet')).toThrow(/no speech engine called wavenet/);
    await expect(
      engines.synthesize({
        segments: [{ text: 'hi' }],
        voice: { engine: 'openai-compatible', model: 'm', voice: 'v' },
      }),
    ).rejects.toMatchObject({ code: 'engine_not_configured' });
  });

  it('keeps the other engines when one fails to start and answers with its error', async () => {
    const engines = await createEngines({
      espeak: { libraryPath: 'libespeak-ng-missing.so' },
      sherpa: { modelsDir: join(tmpdir(), 'vw-no-such-models') },
      openai: { baseUrl: 'http://127.0.0.1:9' },
    });
    expect(engines.list().map((e) => e.id)).toEqual(['openai-compatible']);
    expect(engines.problems.map((p) => [p.engine, p.error.code])).toEqual([
      ['espeak', 'engine_unavailable'],
      ['sherpa-onnx', 'engine_not_configured'],
    ]);
    expect(() => engines.get('espeak')).toThrow(/install espeak-ng/);
    expect(() => engines.get('sherpa-onnx')).toThrow(/models folder does not exist/);
  });
});
