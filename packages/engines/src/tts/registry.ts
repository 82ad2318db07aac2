import { EngineError } from '../errors.ts';
import { createEspeakEngine, type EspeakEngineOptions } from '../espeak/engine.ts';
import { createOpenAiEngine, type OpenAiEngineOptions } from '../openai/engine.ts';
import { createRegistry, type Registry } from '../registry.ts';
import { createSherpaEngine, type SherpaEngineOptions } from '../sherpa/engine.ts';
import type {
  AudioChunk,
  CallOptions,
  EngineCapabilities,
  EngineId,
  SynthesisRequest,
  SynthesisResult,
  TtsEngine,
} from './types.ts';

/** What the operator configures for an engine: English, for the log and `npm run admin -- engines`. */
export type Hint = string;

/** What to configure for each engine; the server may replace these with its own env variable names. */
export const DEFAULT_HINTS: Record<EngineId, Hint> = {
  espeak: 'install espeak-ng (apt-get install espeak-ng libespeak-ng1)',
  'sherpa-onnx':
    'set SHERPA_ONNX_MODELS_DIR to a models folder with models.json (npm run admin -- engines install --recommended installs the recommended set)',
  'openai-compatible': 'set OPENAI_TTS_BASE_URL (and OPENAI_TTS_API_KEY if the server needs one)',
  'gpt-sovits': 'set GPT_SOVITS_URL to a GPT-SoVITS api_v2 server',
  cosyvoice: 'set COSYVOICE_URL to a CosyVoice FastAPI server',
  'sherpa-zeroshot': 'put a zipvoice or pocket model folder into SHERPA_ONNX_MODELS_DIR',
};

/**
 * What a user is told about an engine that is not there: no setup detail (that is the operator's, in
 * the error's English half and the log).
 */
export const ENGINE_UNAVAILABLE_ZH = '暂未开放，请联系管理员或换用其他声音';

export interface EngineProblem {
  engine: EngineId;
  error: EngineError;
}

/** Speech engines by id; `get` without the engine a voice names finds nothing (no default voice engine). */
export interface EngineRegistry extends Registry<TtsEngine, EngineProblem> {
  /** The engines that work, with what each can do (the UI offers only these). */
  list(): Array<{ id: EngineId; capabilities: EngineCapabilities }>;
  /** Routes by `request.voice.engine`. */
  synthesize(request: SynthesisRequest, options?: CallOptions): Promise<SynthesisResult>;
  stream(request: SynthesisRequest, options?: CallOptions): AsyncIterable<AudioChunk>;
}

export function createEngineRegistry(
  engines: TtsEngine[],
  {
    problems = [],
    hints = DEFAULT_HINTS,
  }: { problems?: EngineProblem[]; hints?: Partial<Record<EngineId, Hint>> } = {},
): EngineRegistry {
  const registry = createRegistry(engines, problems, {
    noDefault: true,
    missing(id) {
      const failed = problems.find((p) => p.engine === id);
      if (failed) {
        return new EngineError(
          failed.error.code,
          `语音引擎 ${id} ${ENGINE_UNAVAILABLE_ZH}`,
          failed.error.en,
          {
            cause: failed.error,
          },
        );
      }
      const hint = (hints as Record<string, Hint | undefined>)[id!] ?? DEFAULT_HINTS[id as EngineId];
      if (!hint) {
        return new EngineError(
          'invalid_request',
          `没有名为 ${id} 的语音引擎`,
          `there is no speech engine called ${id}`,
        );
      }
      return new EngineError(
        'engine_not_configured',
        `语音引擎 ${id} ${ENGINE_UNAVAILABLE_ZH}`,
        `speech engine ${id} is not configured: ${hint}`,
      );
    },
  });
  const { get } = registry;

  return {
    ...registry,
    list: () => engines.map((e) => ({ id: e.id, capabilities: e.capabilities })),
    // Async so that a missing engine is a rejection, like every other failure of a call.
    synthesize: async (request, options) => get(request.voice?.engine).synthesize(request, options),
    async *stream(request, options) {
      yield* get(request.voice?.engine).stream(request, options);
    },
  };
}

export interface EnginesConfig {
  /** The embedded default; on unless `false`. */
  espeak?: EspeakEngineOptions | false;
  /** On when given. */
  sherpa?: SherpaEngineOptions;
  /** On when given. */
  openai?: OpenAiEngineOptions;
  hints?: Partial<Record<EngineId, Hint>>;
  /** Engines made elsewhere (the cloning engines' speakers: GPT-SoVITS, CosyVoice, sherpa zero-shot). */
  extra?: TtsEngine[];
}

/**
 * Starts every configured engine. One that fails (espeak-ng not installed, models folder broken) does
 * not stop the others: it is reported in `problems` and its error is what `get()` answers.
 */
export async function createEngines(config: EnginesConfig = {}): Promise<EngineRegistry> {
  const engines: TtsEngine[] = [];
  const problems: EngineProblem[] = [];
  const attempt = async (engine: EngineId, start: () => TtsEngine | Promise<TtsEngine>) => {
    try {
      engines.push(await start());
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      problems.push({ engine, error: err });
    }
  };
  const { espeak, sherpa, openai } = config;
  if (espeak !== false) await attempt('espeak', () => createEspeakEngine(espeak ?? {}));
  if (sherpa) await attempt('sherpa-onnx', () => createSherpaEngine(sherpa));
  if (openai) await attempt('openai-compatible', () => createOpenAiEngine(openai));
  engines.push(...(config.extra ?? []));
  return createEngineRegistry(engines, { problems, hints: config.hints });
}
