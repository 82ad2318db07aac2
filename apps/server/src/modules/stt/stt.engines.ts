import path from 'node:path';
import { type AsrRegistry, createAsrProviders } from '@vw/engines';
import type { FastifyBaseLogger } from 'fastify';
import { type Config, REPO_ROOT } from '../../config.ts';

/**
 * The speech recognizers the configuration asks for: sherpa-onnx models from SHERPA_ONNX_MODELS_DIR (the
 * folder TTS reads too) and an OpenAI-compatible transcription server. One that fails to start does not
 * stop the server: it is logged, and asking for it answers what is wrong.
 */
export async function createAsrFromConfig(config: Config, log?: FastifyBaseLogger): Promise<AsrRegistry> {
  const { registry, problems } = await createAsrProviders({
    sherpaModelsDir: config.SHERPA_ONNX_MODELS_DIR
      ? path.resolve(REPO_ROOT, config.SHERPA_ONNX_MODELS_DIR)
      : undefined,
    openai:
      config.OPENAI_ASR_BASE_URL && config.OPENAI_ASR_MODEL
        ? {
            baseURL: config.OPENAI_ASR_BASE_URL,
            apiKey: config.OPENAI_ASR_API_KEY,
            model: config.OPENAI_ASR_MODEL,
          }
        : undefined,
  });
  for (const p of problems) {
    // A models folder holding only TTS voices is normal; anything else is worth a warning.
    const level = p.error.code === 'engine_not_configured' ? 'info' : 'warn';
    log?.[level]({ asr: p.provider }, p.error.message);
  }
  return registry;
}
