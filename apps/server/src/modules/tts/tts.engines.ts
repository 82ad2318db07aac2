import path from 'node:path';
import { createEngines, type EngineRegistry } from '@vw/engines';
import { type Config, REPO_ROOT } from '../../config.ts';

/** The engines the configuration asks for: espeak always, sherpa-onnx and an OpenAI-compatible server when set. */
export async function createEnginesFromConfig(config: Config): Promise<EngineRegistry> {
  return createEngines({
    sherpa: config.SHERPA_ONNX_MODELS_DIR
      ? { modelsDir: path.resolve(REPO_ROOT, config.SHERPA_ONNX_MODELS_DIR) }
      : undefined,
    openai: config.OPENAI_TTS_BASE_URL
      ? { baseUrl: config.OPENAI_TTS_BASE_URL, apiKey: config.OPENAI_TTS_API_KEY }
      : undefined,
  });
}
