import { describe, expect, it } from 'vitest';
import { CATALOGUE_GROUPS, KOKORO_V11_SPEAKERS, MODEL_CATALOGUE, RECOMMENDED_MODELS } from './catalogue.ts';
import { modelFiles, parseModelRegistry, TTS_KINDS } from './models.ts';

describe('the model catalogue', () => {
  const models = parseModelRegistry({ models: MODEL_CATALOGUE.map((c) => c.model) });

  it('is a valid models.json as a whole (unique ids, files per kind and type, speakers)', () => {
    expect(models).toHaveLength(MODEL_CATALOGUE.length);
  });

  it('offers what recognition needs: an ASR model of each supported type, VAD, punctuation, diarization', () => {
    const kinds = models.map((m) => (m.kind === 'asr' ? `asr:${m.type}` : m.kind));
    for (const k of [
      'asr:sense_voice',
      'asr:paraformer',
      'asr:whisper',
      'vad',
      'punctuation',
      'diarization',
    ]) {
      expect(kinds).toContain(k);
    }
    // Every entry shows up under one listing heading.
    const listed = CATALOGUE_GROUPS.flatMap((g) => g.kinds);
    for (const m of models) expect(listed).toContain(m.kind);
  });

  it('registers only files its downloads provide', () => {
    for (const [i, entry] of MODEL_CATALOGUE.entries()) {
      // An archive unpacks into the folder named after it; a single file lands at the top.
      const name = (path: string) => path.split('/').pop()!;
      const folders = entry.downloads
        .filter((d) => d.unpack)
        .map((d) => `/m/${name(d.path).replace(/\.(tar\.bz2|zip)$/, '')}/`);
      const singles = entry.downloads.filter((d) => !d.unpack).map((d) => `/m/${name(d.path)}`);
      for (const file of modelFiles('/m', models[i])) {
        expect(
          folders.some((f) => file.startsWith(f)) || singles.includes(file),
          `${entry.model.id}: ${file}`,
        ).toBe(true);
      }
      for (const d of entry.downloads.filter((d) => d.unpack)) {
        expect(d.path, `${entry.model.id}: only .tar.bz2 and .zip archives are unpacked`).toMatch(
          /\.(tar\.bz2|zip)$/,
        );
      }
    }
  });

  it('gives every download a release path, a size and a well-formed digest or none', () => {
    for (const entry of MODEL_CATALOGUE) {
      expect(entry.downloads.length, entry.model.id).toBeGreaterThan(0);
      for (const d of entry.downloads) {
        // A release asset under the base URL, a file elsewhere pinned to one revision of its repository,
        // or PaddleSpeech's released-model store (versioned by name, no revisions).
        expect(d.path, entry.model.id).toMatch(
          /^([\w-]+\/[\w.-]+|https:\/\/huggingface\.co\/[\w.-]+\/[\w.-]+\/resolve\/[0-9a-f]{40}\/[\w.-]+|https:\/\/paddlespeech\.bj\.bcebos\.com\/Parakeet\/released_models\/[\w/.-]+)$/,
        );
        expect(Number.isInteger(d.bytes) && d.bytes > 0, `${entry.model.id} bytes`).toBe(true);
        if (d.sha256 !== null) expect(d.sha256, entry.model.id).toMatch(/^[0-9a-f]{64}$/);
      }
      // The disk check needs room for what unpacks, never less than a single file's own size.
      const singles = entry.downloads.filter((d) => !d.unpack).reduce((n, d) => n + d.bytes, 0);
      expect(entry.installedBytes, entry.model.id).toBeGreaterThanOrEqual(singles);
    }
  });

  it('says where every licence fact was read, and recommends only what may be used commercially', () => {
    for (const { model, licence, recommended, enables, homepage } of MODEL_CATALOGUE) {
      expect(licence.sources.length, model.id).toBeGreaterThan(0);
      for (const url of [...licence.sources, homepage]) expect(url, model.id).toMatch(/^https?:\/\/\S+$/);
      for (const fact of [licence.code, licence.weights, licence.data, enables]) {
        expect(fact.trim(), model.id).not.toBe('');
      }
      if (recommended) expect(licence.permissive, `${model.id} is recommended`).toBe(true);
    }
  });

  it('recommends a set that speaks Chinese and English and hears Chinese', () => {
    const recommended = models.filter((m) => RECOMMENDED_MODELS.includes(m.id));
    expect(recommended.map((m) => m.id)).toEqual(RECOMMENDED_MODELS);
    const tts = recommended.filter((m) => (TTS_KINDS as readonly string[]).includes(m.kind));
    const spoken = tts.flatMap((m) => m.speakers.map((s) => s.language ?? m.languages[0]));
    expect(spoken.some((l) => l.startsWith('zh'))).toBe(true);
    expect(spoken.some((l) => l.startsWith('en'))).toBe(true);
    const asr = recommended.filter((m) => m.kind === 'asr');
    expect(asr.some((m) => m.languages.includes('zh'))).toBe(true);
    expect(recommended.some((m) => m.kind === 'vad')).toBe(true);
  });

  it('offers LaMa for the erase as an opt-in model: its training data is not cleared for commercial use', () => {
    const lama = MODEL_CATALOGUE.find((c) => c.model.kind === 'inpaint');
    expect(lama?.model.files).toEqual({ model: 'lama_fp32.onnx' });
    expect(lama?.recommended).toBe(false);
    expect(lama?.licence.permissive).toBe(false);
    // One exact file with its published digest: installed verified, checked again by `engines verify`.
    expect(lama?.downloads).toEqual([expect.objectContaining({ unpack: false, bytesExact: true })]);
    expect(lama?.downloads[0].sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('offers g2pW for the polyphones as an opt-in model with the export, its labels and the BERT vocabulary', () => {
    const g2pw = MODEL_CATALOGUE.find((c) => c.model.kind === 'g2p');
    expect(g2pw?.model.files).toMatchObject({
      model: 'G2PWModel_1.1/g2pW.onnx',
      polyphonic: 'G2PWModel_1.1/POLYPHONIC_CHARS.txt',
      vocab: 'vocab.txt',
    });
    expect(g2pw?.recommended).toBe(false);
    // The archive unpacks (unzip), the vocabulary is one file pinned to its revision.
    expect(g2pw?.downloads.map((d) => d.unpack)).toEqual([true, false]);
    expect(g2pw?.downloads[0].path).toMatch(/G2PWModel_1\.1\.zip$/);
  });

  it('names every Kokoro v1.1 speaker with gender and language, in upstream order', () => {
    const kokoro = models.find((m) => m.id === 'kokoro-multi-lang-v1_1')!;
    expect(kokoro.speakers).toHaveLength(103);
    expect(kokoro.speakers.map((s) => s.id)).toEqual([...Array(103).keys()]);
    const count = (language: string, gender: string) =>
      kokoro.speakers.filter((s) => s.language === language && s.gender === gender).length;
    // Upstream's table: af 0-1, bf 2, zf 3-57, zm 58-102.
    expect([count('en-US', 'female'), count('en-GB', 'female')]).toEqual([2, 1]);
    expect([count('zh-CN', 'female'), count('zh-CN', 'male')]).toEqual([55, 45]);
    expect(kokoro.speakers[57].name).toContain('099');
    expect(kokoro.speakers[58].name).toContain('009');
    expect(new Set(KOKORO_V11_SPEAKERS.map((s) => s.name)).size).toBe(103);
  });
});

describe('speakers in models.json', () => {
  const entry = (speakers: unknown) => ({
    models: [{ id: 'v', kind: 'vits', languages: ['zh-CN'], files: { model: 'm', tokens: 't' }, speakers }],
  });

  it('keeps language and style, and drops neither when given', () => {
    const [model] = parseModelRegistry(
      entry([{ id: 0, name: 'A', gender: 'female', language: 'en-GB', style: ' 年长 ' }]),
    );
    expect(model.speakers).toEqual([
      { id: 0, name: 'A', gender: 'female', language: 'en-GB', style: '年长' },
    ]);
  });

  it('refuses a language that is not a language tag, a repeated id and an empty style', () => {
    expect(() => parseModelRegistry(entry([{ id: 0, name: 'A', language: 'Chinese' }]))).toThrow(
      /speakers\[0\]\.language/,
    );
    expect(() => parseModelRegistry(entry([{ id: 0, name: 'A', language: 3 }]))).toThrow(/language/);
    expect(() =>
      parseModelRegistry(
        entry([
          { id: 0, name: 'A' },
          { id: 0, name: 'B' },
        ]),
      ),
    ).toThrow(/duplicate speaker id 0/);
    expect(() => parseModelRegistry(entry([{ id: 0, name: 'A', style: '  ' }]))).toThrow(
      /speakers\[0\]\.style/,
    );
  });
});
