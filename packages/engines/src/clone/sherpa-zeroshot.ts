import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readMonoFloat } from '../audio/levels.ts';
import { floatToPcm } from '../audio/wav.ts';
import { EngineError } from '../errors.ts';
import { loadSherpa } from '../sherpa/module.ts';
import { createSentenceEngine } from '../tts/sentence-engine.ts';
import type { TtsEngine, ZeroShotVoice } from '../tts/types.ts';
import type { CloneEngine, CloneEngineProblem } from './types.ts';

/*
 * sherpa-onnx zero-shot cloning (ZipVoice, Pocket TTS) from model folders in SHERPA_ONNX_MODELS_DIR.
 * Every file is checked before any sherpa object is constructed (a missing file would otherwise
 * abort or give a silent handle); a folder with missing files is reported with their names.
 *
 * ZipVoice folder (name contains 'zipvoice'): tokens.txt, lexicon.txt, espeak-ng-data/,
 *   encoder*.onnx, decoder*.onnx, and a vocoder vocos*.onnx (in the folder or next to it).
 * Pocket folder (name contains 'pocket'): lm_flow*.onnx, lm_main*.onnx, encoder*.onnx, decoder*.onnx,
 *   text_conditioner*.onnx, vocab.json, token_scores.json.
 */

type ModelName = 'zipvoice' | 'pocket';

const REQUIRED: Record<
  ModelName,
  Array<{ key: string; match: RegExp; dir?: boolean; parentOk?: boolean }>
> = {
  zipvoice: [
    { key: 'tokens', match: /^tokens\.txt$/ },
    { key: 'lexicon', match: /^lexicon\.txt$/ },
    { key: 'dataDir', match: /^espeak-ng-data$/, dir: true },
    { key: 'encoder', match: /^(text_)?encoder.*\.onnx$/ },
    { key: 'decoder', match: /^(fm_)?decoder.*\.onnx$/ },
    { key: 'vocoder', match: /^vocos.*\.onnx$/, parentOk: true },
  ],
  pocket: [
    { key: 'lmFlow', match: /^lm_flow.*\.onnx$/ },
    { key: 'lmMain', match: /^lm_main.*\.onnx$/ },
    { key: 'encoder', match: /^encoder.*\.onnx$/ },
    { key: 'decoder', match: /^decoder.*\.onnx$/ },
    { key: 'textConditioner', match: /^text_conditioner.*\.onnx$/ },
    { key: 'vocabJson', match: /^vocab\.json$/ },
    { key: 'tokenScoresJson', match: /^token_scores\.json$/ },
  ],
};

export interface ZeroShotModelFolder {
  model: ModelName;
  dir: string;
  /** Config paths by sherpa key, when every file is there. */
  files: Record<string, string> | null;
  /** Names of what is missing ('tokens.txt', 'vocos*.onnx'…). */
  missing: string[];
}

async function isDir(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isDirectory() ?? false;
}

/** Zero-shot model folders under the models folder, each with the files found or missing. */
export async function detectZeroShotModels(modelsDir: string): Promise<ZeroShotModelFolder[]> {
  if (!(await isDir(modelsDir))) return [];
  const found: ZeroShotModelFolder[] = [];
  const parentEntries = await readdir(modelsDir);
  for (const name of parentEntries.sort()) {
    const model: ModelName | null = /zipvoice/i.test(name)
      ? 'zipvoice'
      : /pocket/i.test(name)
        ? 'pocket'
        : null;
    const dir = path.join(modelsDir, name);
    if (!model || !(await isDir(dir))) continue;
    const entries = await readdir(dir);
    const files: Record<string, string> = {};
    const missing: string[] = [];
    for (const req of REQUIRED[model]) {
      let hit: string | undefined;
      for (const e of entries.sort()) {
        if (!req.match.test(e)) continue;
        const full = path.join(dir, e);
        if (req.dir ? await isDir(full) : (await stat(full).catch(() => null))?.isFile()) {
          hit = full;
          break;
        }
      }
      if (!hit && req.parentOk) {
        const e = parentEntries.find((p) => req.match.test(p));
        if (e) hit = path.join(modelsDir, e);
      }
      if (hit) files[req.key] = hit;
      else
        missing.push(
          req.match.source
            .replace(/^\^|\$$/g, '')
            .replace(/\\\./g, '.')
            .replace(/\.\*/g, '*'),
        );
    }
    found.push({ model, dir, files: missing.length ? null : files, missing });
  }
  return found;
}

interface SherpaZeroShotTts {
  readonly sampleRate: number;
  generateAsync(request: object): Promise<{ samples: Float32Array; sampleRate: number }>;
}

/** Clone + TTS engines for the complete folders; problems for the incomplete ones. */
export async function createSherpaZeroShotEngines(
  modelsDir: string,
  refDir: string,
): Promise<{ clones: CloneEngine[]; tts: TtsEngine | null; problems: CloneEngineProblem[] }> {
  const folders = await detectZeroShotModels(modelsDir);
  const problems: CloneEngineProblem[] = [];
  const usable = new Map<ModelName, ZeroShotModelFolder>();
  for (const f of folders) {
    const label = f.model === 'zipvoice' ? 'ZipVoice (sherpa-onnx)' : 'Pocket TTS (sherpa-onnx)';
    if (f.files) {
      if (!usable.has(f.model)) usable.set(f.model, f);
    } else {
      problems.push({
        id: f.model === 'zipvoice' ? 'sherpa-zipvoice' : 'sherpa-pocket',
        label,
        reason: `${label}: model folder ${f.dir} lacks ${f.missing.join(', ')}`,
      });
    }
  }
  if (usable.size === 0) return { clones: [], tts: null, problems };
  const loaded = new Map<ModelName, Promise<SherpaZeroShotTts>>();
  const load = (model: ModelName) => {
    let hit = loaded.get(model);
    if (!hit) {
      const folder = usable.get(model);
      if (!folder?.files) {
        throw new EngineError('model_not_found', `没有可用的 ${model} 模型`, `no usable ${model} model`);
      }
      const sherpa = loadSherpa() as unknown as {
        OfflineTts: { createAsync(c: object): Promise<SherpaZeroShotTts> };
      };
      hit = sherpa.OfflineTts.createAsync({
        model: { [model]: folder.files, numThreads: 2 },
        maxNumSentences: 1,
      });
      loaded.set(model, hit);
    }
    return hit;
  };
  const tts = createSentenceEngine({
    id: 'sherpa-zeroshot',
    capabilities: {
      languages: ['zh-CN', 'en-US'],
      maxTextLength: 4096,
      timings: 'sentence',
      cloning: true,
      streaming: true,
      dictionary: false,
    },
    fallbackSampleRate: 24_000,
    nativePitch: false,
    maxSentenceLength: 200,
    async synthesizeSentence(text, request) {
      const voice = request.voice as ZeroShotVoice;
      const engine = await load(voice.model);
      const reference = await readMonoFloat(voice.reference_wav, 24_000);
      const out = await engine.generateAsync({
        text,
        sid: 0,
        speed: request.speed ?? 1,
        generationConfig: {
          referenceAudio: reference,
          referenceSampleRate: 24_000,
          referenceText: voice.reference_text,
          numSteps: 4,
        },
      });
      return floatToPcm(out.samples, out.sampleRate);
    },
  });
  const clones: CloneEngine[] = [...usable.keys()].map((model) => ({
    id: model === 'zipvoice' ? 'sherpa-zipvoice' : 'sherpa-pocket',
    label: model === 'zipvoice' ? 'ZipVoice (sherpa-onnx)' : 'Pocket TTS (sherpa-onnx)',
    kind: 'zero-shot',
    maxReferences: 1,
    ttsEngineId: 'sherpa-zeroshot',
    async clone({ references, voiceId }) {
      const main = references[0];
      if (!main) throw new EngineError('invalid_request', '没有参考音频', 'no reference clip');
      if (!main.text) {
        throw new EngineError(
          'invalid_request',
          `${model} 需要参考音频的文字（请配置语音识别引擎）`,
          `${model} needs the reference transcript (configure speech recognition)`,
        );
      }
      await mkdir(refDir, { recursive: true });
      const local = path.join(refDir, `${voiceId}-0.wav`);
      await copyFile(main.path, local);
      return {
        voice: { engine: 'sherpa-zeroshot', model, reference_wav: local, reference_text: main.text },
        note: `${model === 'zipvoice' ? 'ZipVoice' : 'Pocket TTS'} 零样本克隆（sherpa-onnx，本地模型）`,
        files: [local],
      };
    },
  }));
  return { clones, tts, problems };
}
