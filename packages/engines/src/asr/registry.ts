import { EngineError } from '../errors.ts';
import { createRegistry, type Registry } from '../registry.ts';
import type { Hint } from '../tts/registry.ts';
import { createOpenAiAsrProvider, type OpenAiAsrOptions } from './openai.ts';
import { createSherpaAsrProviders, type SherpaAsrOptions } from './sherpa.ts';
import type { AsrCapabilities, AsrProvider } from './types.ts';

export type AsrFamily = 'sherpa-onnx' | 'openai-compatible';

/** What the operator configures for each kind of provider (English: the log and the admin CLI). */
export const DEFAULT_ASR_HINTS: Record<AsrFamily, Hint> = {
  'sherpa-onnx':
    'set SHERPA_ONNX_MODELS_DIR to a models folder with an ASR model (kind "asr") and a VAD model (npm run admin -- engines install sense-voice-zh-en-ja-ko-yue-int8 silero-vad)',
  'openai-compatible':
    'set OPENAI_ASR_BASE_URL and OPENAI_ASR_MODEL (and OPENAI_ASR_API_KEY if the server needs one)',
};

/** What a user is told when recognition is not there: no setup detail. */
export const ASR_UNAVAILABLE_ZH = '语音识别暂未开放，请联系管理员';

export interface AsrProblem {
  provider: AsrFamily;
  error: EngineError;
}

/**
 * Recognizers by id ('sherpa-onnx:<model>', 'openai-compatible'; a family name picks its first
 * provider), the first without one; a miss is an EngineError that says what is wrong or what to configure.
 */
export interface AsrRegistry extends Registry<AsrProvider, AsrProblem> {
  /** The providers that work, with what each can do (the UI offers only these). */
  list(): AsrCapabilities[];
}

const family = (id: string) => id.split(':')[0];

export function createAsrRegistry(
  providers: AsrProvider[],
  {
    problems = [],
    hints = DEFAULT_ASR_HINTS,
  }: { problems?: AsrProblem[]; hints?: Partial<Record<AsrFamily, Hint>> } = {},
): AsrRegistry {
  const hint = (f: AsrFamily) => hints[f] ?? DEFAULT_ASR_HINTS[f];

  function missing(id: string | undefined): EngineError {
    const siblings = id === undefined ? [] : providers.filter((p) => family(p.id) === family(id));
    if (siblings.length) {
      const ids = siblings.map((p) => p.id).join(', ');
      return new EngineError(
        'model_not_found',
        `没有识别模型 ${id}（可用：${ids}）`,
        `no recognition model ${id} (available: ${ids})`,
      );
    }
    // A provider that was configured but broke says why; that is the operator's next step.
    const failed = problems.find((p) => id === undefined || p.provider === family(id));
    if (failed)
      return new EngineError(failed.error.code, ASR_UNAVAILABLE_ZH, failed.error.en, { cause: failed.error });
    if (id === undefined) {
      const [local, remote] = [hint('sherpa-onnx'), hint('openai-compatible')];
      return new EngineError(
        'engine_not_configured',
        ASR_UNAVAILABLE_ZH,
        `no speech recognition engine is configured: ${local}; or ${remote}`,
      );
    }
    const known =
      (hints as Record<string, Hint | undefined>)[family(id)] ?? DEFAULT_ASR_HINTS[family(id) as AsrFamily];
    if (!known) {
      return new EngineError(
        'invalid_request',
        `没有名为 ${id} 的语音识别引擎`,
        `there is no speech recognition engine called ${id}`,
      );
    }
    return new EngineError(
      'engine_not_configured',
      `语音识别引擎 ${id} 暂未开放，请联系管理员或换用其他识别引擎`,
      `speech recognition engine ${id} is not configured: ${known}`,
    );
  }

  return {
    ...createRegistry(providers, problems, { familyOf: (p) => family(p.id), missing }),
    list: () =>
      providers.map(({ id, label, languages, diarization, wordTimes }) => ({
        id,
        label,
        languages,
        diarization,
        wordTimes,
      })),
  };
}

export interface AsrConfig {
  /** SHERPA_ONNX_MODELS_DIR: on when given. */
  sherpaModelsDir?: string;
  /** More sherpa settings (threads, a fallback VAD file). */
  sherpa?: Omit<SherpaAsrOptions, 'modelsDir'>;
  /** OPENAI_ASR_BASE_URL / _API_KEY / _MODEL: on when given. */
  openai?: OpenAiAsrOptions;
  hints?: Partial<Record<AsrFamily, Hint>>;
}

/**
 * Starts every configured recognizer. One that fails (no ASR model in the folder, bad URL) does not
 * stop the others: it is reported in `problems`, and its error is what `get()` answers.
 */
export async function createAsrProviders(
  config: AsrConfig = {},
): Promise<{ registry: AsrRegistry; problems: AsrProblem[] }> {
  const providers: AsrProvider[] = [];
  const problems: AsrProblem[] = [];
  const attempt = async (provider: AsrFamily, start: () => AsrProvider[] | Promise<AsrProvider[]>) => {
    try {
      providers.push(...(await start()));
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      problems.push({ provider, error: err });
    }
  };
  const { sherpaModelsDir, openai } = config;
  if (sherpaModelsDir) {
    await attempt('sherpa-onnx', () =>
      createSherpaAsrProviders({ ...config.sherpa, modelsDir: sherpaModelsDir }),
    );
  }
  if (openai) await attempt('openai-compatible', () => [createOpenAiAsrProvider(openai)]);
  return { registry: createAsrRegistry(providers, { problems, hints: config.hints }), problems };
}
