import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SILERO_MODEL } from './media.fixture.ts';
import { createAsrProviders, createAsrRegistry } from './registry.ts';
import type { AsrProvider } from './types.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'vw-asr-registry-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const provider = (id: string, closed: string[] = []): AsrProvider => ({
  id,
  label: id.toUpperCase(),
  languages: ['zh'],
  diarization: false,
  wordTimes: true,
  transcribe: async () => ({ language: 'zh', durationMs: 0, segments: [], engine: id }),
  close: async () => {
    closed.push(id);
  },
});

describe('speech recognition registry', () => {
  it('finds providers by id, by family, or the first one; lists capabilities; closes all', async () => {
    const closed: string[] = [];
    const registry = createAsrRegistry([
      provider('openai-compatible', closed),
      provider('sherpa-onnx:sense-voice', closed),
      provider('sherpa-onnx:paraformer', closed),
    ]);
    expect(registry.get().id).toBe('openai-compatible');
    expect(registry.get('sherpa-onnx:paraformer').id).toBe('sherpa-onnx:paraformer');
    expect(registry.get('sherpa-onnx').id).toBe('sherpa-onnx:sense-voice');
    expect(registry.has('sherpa-onnx:paraformer')).toBe(true);
    expect(() => registry.get('sherpa-onnx:whisper')).toThrow(
      expect.objectContaining({
        code: 'model_not_found',
        en: 'no recognition model sherpa-onnx:whisper (available: sherpa-onnx:sense-voice, sherpa-onnx:paraformer)',
      }),
    );
    expect(registry.list()[1]).toEqual({
      id: 'sherpa-onnx:sense-voice',
      label: 'SHERPA-ONNX:SENSE-VOICE',
      languages: ['zh'],
      diarization: false,
      wordTimes: true,
    });
    await registry.close();
    expect(closed).toHaveLength(3);
  });

  it('says what to configure when there is nothing', () => {
    const registry = createAsrRegistry([]);
    expect(() => registry.get()).toThrow(
      expect.objectContaining({
        code: 'engine_not_configured',
        zh: '语音识别暂未开放，请联系管理员',
        en: expect.stringMatching(
          /set SHERPA_ONNX_MODELS_DIR.*; or set OPENAI_ASR_BASE_URL and OPENAI_ASR_MODEL/,
        ),
      }),
    );
    expect(() => registry.get('openai-compatible')).toThrow(
      expect.objectContaining({
        code: 'engine_not_configured',
        en: expect.stringMatching(/openai-compatible is not configured: set OPENAI_ASR_BASE_URL/),
      }),
    );
    expect(() => registry.get('sherpa-onnx:sense-voice')).toThrow(/SHERPA_ONNX_MODELS_DIR/);
    expect(() => registry.get('kaldi')).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    const custom = createAsrRegistry([], {
      hints: { 'openai-compatible': 'ask the operator' },
    });
    expect(() => custom.get('openai-compatible')).toThrow(/ask the operator/);
  });
});

describe('createAsrProviders', () => {
  it('starts what is configured and reports what broke, which get() then answers', async () => {
    const { registry, problems } = await createAsrProviders({
      sherpaModelsDir: join(root, 'nowhere'),
      openai: { baseURL: 'http://127.0.0.1:9', model: 'whisper-1' },
    });
    expect(registry.list().map((p) => p.id)).toEqual(['openai-compatible']);
    expect(problems).toEqual([
      {
        provider: 'sherpa-onnx',
        error: expect.objectContaining({ en: expect.stringMatching(/models folder does not exist/) }),
      },
    ]);
    expect(registry.problems).toBe(problems);
    expect(registry.get().id).toBe('openai-compatible');
    expect(() => registry.get('sherpa-onnx')).toThrow(
      expect.objectContaining({ zh: '语音识别暂未开放，请联系管理员', en: problems[0].error.en }),
    );
  });

  it('answers get() with the first problem when nothing started', async () => {
    const { registry, problems } = await createAsrProviders({
      openai: { baseURL: 'gpu-box', model: 'whisper-1' },
    });
    expect(problems.map((p) => p.provider)).toEqual(['openai-compatible']);
    expect(() => registry.get()).toThrow(/invalid OpenAI-compatible transcription base URL: gpu-box/);
  });

  it('starts sherpa-onnx providers from a models folder', async () => {
    const dir = join(root, 'models');
    await mkdir(join(dir, 'p'), { recursive: true });
    await writeFile(join(dir, 'p/model.onnx'), 'x');
    await writeFile(join(dir, 'p/tokens.txt'), 'a 0\n');
    await writeFile(
      join(dir, 'models.json'),
      JSON.stringify({
        models: [
          {
            id: 'paraformer-zh',
            kind: 'asr',
            type: 'paraformer',
            languages: ['zh'],
            files: { model: 'p/model.onnx', tokens: 'p/tokens.txt' },
          },
          { id: 'silero', kind: 'vad', files: { model: SILERO_MODEL } },
        ],
      }),
    );
    const { registry, problems } = await createAsrProviders({ sherpaModelsDir: dir });
    expect(problems).toEqual([]);
    expect(registry.list()).toEqual([
      {
        id: 'sherpa-onnx:paraformer-zh',
        label: 'paraformer-zh',
        languages: ['zh'],
        diarization: false,
        wordTimes: true,
      },
    ]);
  });

  it('with nothing configured, get() says what to set', async () => {
    const { registry, problems } = await createAsrProviders({});
    expect(problems).toEqual([]);
    expect(() => registry.get()).toThrow(/OPENAI_ASR_BASE_URL/);
  });
});
