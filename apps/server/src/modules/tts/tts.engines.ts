import path from 'node:path';
import { type CloneEngineSet, createCloneEngines, createEngines, type EngineRegistry } from '@vw/engines';
import { type Config, REPO_ROOT } from '../../config.ts';

/** The cloning engines made with each registry (their speakers are engines of that registry). */
const cloneSets = new WeakMap<EngineRegistry, CloneEngineSet>();

export function cloneEngineSetOf(registry: EngineRegistry): CloneEngineSet | undefined {
  return cloneSets.get(registry);
}

/** Where reference clips of cloned voices live on this machine. */
export function cloneReferenceDir(config: Config): string {
  return config.CLONE_REFERENCE_DIR
    ? path.resolve(REPO_ROOT, config.CLONE_REFERENCE_DIR)
    : path.join(config.dataDir, 'clone-references');
}

/**
 * The engines the configuration asks for: espeak always, sherpa-onnx and an OpenAI-compatible server
 * when set, and the speakers of cloned voices (GPT-SoVITS, CosyVoice, sherpa zero-shot) when set.
 */
export async function createEnginesFromConfig(config: Config): Promise<EngineRegistry> {
  const modelsDir = config.SHERPA_ONNX_MODELS_DIR
    ? path.resolve(REPO_ROOT, config.SHERPA_ONNX_MODELS_DIR)
    : undefined;
  const clones = await createCloneEngines({
    refDir: cloneReferenceDir(config),
    sherpaModelsDir: modelsDir,
    gptSovits: config.GPT_SOVITS_URL
      ? { url: config.GPT_SOVITS_URL, remoteRefDir: config.GPT_SOVITS_REMOTE_REF_DIR }
      : undefined,
    cosyVoice: config.COSYVOICE_URL
      ? { url: config.COSYVOICE_URL, sampleRate: config.COSYVOICE_SAMPLE_RATE }
      : undefined,
  });
  const registry = await createEngines({
    sherpa: modelsDir ? { modelsDir } : undefined,
    openai: config.OPENAI_TTS_BASE_URL
      ? { baseUrl: config.OPENAI_TTS_BASE_URL, apiKey: config.OPENAI_TTS_API_KEY }
      : undefined,
    extra: clones.ttsEngines,
  });
  cloneSets.set(registry, clones);
  return registry;
}
