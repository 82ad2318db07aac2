import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloneEngines } from './index.ts';
import { detectZeroShotModels } from './sherpa-zeroshot.ts';

/*
 * sherpa-onnx zero-shot cloning: no model weights can be fetched here, so what is tested is the
 * detection (every file checked before anything is constructed) and the refusal that names what is
 * missing. The HTTP engines are tested against fake servers in apps/server/test/voice-clone.test.ts.
 */

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-zeroshot-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const touch = (file: string) => writeFile(file, '');

describe('sherpa zero-shot models', () => {
  it('finds nothing in a folder without zipvoice or pocket models, and says what to put there', async () => {
    const empty = join(dir, 'empty');
    await mkdir(empty);
    expect(await detectZeroShotModels(empty)).toEqual([]);
    const set = await createCloneEngines({ refDir: join(dir, 'refs'), sherpaModelsDir: empty });
    expect(set.engines).toEqual([]);
    expect(set.problems.find((p) => p.id === 'sherpa-zipvoice')?.reason).toMatch(
      /no zipvoice \/ pocket model in/,
    );
  });

  it('lists the missing files of an incomplete zipvoice folder and does not start it', async () => {
    const models = join(dir, 'partial');
    const zip = join(models, 'sherpa-onnx-zipvoice-distill-zh-en-emilia');
    await mkdir(zip, { recursive: true });
    await touch(join(zip, 'tokens.txt'));
    await touch(join(zip, 'encoder.int8.onnx'));
    const [found] = await detectZeroShotModels(models);
    expect(found!.model).toBe('zipvoice');
    expect(found!.files).toBeNull();
    expect(found!.missing).toEqual(['lexicon.txt', 'espeak-ng-data', '(fm_)?decoder*.onnx', 'vocos*.onnx']);
    const set = await createCloneEngines({ refDir: join(dir, 'refs'), sherpaModelsDir: models });
    expect(set.engines.map((e) => e.id)).not.toContain('sherpa-zipvoice');
    expect(set.ttsEngines).toEqual([]);
    expect(set.problems.find((p) => p.id === 'sherpa-zipvoice')?.reason).toMatch(/lacks lexicon\.txt/);
  });

  it('accepts a complete zipvoice folder (vocoder next to it) and a complete pocket folder', async () => {
    const models = join(dir, 'complete');
    const zip = join(models, 'zipvoice-zh-en');
    await mkdir(join(zip, 'espeak-ng-data'), { recursive: true });
    for (const f of ['tokens.txt', 'lexicon.txt', 'text_encoder.onnx', 'fm_decoder.onnx'])
      await touch(join(zip, f));
    await touch(join(models, 'vocos_24khz.onnx'));
    const pocket = join(models, 'pocket-tts');
    await mkdir(pocket);
    for (const f of [
      'lm_flow.onnx',
      'lm_main.onnx',
      'encoder.onnx',
      'decoder.onnx',
      'text_conditioner.onnx',
      'vocab.json',
      'token_scores.json',
    ])
      await touch(join(pocket, f));
    const found = await detectZeroShotModels(models);
    expect(found.map((f) => [f.model, f.missing])).toEqual([
      ['pocket', []],
      ['zipvoice', []],
    ]);
    expect(found.find((f) => f.model === 'zipvoice')!.files!.vocoder).toBe(join(models, 'vocos_24khz.onnx'));
    const set = await createCloneEngines({ refDir: join(dir, 'refs'), sherpaModelsDir: models });
    expect(set.engines.map((e) => e.id).sort()).toEqual(['sherpa-pocket', 'sherpa-zipvoice']);
    // nothing is loaded until a voice speaks: the TTS engine exists, the model is not constructed
    expect(set.ttsEngines.map((e) => e.id)).toEqual(['sherpa-zeroshot']);
    // a zero-shot clone needs the reference transcript
    const zipEngine = set.engines.find((e) => e.id === 'sherpa-zipvoice')!;
    await expect(
      zipEngine.clone({
        references: [{ path: join(models, 'vocos_24khz.onnx'), language: 'zh-CN', duration_ms: 5000 }],
        profile: { median_hz: 120, p10_hz: 100, p90_hz: 150, rate: 4, gender: 'male' },
        language: 'zh-CN',
        voiceId: 'v1',
      }),
    ).rejects.toThrow(/参考音频的文字/);
  });

  it('reports HTTP engines as not configured without their URLs, and refuses a bad URL', async () => {
    const none = await createCloneEngines({ refDir: join(dir, 'refs') });
    expect(none.problems.map((p) => p.id)).toEqual(['gpt-sovits', 'cosyvoice', 'sherpa-zipvoice']);
    expect(none.problems[0]!.reason).toMatch(/GPT_SOVITS_URL/);
    const bad = await createCloneEngines({ refDir: join(dir, 'refs'), gptSovits: { url: 'ftp://x' } });
    expect(bad.problems.find((p) => p.id === 'gpt-sovits')?.reason).toMatch(
      /invalid GPT-SoVITS URL: ftp:\/\/x/,
    );
    const good = await createCloneEngines({
      refDir: join(dir, 'refs'),
      gptSovits: { url: 'http://127.0.0.1:9880' },
      cosyVoice: { url: 'http://127.0.0.1:50000' },
    });
    expect(good.engines.map((e) => [e.id, e.label, e.kind])).toEqual([
      ['gpt-sovits', 'GPT-SoVITS', 'zero-shot'],
      ['cosyvoice', 'CosyVoice', 'zero-shot'],
    ]);
  });
});
