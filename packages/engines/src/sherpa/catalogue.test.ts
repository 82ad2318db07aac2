import { describe, expect, it } from 'vitest';
import { CATALOGUE_GROUPS, MODEL_CATALOGUE } from './catalogue.ts';
import { modelFiles, parseModelRegistry } from './models.ts';

describe('the models:fetch catalogue', () => {
  const models = parseModelRegistry({ models: MODEL_CATALOGUE.map((c) => c.model) });

  it('is a valid models.json as a whole (unique ids, files per kind and type)', () => {
    expect(models).toHaveLength(MODEL_CATALOGUE.length);
  });

  it('offers what recognition needs: an ASR model of each recommended type, VAD, punctuation, diarization', () => {
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
    // Every entry shows up under one --list heading.
    const listed = CATALOGUE_GROUPS.flatMap((g) => g.kinds);
    for (const m of models) expect(listed).toContain(m.kind);
  });

  it('registers only files its downloads provide', () => {
    for (const [i, entry] of MODEL_CATALOGUE.entries()) {
      // An archive unpacks into the folder named after it; a single file lands at the top.
      const folders = entry.archives.map(
        (a) =>
          `/m/${a
            .split('/')
            .pop()!
            .replace(/\.tar\.bz2$/, '')}/`,
      );
      const singles = (entry.files ?? []).map((f) => `/m/${f.split('/').pop()}`);
      for (const file of modelFiles('/m', models[i])) {
        expect(
          folders.some((f) => file.startsWith(f)) || singles.includes(file),
          `${entry.model.id}: ${file}`,
        ).toBe(true);
      }
    }
  });
});
