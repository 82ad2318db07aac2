import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concatPcm, silence } from '../audio/wav.ts';
import { createEspeakEngine } from '../espeak/engine.ts';
import { createSherpaEngine, sherpaTtsConfig } from './engine.ts';
import { loadModelRegistry, parseModelRegistry } from './models.ts';
import {
  TINY_VITS_SAMPLE_RATE,
  TINY_VITS_SAMPLES_PER_TOKEN,
  TINY_VITS_TOKENS,
  tinyVitsModel,
  tinyVitsTokens,
} from './tiny-vits.fixture.ts';
import { createVoiceActivityDetector } from './vad.ts';

let root: string;
let n = 0;

/** A fresh models folder with the given registry and files. */
async function modelsDir(registry: unknown, files: Record<string, string> = {}): Promise<string> {
  const dir = join(root, `models-${n++}`);
  await mkdir(dir, { recursive: true });
  if (registry !== undefined) {
    await writeFile(
      join(dir, 'models.json'),
      typeof registry === 'string' ? registry : JSON.stringify(registry),
    );
  }
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return dir;
}

const vits = {
  id: 'tiny-vits',
  kind: 'vits',
  languages: ['zh-CN'],
  speakers: [
    { id: 0, name: '甲', gender: 'female' },
    { id: 3, name: '乙' },
  ],
  files: {
    model: 'tiny/model.onnx',
    tokens: 'tiny/tokens.txt',
    lexicon: ['tiny/lexicon.txt', 'tiny/lexicon-en.txt'],
  },
  ruleFsts: ['tiny/number.fst'],
};
const vitsFiles = {
  'tiny/model.onnx': 'not really onnx',
  'tiny/tokens.txt': 'a 0\n',
  'tiny/lexicon.txt': '啊 a\n',
  'tiny/lexicon-en.txt': 'a a\n',
  'tiny/number.fst': 'fst',
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'vw-sherpa-test-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('models.json', () => {
  it('parses a valid registry and fills defaults', () => {
    const [model] = parseModelRegistry({ models: [{ ...vits, speakers: 2, name: undefined }] });
    expect(model).toMatchObject({ id: 'tiny-vits', name: 'tiny-vits', kind: 'vits' });
    expect(model.speakers).toEqual([
      { id: 0, name: '0' },
      { id: 1, name: '1' },
    ]);
  });

  it.each([
    ['no models list', {}, /expected \{ "models"/],
    [
      'wrong kind',
      { models: [{ ...vits, kind: 'tacotron' }] },
      /unsupported kind tacotron; expected one of vits, matcha, kokoro/,
    ],
    [
      'missing file entry',
      { models: [{ ...vits, files: { model: 'm.onnx' } }] },
      /a vits model needs files.tokens/,
    ],
    [
      'foreign file entry',
      { models: [{ ...vits, files: { ...vits.files, voices: 'v.bin' } }] },
      /a vits model has no file voices/,
    ],
    ['no language', { models: [{ ...vits, languages: [] }] }, /needs at least one language/],
    ['duplicate id', { models: [vits, vits] }, /duplicate id tiny-vits/],
    ['bad id', { models: [{ ...vits, id: '../x' }] }, /id must be a word-like string/],
    ['bad speaker', { models: [{ ...vits, speakers: [{ id: -1, name: 'x' }] }] }, /integer id and a name/],
    ['bad ruleFsts', { models: [{ ...vits, ruleFsts: 'a.fst' }] }, /ruleFsts/],
  ])('refuses a registry with %s', (_, json, message) => {
    expect(() => parseModelRegistry(json)).toThrow(message);
  });

  it('needs the folder, the registry file, valid JSON and every file on disk', async () => {
    await expect(loadModelRegistry(join(root, 'nowhere'))).rejects.toMatchObject({
      code: 'engine_not_configured',
      en: expect.stringMatching(/models folder does not exist/),
    });
    // The command is the operator's (the log's English half); the user reads what to do.
    await expect(loadModelRegistry(await modelsDir(undefined))).rejects.toMatchObject({
      code: 'engine_not_configured',
      en: expect.stringMatching(/engines install/),
      zh: expect.not.stringMatching(/engines install|npm/),
    });
    await expect(loadModelRegistry(await modelsDir('{ nope'))).rejects.toMatchObject({
      code: 'model_invalid',
    });
    const { 'tiny/lexicon.txt': _, ...withoutLexicon } = vitsFiles;
    await expect(
      loadModelRegistry(await modelsDir({ models: [vits] }, withoutLexicon)),
    ).rejects.toMatchObject({
      code: 'model_file_missing',
      en: expect.stringMatching(/tiny-vits is missing .*tiny\/lexicon\.txt/),
    });
    expect(await loadModelRegistry(await modelsDir({ models: [vits] }, vitsFiles))).toHaveLength(1);
  });

  it('builds the sherpa config with absolute paths', () => {
    const [model] = parseModelRegistry({ models: [vits] });
    expect(sherpaTtsConfig('/m', model, 2)).toEqual({
      model: {
        vits: {
          model: '/m/tiny/model.onnx',
          tokens: '/m/tiny/tokens.txt',
          lexicon: '/m/tiny/lexicon.txt,/m/tiny/lexicon-en.txt',
        },
        numThreads: 2,
        provider: 'cpu',
        debug: false,
      },
      maxNumSentences: 1,
      ruleFsts: '/m/tiny/number.fst',
      ruleFars: '',
    });
  });
});

describe('sherpa-onnx engine', () => {
  const voice = { engine: 'sherpa-onnx', model: 'tiny-vits' } as const;

  it('says when the package is not installed', async () => {
    const dir = await modelsDir({ models: [vits] }, vitsFiles);
    await expect(
      createSherpaEngine({ modelsDir: dir, packageName: 'sherpa-onnx-missing' }),
    ).rejects.toMatchObject({
      code: 'engine_unavailable',
      en: expect.stringMatching(/sherpa-onnx-missing is not installed/),
    });
  });

  it('refuses an empty registry', async () => {
    await expect(createSherpaEngine({ modelsDir: await modelsDir({ models: [] }) })).rejects.toMatchObject({
      code: 'engine_not_configured',
    });
  });

  it('declares capabilities from the registry and checks voices', async () => {
    const engine = await createSherpaEngine({ modelsDir: await modelsDir({ models: [vits] }, vitsFiles) });
    expect(engine.capabilities).toMatchObject({ languages: ['zh-CN'], timings: 'sentence', cloning: false });
    expect(engine.models.map((m) => m.id)).toEqual(['tiny-vits']);
    await expect(
      engine.synthesize({ segments: [{ text: '啊' }], voice: { ...voice, model: 'nope' } }),
    ).rejects.toMatchObject({ code: 'model_not_found', en: 'no model nope (registered: tiny-vits)' });
    await expect(
      engine.synthesize({ segments: [{ text: '啊' }], voice: { ...voice, speaker: 1 } }),
    ).rejects.toMatchObject({ code: 'invalid_request', en: 'model tiny-vits has no speaker 1' });
  });

  it('re-checks files before loading and turns a corrupt model into an error, not a crash', async () => {
    const dir = await modelsDir({ models: [vits] }, vitsFiles);
    const engine = await createSherpaEngine({ modelsDir: dir });
    await expect(engine.synthesize({ segments: [{ text: '啊' }], voice })).rejects.toMatchObject({
      code: 'model_invalid',
      en: expect.stringMatching(/model tiny-vits failed to load/),
    });
    await unlink(join(dir, 'tiny/tokens.txt'));
    await expect(engine.synthesize({ segments: [{ text: '啊' }], voice })).rejects.toMatchObject({
      code: 'model_file_missing',
    });
  });
});

describe('sherpa-onnx engine with a real (tiny, generated) VITS model', () => {
  it('loads the model through sherpa-onnx and synthesises sentence by sentence', async () => {
    const dir = await modelsDir(
      {
        models: [
          {
            id: 'tiny',
            kind: 'vits',
            languages: ['en-US'],
            files: { model: 'tiny/model.onnx', tokens: 'tiny/tokens.txt' },
          },
        ],
      },
      { 'tiny/tokens.txt': tinyVitsTokens() },
    );
    await writeFile(join(dir, 'tiny/model.onnx'), tinyVitsModel());
    const engine = await createSherpaEngine({ modelsDir: dir });
    const out = await engine.synthesize({
      segments: [{ text: 'Hello world. Good day!' }, { pauseMs: 100 }],
      voice: { engine: 'sherpa-onnx', model: 'tiny' },
    });
    // The model turns every known character into 400 samples at 16 kHz (spaces are not tokens).
    const per = TINY_VITS_SAMPLES_PER_TOKEN;
    expect(out.sampleRate).toBe(TINY_VITS_SAMPLE_RATE);
    expect(out.samples.length).toBe(11 * per + 8 * per + 1600);
    expect(out.samples[0]).toBe(Math.round(0.02 * (TINY_VITS_TOKENS.indexOf('h') + 1) * 32767));
    expect(out.timings.map((t) => [t.text, t.startMs, t.endMs])).toEqual([
      ['Hello world.', 0, 275],
      ['Good day!', 275, 475],
    ]);
    await engine.close();
  });
});

describe('voice activity detection (Silero model shipped in @ricky0123/vad-web)', () => {
  const model = join(
    dirname(createRequire(import.meta.url).resolve('@ricky0123/vad-web')),
    'silero_vad_v5.onnx',
  );

  it('finds the two sentences around a pause', async () => {
    const espeak = createEspeakEngine();
    const speech = await espeak.synthesize({
      segments: [{ text: '今天天气很好' }, { pauseMs: 1500 }, { text: '我们去公园吧' }],
      voice: { engine: 'espeak', voice: 'cmn-latn-pinyin' },
    });
    const audio = concatPcm([silence(500, speech.sampleRate), speech, silence(500, speech.sampleRate)]);
    const vad = await createVoiceActivityDetector({ model });
    const spans = await vad.detect(audio);
    // Silero reacts to formant speech a little late, so allow a few hundred milliseconds.
    expect(spans).toHaveLength(2);
    const [first, second] = speech.timings.filter((t) => t.kind === 'sentence');
    expect(spans[0].startMs).toBeGreaterThanOrEqual(400);
    expect(spans[0].startMs).toBeLessThan(500 + first.startMs + 500);
    expect(spans[0].endMs).toBeLessThan(500 + first.endMs + 400);
    expect(spans[1].startMs - spans[0].endMs).toBeGreaterThan(1000);
    expect(Math.abs(spans[1].startMs - (500 + second.startMs))).toBeLessThan(400);
  });

  it('refuses a missing model instead of detecting nothing', async () => {
    await expect(createVoiceActivityDetector({ model: join(root, 'missing.onnx') })).rejects.toMatchObject({
      code: 'model_file_missing',
    });
  });
});
