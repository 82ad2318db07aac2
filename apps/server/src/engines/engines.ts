import path from 'node:path';
import {
  type AsrRegistry,
  type ChatClient,
  type CloneEngine,
  type CloneEngineProblem,
  type CloneEngineSet,
  createAsrProviders,
  createAsrRegistry,
  createChatClient,
  createCloneEngines,
  createEmbedder,
  createEngineRegistry,
  createHttpSeparator,
  createLipSync,
  createMediaInspector,
  createOcrPool,
  createRegistry,
  createTrainer,
  createEngines as createTtsEngines,
  createVcProviders,
  type EmbedFn,
  EngineError,
  type EngineRegistry,
  findSpeakerModel,
  type LipSync,
  type MediaInspector,
  type OcrEngine,
  type PitchStats,
  type Registry,
  type Separator,
  type Trainer,
  type VcRegistry,
  withStandardEngine,
} from '@vw/engines';
import type { FastifyBaseLogger } from 'fastify';
import { type Config, REPO_ROOT } from '../config.ts';

/**
 * Every engine of this process, built once from the configuration and held on the AppContext
 * (`ctx.engines`): modules read them here and never build or cache their own.
 */
export interface Engines {
  /** Speech synthesis: espeak, sherpa-onnx, an OpenAI-compatible server and the cloned voices' speakers. */
  tts: EngineRegistry;
  /** The cloning engines: those the configuration started (their speakers are engines of `tts`), then the standard fit. */
  clone: CloneRegistry;
  /** Speech recognizers (diarization is a capability of a recognizer); get() says what to configure. */
  asr: AsrRegistry;
  /** The process's one bounded OCR pool (PP-OCRv4 helpers, started on first use). */
  ocr: OcrEngine;
  /**
   * Voice conversion: Rubber Band R3 when rubberband-cli is installed, a vw-vc/1 server when VC_SERVER_URL
   * is set. Started on first use, so processes that never convert do not probe rubberband.
   */
  vc(): Promise<VcRegistry>;
  /** The language model (translation, condensing, speakers), or null without LLM_BASE_URL and LLM_MODEL. */
  llm: ChatClient | null;
  /** Embeddings on LLM_BASE_URL (back-translation drift), or undefined without LLM_EMBEDDING_MODEL. */
  embed: EmbedFn | undefined;
  /** The source separator (SEPARATOR_URL, a vw-sep/1 server), or null. */
  separate: Separator | null;
  /** The lip-sync server (LIPSYNC_URL, vw-lipsync/1), or null. */
  lipsync: LipSync | null;
  /** The voice-clone training server (VOICE_CLONE_TRAINER_URL) of professional clones, or null. */
  trainer: Trainer | null;
  /**
   * The speaker-embedding model (the one-speaker check of cloning samples), looked up file by file per
   * call so a model added later is used.
   */
  speakerModel(): ReturnType<typeof findSpeakerModel>;
  /** Probe, peaks and thumbnails of uploaded files, in a helper process (started on first use). */
  inspector: MediaInspector;
  /** Measured pitch of built-in voices as voice-changer targets, by reference key, for this process. */
  voicePitches: Map<string, VoiceReference>;
  close(): Promise<void>;
}

export interface CloneRegistry extends Registry<CloneEngine, CloneEngineProblem> {
  /** The engines that run, preferred first (neural before the standard fit). */
  readonly engines: readonly CloneEngine[];
}

export interface VoiceReference {
  pitch: PitchStats;
  /** Storage key of the reference WAV (zero-shot engines take it as the target sample). */
  wavKey: string | null;
}

/** The engines that start at once (speech, cloning, recognition); the rest start on first use. */
export interface StartedEngines extends Pick<Engines, 'tts' | 'asr'> {
  clone: CloneEngineSet;
}

/**
 * The engines the configuration asks for. One that fails to start does not stop the server: it is
 * logged, and asking for it answers what is wrong.
 */
export async function createEngines(config: Config, log?: FastifyBaseLogger): Promise<Engines> {
  const modelsDir = sherpaModelsDir(config);
  const clone = await createCloneEngines({
    refDir: cloneReferenceDir(config),
    sherpaModelsDir: modelsDir,
    gptSovits: config.GPT_SOVITS_URL
      ? { url: config.GPT_SOVITS_URL, remoteRefDir: config.GPT_SOVITS_REMOTE_REF_DIR }
      : undefined,
    cosyVoice: config.COSYVOICE_URL
      ? { url: config.COSYVOICE_URL, sampleRate: config.COSYVOICE_SAMPLE_RATE }
      : undefined,
  });
  const tts = await createTtsEngines({
    sherpa: modelsDir ? { modelsDir } : undefined,
    openai: config.OPENAI_TTS_BASE_URL
      ? { baseUrl: config.OPENAI_TTS_BASE_URL, apiKey: config.OPENAI_TTS_API_KEY }
      : undefined,
    extra: clone.ttsEngines,
  });
  for (const p of tts.problems) log?.warn({ engine: p.engine }, p.error.message);
  const { registry: asr, problems } = await createAsrProviders({
    sherpaModelsDir: modelsDir,
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
  return assembleEngines(config, { tts, clone, asr });
}

/**
 * The engines around the started ones, which are built lazily or are HTTP clients. Without started
 * ones (a context made without createEngines) there is no speech, cloning or recognition.
 */
export function assembleEngines(
  config: Config,
  started: StartedEngines = {
    tts: createEngineRegistry([]),
    clone: { engines: [], ttsEngines: [], problems: [] },
    asr: createAsrRegistry([]),
  },
): Engines {
  const { LLM_BASE_URL, LLM_API_KEY, LLM_MODEL, LLM_EMBEDDING_MODEL } = config;
  const { SEPARATOR_URL, SEPARATOR_API_KEY, SEPARATOR_MODEL, SEPARATOR_LABEL } = config;
  let vc: Promise<VcRegistry> | null = null;
  const ocr = createOcrPool(config.OCR_WORKERS ? { size: config.OCR_WORKERS } : {});
  const inspector = createMediaInspector();
  const { tts, asr } = started;
  return {
    tts,
    clone: cloneRegistry(withStandardEngine(started.clone, tts.has('espeak') ? tts.get('espeak') : null)),
    asr,
    ocr,
    vc: () =>
      (vc ??= createVcProviders({
        server: config.VC_SERVER_URL
          ? {
              baseURL: config.VC_SERVER_URL,
              apiKey: config.VC_SERVER_API_KEY,
              defaultVoice: config.VC_SERVER_VOICE,
              label: config.VC_SERVER_LABEL ?? 'VC 服务',
            }
          : undefined,
      })),
    llm:
      LLM_BASE_URL && LLM_MODEL
        ? createChatClient({ baseURL: LLM_BASE_URL, apiKey: LLM_API_KEY ?? 'none', model: LLM_MODEL })
        : null,
    embed:
      LLM_BASE_URL && LLM_EMBEDDING_MODEL
        ? createEmbedder({ baseURL: LLM_BASE_URL, apiKey: LLM_API_KEY ?? 'none', model: LLM_EMBEDDING_MODEL })
        : undefined,
    separate: SEPARATOR_URL
      ? createHttpSeparator({
          baseURL: SEPARATOR_URL,
          ...(SEPARATOR_API_KEY ? { apiKey: SEPARATOR_API_KEY } : {}),
          ...(SEPARATOR_MODEL ? { model: SEPARATOR_MODEL } : {}),
          label: SEPARATOR_LABEL ?? (SEPARATOR_MODEL ? `人声分离 · ${SEPARATOR_MODEL}` : '人声分离服务'),
        })
      : null,
    lipsync: config.LIPSYNC_URL ? createLipSync(config.LIPSYNC_URL, config.LIPSYNC_API_KEY) : null,
    trainer: config.VOICE_CLONE_TRAINER_URL ? createTrainer(config.VOICE_CLONE_TRAINER_URL) : null,
    speakerModel: () => findSpeakerModel(sherpaModelsDir(config)),
    inspector,
    voicePitches: new Map(),
    async close() {
      await Promise.all([started.tts.close(), started.asr.close(), ocr.close(), inspector.close()]);
    },
  };
}

function cloneRegistry({ engines, problems }: CloneEngineSet): CloneRegistry {
  const registry = createRegistry(engines, problems, {
    missing(id) {
      if (id === undefined) {
        return new EngineError(
          'engine_not_configured',
          '声音克隆暂未开放：没有可用的克隆引擎，请联系管理员',
          `no voice cloning engine runs: ${problems.map((p) => `${p.id}: ${p.reason}`).join('; ')}`,
        );
      }
      const problem = problems.find((p) => p.id === id);
      return new EngineError(
        'engine_not_configured',
        problem ? `${problem.label} 暂未开放，请换用其他克隆引擎` : `没有克隆引擎 ${id}`,
        problem
          ? `voice cloning engine ${id} does not run: ${problem.reason}`
          : `no voice cloning engine ${id}`,
      );
    },
  });
  return {
    ...registry,
    engines,
    // An empty id asks for the default too.
    get: (id) => registry.get(id || undefined),
  };
}

/** SHERPA_ONNX_MODELS_DIR, the folder speech, recognition and cloning models are read from. */
function sherpaModelsDir(config: Config): string | undefined {
  return config.SHERPA_ONNX_MODELS_DIR ? path.resolve(REPO_ROOT, config.SHERPA_ONNX_MODELS_DIR) : undefined;
}

/** Where reference clips of cloned voices live on this machine. */
export function cloneReferenceDir(config: Config): string {
  return config.CLONE_REFERENCE_DIR
    ? path.resolve(REPO_ROOT, config.CLONE_REFERENCE_DIR)
    : path.join(config.dataDir, 'clone-references');
}
