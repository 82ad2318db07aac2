import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type AsrProblem,
  type AsrProvider,
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
  createG2pwModel,
  createHttpSeparator,
  createLipSync,
  createMediaInspector,
  createOcrPool,
  createRegistry,
  createSherpaAsrProviders,
  createSherpaEngine,
  createTrainer,
  createEngines as createTtsEngines,
  createVcProviders,
  type EmbedFn,
  EngineError,
  type EngineProblem,
  type EngineRegistry,
  findLamaModel,
  findSpeakerModel,
  type LipSync,
  type MediaInspector,
  type OcrEngine,
  type PitchStats,
  REGISTRY_FILE,
  type Registry,
  type Separator,
  type SherpaEngine,
  type SherpaModel,
  setPolyphoneModel,
  type Trainer,
  type TtsEngine,
  type VcRegistry,
  withStandardEngine,
} from '@vw/engines';
import type { FastifyBaseLogger } from 'fastify';
import { type Config, REPO_ROOT } from '../config.ts';

/**
 * Every engine of this process, built once from the configuration and held on the AppContext
 * (`ctx.engines`): modules read them here and never build or cache their own. The engines made from
 * the models folder (local speech, recognition, zero-shot cloning) are rebuilt when its models.json
 * changes: `tts`, `asr` and `clone` always answer with the current set, so read them at each use.
 */
export interface Engines {
  /** Speech synthesis: espeak, sherpa-onnx, an OpenAI-compatible server and the cloned voices' speakers. */
  tts: EngineRegistry;
  /** The cloning engines: those the configuration started (their speakers are engines of `tts`), then the standard fit. */
  clone: CloneRegistry;
  /** Speech recognizers (diarization is a capability of a recognizer); get() says what to configure. */
  asr: AsrRegistry;
  /** The local speech models that run now (models.json, every file checked): each speaker is a library voice. */
  readonly ttsModels: readonly SherpaModel[];
  /**
   * Rebuilds the engines of the models folder now (the watcher does it when models.json changes) and
   * resolves once they are in use and every `onReload` listener has run. The old ones are closed when
   * the calls running on them have finished.
   */
  reload(): Promise<void>;
  /** Called after each reload (the voice library syncs its local voices); returns the unsubscribe. */
  onReload(listener: () => unknown): () => void;
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
  /** The installed LaMa model file (the erase's neural inpainter), looked up per erase; null: Telea. */
  inpaintModel(): Promise<string | null>;
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

/** One build of the engines that depend on the models folder, with what closes it. */
interface ModelEngines {
  tts: EngineRegistry;
  clone: CloneRegistry;
  asr: AsrRegistry;
  ttsModels: readonly SherpaModel[];
  /** Resolves when no call runs on this build's own engines any more. */
  idle(): Promise<void>;
  /** Closes this build's own engines (never the ones kept across builds: espeak, the HTTP clients). */
  close(): Promise<void>;
}

/** The current build, swapped by reload(); a context made without createEngines has an empty one. */
interface LiveEngines {
  current: ModelEngines;
  reload(): Promise<void>;
  onReload(listener: () => unknown): () => void;
  close(): Promise<void>;
}

/** How often the models folder's registry is looked at (one stat). */
export const MODELS_WATCH_MS = 2_000;

/**
 * The engines the configuration asks for. One that fails to start does not stop the server: it is
 * logged, and asking for it answers what is wrong. The models folder is watched (`watchMs`, 0: not at
 * all) and its engines rebuilt when models.json changes, so a model installed while the server runs is
 * used without a restart.
 */
export async function createEngines(
  config: Config,
  log?: FastifyBaseLogger,
  { watchMs = MODELS_WATCH_MS }: { watchMs?: number } = {},
): Promise<Engines> {
  const modelsDir = sherpaModelsDir(config);
  // Kept across reloads: they do not read the models folder.
  const kept = await createTtsEngines({
    openai: config.OPENAI_TTS_BASE_URL
      ? { baseUrl: config.OPENAI_TTS_BASE_URL, apiKey: config.OPENAI_TTS_API_KEY }
      : undefined,
  });
  for (const p of kept.problems) log?.warn({ engine: p.engine }, p.error.message);
  const keptAsr = await createAsrProviders({
    openai:
      config.OPENAI_ASR_BASE_URL && config.OPENAI_ASR_MODEL
        ? {
            baseURL: config.OPENAI_ASR_BASE_URL,
            apiKey: config.OPENAI_ASR_API_KEY,
            model: config.OPENAI_ASR_MODEL,
          }
        : undefined,
  });
  for (const p of keptAsr.problems) log?.warn({ asr: p.provider }, p.error.message);
  const build = () => buildModelEngines(config, modelsDir, { tts: kept, asr: keptAsr.registry }, log);
  const live = await liveEngines(build, modelsDir ? path.join(modelsDir, REGISTRY_FILE) : null, watchMs, log);
  const closeLive = live.close;
  live.close = async () => {
    await closeLive();
    await Promise.all([kept.close(), keptAsr.registry.close()]);
  };
  return assembleEngines(config, live);
}

/** The engines of the models folder, around the kept ones (espeak and the OpenAI-compatible clients). */
async function buildModelEngines(
  config: Config,
  modelsDir: string | undefined,
  kept: { tts: EngineRegistry; asr: AsrRegistry },
  log?: FastifyBaseLogger,
): Promise<ModelEngines> {
  const calls = callCounter();
  const own: Array<{ close(): Promise<void> }> = [];
  const cloneSet = await createCloneEngines({
    refDir: cloneReferenceDir(config),
    sherpaModelsDir: modelsDir,
    gptSovits: config.GPT_SOVITS_URL
      ? { url: config.GPT_SOVITS_URL, remoteRefDir: config.GPT_SOVITS_REMOTE_REF_DIR }
      : undefined,
    cosyVoice: config.COSYVOICE_URL
      ? { url: config.COSYVOICE_URL, sampleRate: config.COSYVOICE_SAMPLE_RATE }
      : undefined,
  });
  own.push(...cloneSet.ttsEngines);

  const ttsProblems: EngineProblem[] = [...kept.tts.problems];
  let sherpa: SherpaEngine | null = null;
  if (modelsDir) {
    try {
      sherpa = await createSherpaEngine({ modelsDir });
      own.push(sherpa);
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      ttsProblems.push({ engine: 'sherpa-onnx', error: err });
      // No models folder or no speech model yet is how a fresh install starts, not a fault.
      log?.[err.code === 'engine_not_configured' ? 'info' : 'warn']({ engine: 'sherpa-onnx' }, err.en);
    }
  }
  const keptTts = kept.tts.list().map((e) => kept.tts.get(e.id));
  const espeak = keptTts.find((e) => e.id === 'espeak') ?? null;
  const tts = createEngineRegistry(
    [
      ...(espeak ? [espeak] : []),
      ...(sherpa ? [calls.tts(sherpa)] : []),
      ...keptTts.filter((e) => e !== espeak),
      ...cloneSet.ttsEngines.map(calls.tts),
    ],
    { problems: ttsProblems },
  );

  const asrProblems: AsrProblem[] = [];
  let local: AsrProvider[] = [];
  if (modelsDir) {
    try {
      local = await createSherpaAsrProviders({ modelsDir });
      own.push(...local);
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      asrProblems.push({ provider: 'sherpa-onnx', error: err });
      // A models folder holding only TTS voices is normal; anything else is worth a warning.
      log?.[err.code === 'engine_not_configured' ? 'info' : 'warn']({ asr: 'sherpa-onnx' }, err.en);
    }
  }
  const asr = createAsrRegistry(
    [...local.map(calls.asr), ...kept.asr.list().map((p) => kept.asr.get(p.id))],
    { problems: [...asrProblems, ...kept.asr.problems] },
  );
  return {
    tts,
    asr,
    clone: cloneRegistry(withStandardEngine(cloneSet, espeak)),
    ttsModels: sherpa?.models ?? [],
    idle: calls.idle,
    close: async () => {
      await Promise.all(own.map((e) => e.close()));
    },
  };
}

/** Counts the calls running on a build's engines, so a reload closes them only once those end. */
function callCounter() {
  let running = 0;
  const waiting: Array<() => void> = [];
  const enter = () => {
    running++;
    return () => {
      if (--running === 0) for (const wake of waiting.splice(0)) wake();
    };
  };
  return {
    tts: (engine: TtsEngine): TtsEngine => ({
      id: engine.id,
      capabilities: engine.capabilities,
      async synthesize(request, options) {
        const leave = enter();
        try {
          return await engine.synthesize(request, options);
        } finally {
          leave();
        }
      },
      async *stream(request, options) {
        const leave = enter();
        try {
          yield* engine.stream(request, options);
        } finally {
          leave();
        }
      },
      close: () => engine.close(),
    }),
    asr: (provider: AsrProvider): AsrProvider => ({
      ...provider,
      async transcribe(file, options) {
        const leave = enter();
        try {
          return await provider.transcribe(file, options);
        } finally {
          leave();
        }
      },
    }),
    idle: () => (running === 0 ? Promise.resolve() : new Promise<void>((wake) => waiting.push(wake))),
  };
}

/**
 * Holds the current build and swaps it when `registry` (models.json) changes: a stat every `watchMs`
 * (the timer never keeps the process alive), or reload() at once. Reloads run one after another.
 */
async function liveEngines(
  build: () => Promise<ModelEngines>,
  registry: string | null,
  watchMs: number,
  log?: FastifyBaseLogger,
): Promise<LiveEngines> {
  const signature = async () => {
    if (!registry) return 'none';
    const s = await stat(registry).catch(() => null);
    return s ? `${s.ino}:${s.size}:${s.mtimeMs}` : 'none';
  };
  // Read before the first build: a change while it is being made is seen by the next look.
  let seen = await signature();
  const listeners = new Set<() => unknown>();
  const retiring = new Set<Promise<void>>();
  let queue: Promise<void> = Promise.resolve();
  let closed = false;
  const live: LiveEngines = {
    current: await build(),
    reload() {
      queue = queue.then(swap, swap);
      return queue;
    },
    onReload(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await queue.catch(() => {});
      listeners.clear();
      await Promise.all(retiring);
      await live.current.close();
    },
  };

  async function swap(): Promise<void> {
    if (closed) return;
    seen = await signature();
    const next = await build();
    if (closed) {
      await next.close();
      return;
    }
    const old = live.current;
    live.current = next;
    log?.info(
      { models: next.ttsModels.map((m) => m.id), recognizers: next.asr.list().map((p) => p.id) },
      'engines: the models folder changed; local engines reloaded',
    );
    // Calls already running on the old engines finish on them.
    const done = old
      .idle()
      .then(() => old.close())
      .catch((err) => log?.warn({ err }, 'engines: closing the replaced engines failed'))
      .finally(() => retiring.delete(done));
    retiring.add(done);
    for (const listener of listeners) {
      try {
        await listener();
      } catch (err) {
        log?.error({ err }, 'engines: a reload listener failed');
      }
    }
  }

  let looking = false;
  const timer = setInterval(async () => {
    if (looking || closed || !registry) return;
    looking = true;
    try {
      if ((await signature()) !== seen) await live.reload();
    } catch (err) {
      log?.error({ err }, 'engines: reloading the models folder failed');
    } finally {
      looking = false;
    }
  }, watchMs || MODELS_WATCH_MS);
  timer.unref();
  if (!watchMs || !registry) clearInterval(timer);
  return live;
}

/**
 * The engines around the started ones, which are built lazily or are HTTP clients. Without started
 * ones (a context made without createEngines) there is no speech, cloning or recognition.
 */
export function assembleEngines(config: Config, live: LiveEngines = staticEngines()): Engines {
  const { LLM_BASE_URL, LLM_API_KEY, LLM_MODEL, LLM_EMBEDDING_MODEL } = config;
  const { SEPARATOR_URL, SEPARATOR_API_KEY, SEPARATOR_MODEL, SEPARATOR_LABEL } = config;
  let vc: Promise<VcRegistry> | null = null;
  const ocr = createOcrPool(config.OCR_WORKERS ? { size: config.OCR_WORKERS } : {});
  const inspector = createMediaInspector();
  // g2pW for the polyphones while the models folder has one installed (looked up per sentence batch).
  const polyphones = createG2pwModel(sherpaModelsDir(config));
  setPolyphoneModel(polyphones);
  return {
    // Read at each use: a reload swaps them (a test may set one of its own).
    get tts() {
      return live.current.tts;
    },
    set tts(tts) {
      live.current = { ...live.current, tts };
    },
    get clone() {
      return live.current.clone;
    },
    set clone(clone) {
      live.current = { ...live.current, clone };
    },
    get asr() {
      return live.current.asr;
    },
    set asr(asr) {
      live.current = { ...live.current, asr };
    },
    get ttsModels() {
      return live.current.ttsModels;
    },
    reload: () => live.reload(),
    onReload: (listener) => live.onReload(listener),
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
    inpaintModel: () => findLamaModel(sherpaModelsDir(config)),
    inspector,
    voicePitches: new Map(),
    async close() {
      setPolyphoneModel(undefined);
      await Promise.all([live.close(), ocr.close(), inspector.close(), polyphones.close()]);
    },
  };
}

/** No speech, cloning or recognition, and nothing to reload. */
function staticEngines(): LiveEngines {
  const current: ModelEngines = {
    tts: createEngineRegistry([]),
    clone: cloneRegistry(withStandardEngine({ engines: [], ttsEngines: [], problems: [] }, null)),
    asr: createAsrRegistry([]),
    ttsModels: [],
    idle: async () => {},
    close: async () => {},
  };
  return {
    current,
    reload: async () => {},
    onReload: () => () => {},
    close: async () => {},
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
function sherpaModelsDir(config: Config): string {
  return config.modelsDir;
}

/** Where reference clips of cloned voices live on this machine. */
export function cloneReferenceDir(config: Config): string {
  return config.CLONE_REFERENCE_DIR
    ? path.resolve(REPO_ROOT, config.CLONE_REFERENCE_DIR)
    : path.join(config.dataDir, 'clone-references');
}
