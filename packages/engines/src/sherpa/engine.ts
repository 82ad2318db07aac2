import { floatToPcm } from '../audio/wav.ts';
import { EngineError } from '../errors.ts';
import { createSentenceEngine } from '../tts/sentence-engine.ts';
import type { SherpaVoice, TtsEngine } from '../tts/types.ts';
import { checkModelFiles, isTtsModel, loadModelRegistry, modelPath, type SherpaModel } from './models.ts';
import { loadSherpa, type SherpaOfflineTts } from './module.ts';

export interface SherpaEngineOptions {
  /** Folder holding models.json and the model folders it names. */
  modelsDir: string;
  numThreads?: number;
  provider?: 'cpu' | 'cuda' | 'coreml';
  maxTextLength?: number;
  /** Package to load; only tests change it. */
  packageName?: string;
}

export interface SherpaEngine extends TtsEngine {
  readonly models: readonly SherpaModel[];
}

/** The sherpa-onnx OfflineTts config for a registry entry, every path made absolute, lists comma-joined. */
export function sherpaTtsConfig(modelsDir: string, model: SherpaModel, numThreads = 1, provider = 'cpu') {
  const paths = (files: string | string[]) =>
    [files]
      .flat()
      .map((f) => modelPath(modelsDir, f))
      .join(',');
  const files = Object.fromEntries(
    Object.entries(model.files).map(([key, file]) => [key, paths(file ?? [])]),
  );
  return {
    model: {
      [model.kind]: { ...files, ...(model.lang ? { lang: model.lang } : {}) },
      numThreads,
      provider,
      debug: false,
    },
    maxNumSentences: 1,
    ruleFsts: paths(model.ruleFsts),
    ruleFars: paths(model.ruleFars),
  };
}

/**
 * Local neural TTS (vits / matcha / kokoro) from a models folder. Every file is checked at start-up
 * and again just before a model is loaded; models load on first use and stay loaded.
 */
export async function createSherpaEngine(options: SherpaEngineOptions): Promise<SherpaEngine> {
  const sherpa = loadSherpa(options.packageName);
  // The folder also holds recognition models and their helpers; only the speaking ones are voices.
  const models = await loadModelRegistry(options.modelsDir, isTtsModel);
  if (models.length === 0) {
    throw new EngineError(
      'engine_not_configured',
      '本地语音合成模型暂不可用，请联系管理员',
      `no speech synthesis model is registered in ${options.modelsDir}`,
    );
  }
  const loaded = new Map<string, Promise<SherpaOfflineTts>>();

  function load(model: SherpaModel): Promise<SherpaOfflineTts> {
    let pending = loaded.get(model.id);
    if (!pending) {
      pending = (async () => {
        await checkModelFiles(options.modelsDir, model);
        try {
          // Only the async factory: the synchronous constructor aborts the process on a corrupt model.
          return await sherpa.OfflineTts.createAsync(
            sherpaTtsConfig(options.modelsDir, model, options.numThreads, options.provider),
          );
        } catch (err) {
          throw new EngineError(
            'model_invalid',
            `模型 ${model.id} 加载失败：${(err as Error).message}`,
            `model ${model.id} failed to load: ${(err as Error).message}`,
            { cause: err },
          );
        }
      })();
      // A failed load is retried next time (the operator may have fixed the files).
      pending.catch(() => loaded.delete(model.id));
      loaded.set(model.id, pending);
    }
    return pending;
  }

  function find(voice: SherpaVoice): SherpaModel {
    const model = models.find((m) => m.id === voice.model);
    if (!model) {
      const ids = models.map((m) => m.id).join(', ');
      throw new EngineError(
        'model_not_found',
        `没有模型 ${voice.model}（已登记：${ids}）`,
        `no model ${voice.model} (registered: ${ids})`,
      );
    }
    const speaker = voice.speaker ?? 0;
    if (!model.speakers.some((s) => s.id === speaker)) {
      throw new EngineError(
        'invalid_request',
        `模型 ${model.id} 没有说话人 ${speaker}`,
        `model ${model.id} has no speaker ${speaker}`,
      );
    }
    return model;
  }

  const engine = createSentenceEngine({
    id: 'sherpa-onnx',
    capabilities: {
      languages: [...new Set(models.flatMap((m) => m.languages))],
      maxTextLength: options.maxTextLength ?? 5000,
      timings: 'sentence',
      cloning: false,
      streaming: true,
      dictionary: false,
    },
    fallbackSampleRate: 22_050,
    nativePitch: false,
    maxSentenceLength: 150,
    // Dropping the handles lets the addon free the models.
    close: async () => loaded.clear(),
    async synthesizeSentence(text, request) {
      const voice = request.voice as SherpaVoice;
      const tts = await load(find(voice));
      const audio = await tts.generateAsync({ text, sid: voice.speaker ?? 0, speed: request.speed ?? 1 });
      return floatToPcm(audio.samples, audio.sampleRate);
    },
  });
  return { ...engine, models };
}
