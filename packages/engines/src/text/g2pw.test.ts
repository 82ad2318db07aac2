import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_CATALOGUE } from '../sherpa/catalogue.ts';
import { type ArchiveServer, startArchiveServer } from '../sherpa/install/fake-archive-server.ts';
import { installModels, removeModel } from '../sherpa/install/installer.ts';
import {
  storedZip,
  TINY_G2PW_BOPOMOFO,
  TINY_G2PW_POLYPHONIC,
  TINY_G2PW_VOCAB,
  tinyG2pwFiles,
} from './g2pw.fixture.ts';
import {
  createG2pwModel,
  findG2pwModel,
  type G2pwPolyphoneModel,
  labelPinyin,
  loadG2pwAssets,
  queriesOf,
  tokenize,
} from './g2pw.ts';
import { pinyinReadings, preparePolyphones, setPolyphoneModel } from './polyphones.ts';

/*
 * g2pW without its weights: the tiny graph of g2pw.fixture.ts (always 還 huán, 長 zhǎng), packed as
 * PaddleSpeech packs G2PWModel_1.1 (a .zip of one folder) and installed with the vocabulary through the
 * real installer from a local archive server, under the catalogue's g2pW entry. The model then decides
 * a polyphone the phrase table does not fix; the phrase table and the user's dictionary still win; and
 * with the model absent or removed the rules read as before.
 */

const reading = (text: string, ch: string, dictionary?: Parameters<typeof pinyinReadings>[1]) =>
  pinyinReadings(text, dictionary).find((r) => r.char === ch)?.pinyin;

describe('g2pW inputs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'g2pw-assets-'));
    await writeFile(join(dir, 'vocab.txt'), TINY_G2PW_VOCAB);
    await writeFile(join(dir, 'POLYPHONIC_CHARS.txt'), TINY_G2PW_POLYPHONIC);
    await writeFile(join(dir, 'bopomofo.json'), JSON.stringify(TINY_G2PW_BOPOMOFO));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const assets = () =>
    loadG2pwAssets({
      model: '',
      vocab: join(dir, 'vocab.txt'),
      polyphonic: join(dir, 'POLYPHONIC_CHARS.txt'),
      bopomofo: join(dir, 'bopomofo.json'),
    });

  it('orders labels and characters by code point, as the published code sorts them', async () => {
    const a = await assets();
    expect(a.labels).toEqual(['ㄏㄞ2', 'ㄏㄨㄢ2', 'ㄓㄤ3', 'ㄔㄤ2']);
    expect(a.chars).toEqual(['還', '長']);
    expect(a.readings.get('長')).toEqual([3, 2]);
  });

  it('gives each character one token, a Latin word its WordPieces, a space none', async () => {
    const { vocab } = await assets();
    // [CLS] 他 還 ai ##pad [UNK]; ids are line numbers of the vocabulary.
    const { ids, tokenOf } = tokenize('他還 AIpad沒', vocab);
    expect(ids).toEqual([2, 5, 6, 16, 17, 7, 3]);
    expect(tokenOf).toEqual([1, 2, -1, 3, 3, 4, 4, 4, 5]);
    // Characters outside the vocabulary are [UNK], never dropped.
    expect(tokenize('他𠀀', vocab).ids).toEqual([2, 5, 1, 3]);
  });

  it('asks about the Traditional form the labels list, and reads labels as tone-numbered pinyin', async () => {
    const a = await assets();
    expect(queriesOf('他还没来，路很长', [1, 7], a)).toEqual([
      { char: '還', at: 1 },
      { char: '長', at: 7 },
    ]);
    expect(queriesOf('他说', [1], a)).toEqual([]);
    expect(labelPinyin('ㄓㄤ3', a.bopomofo)).toBe('zhang3');
    // The CPP data's own labels are pinyin already.
    expect(labelPinyin('lu:3', {})).toBe('lü3');
    expect(labelPinyin('ㄅㄚ1', {})).toBe('');
  });
});

describe('a g2pW that cannot run', () => {
  it('fails its calls, and the rules read the sentence', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'g2pw-broken-'));
    const g2pw = createG2pwModel(dir);
    try {
      await writeFile(join(dir, 'g2pW.onnx'), 'not a model');
      await writeFile(join(dir, 'vocab.txt'), TINY_G2PW_VOCAB);
      await writeFile(join(dir, 'POLYPHONIC_CHARS.txt'), TINY_G2PW_POLYPHONIC);
      const files = { model: 'g2pW.onnx', vocab: 'vocab.txt', polyphonic: 'POLYPHONIC_CHARS.txt' };
      await writeFile(
        join(dir, 'models.json'),
        JSON.stringify({ models: [{ id: 'g2pw-1.1', kind: 'g2p', name: 'g2pW', files }] }),
      );
      await expect(g2pw.predict('这条路很长', [4])).rejects.toThrow();
      setPolyphoneModel(g2pw);
      await preparePolyphones('这条路很长');
      expect(reading('这条路很长', '长')).toBe('chang2');
    } finally {
      setPolyphoneModel(undefined);
      await g2pw.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('g2pW installed from the catalogue', () => {
  const entry = MODEL_CATALOGUE.find((c) => c.model.kind === 'g2p')!;
  let root: string;
  let modelsDir: string;
  let archives: ArchiveServer;
  let g2pw: G2pwPolyphoneModel;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'g2pw-install-'));
    modelsDir = join(root, 'models');
    const folder = Object.fromEntries(
      Object.entries(tinyG2pwFiles()).map(([name, body]) => [`G2PWModel_1.1/${name}`, body]),
    );
    archives = await startArchiveServer({
      'g2p/G2PWModel_1.1.zip': storedZip(folder),
      'bert/vocab.txt': Buffer.from(TINY_G2PW_VOCAB),
    });
    const zip = entry.downloads[0];
    const vocab = entry.downloads[1];
    const report = await installModels({
      modelsDir,
      baseUrl: archives.url,
      // The catalogue's entry as is, its downloads served locally.
      catalogue: [
        {
          ...entry,
          downloads: [
            { ...zip, path: `${archives.url}/g2p/G2PWModel_1.1.zip` },
            { ...vocab, path: `${archives.url}/bert/vocab.txt` },
          ],
        },
      ],
      ids: [entry.model.id],
      statfs: async () => ({ bavail: 1e12, bsize: 1 }),
      retryDelaysMs: [],
    });
    expect(report).toMatchObject({ status: 'done', installed: [entry.model.id] });
    g2pw = createG2pwModel(modelsDir);
  }, 60_000);

  afterAll(async () => {
    setPolyphoneModel(undefined);
    await g2pw?.close();
    await archives?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('finds the installed files through models.json', async () => {
    expect(await findG2pwModel(modelsDir)).toEqual({
      model: join(modelsDir, 'G2PWModel_1.1', 'g2pW.onnx'),
      vocab: join(modelsDir, 'vocab.txt'),
      polyphonic: join(modelsDir, 'G2PWModel_1.1', 'POLYPHONIC_CHARS.txt'),
      bopomofo: join(modelsDir, 'G2PWModel_1.1', 'bopomofo_to_pinyin_wo_tune_dict.json'),
    });
  });

  it('decides a polyphone no phrase fixes; the phrase table and the user dictionary still win', async () => {
    // The rules alone: 很长 is long, 还没 is "not yet".
    setPolyphoneModel(undefined);
    expect(reading('这条路很长', '长')).toBe('chang2');
    expect(reading('他还没来', '还')).toBe('hai2');

    setPolyphoneModel(g2pw);
    expect(await g2pw.predict('他还没来，这条路很长', [1, 9])).toEqual(['huan2', 'zhang3']);
    await preparePolyphones('这条路很长');
    await preparePolyphones('他还没来');
    // The model's reading (the tiny graph always says zhǎng)…
    expect(reading('这条路很长', '长')).toBe('zhang3');
    // …but 还没 is in the phrase table (hái), which the model never overrides…
    expect(reading('他还没来', '还')).toBe('hai2');
    // …and the user's dictionary wins over the model.
    expect(reading('这条路很长', '长', [{ word: '很长', pinyin: 'hen3 chang2' }])).toBe('chang2');
    // A text the model was not asked about reads by the rules.
    expect(reading('那条路很长', '长')).toBe('chang2');
  });

  it('leaves the rules to decide once the model is removed', async () => {
    setPolyphoneModel(g2pw);
    expect(await removeModel(modelsDir, entry.model.id)).toBe(true);
    expect(await findG2pwModel(modelsDir)).toBeNull();
    await preparePolyphones('这条路真长');
    expect(reading('这条路真长', '长')).toBe('chang2');
  });
});
