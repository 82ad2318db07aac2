import { stat } from 'node:fs/promises';
import { pcmToFloat } from '../audio/wav.ts';
import { EngineError } from '../errors.ts';
import { createHelperPool } from '../process/helpers.ts';
import { lastLines } from '../process/tool.ts';
import {
  ASR_TYPES,
  checkModelFiles,
  isTtsModel,
  loadModelRegistry,
  modelPath,
  type SherpaModel,
} from '../sherpa/models.ts';
import { loadSherpa } from '../sherpa/module.ts';
import type { VadOptions } from '../sherpa/vad.ts';
import { aborted, mostFrequent, parseRecognizerLanguage } from './pipeline.ts';
import type { SherpaAsrJob, sherpaAsrOperations } from './sherpa-worker.ts';
import { assignSpeakers, spreadWords } from './timing.ts';
import type { AsrProvider, Transcript } from './types.ts';

export interface SherpaAsrOptions {
  /** Folder holding models.json: `asr` models, one `vad` model, optional `punctuation`, `diarization`. */
  modelsDir: string;
  numThreads?: number;
  provider?: 'cpu' | 'cuda' | 'coreml';
  /** A Silero VAD file to use when the registry has no `vad` entry. */
  vadModel?: string;
  /** Chunks longer than this are cut (default 20 s; whisper reads at most 30 s). */
  maxChunkMs?: number;
  /** Diarization clustering threshold when the speaker count is not given (default 0.5). */
  clusterThreshold?: number;
  packageName?: string;
}

/** 'zh-CN' → 'zh'. */
export const baseLanguage = (code: string) => code.toLowerCase().split(/[-_]/)[0];

const NO_TOKEN_TIMES = new Set(['whisper', 'moonshine', 'fire_red_asr']);

/** Recognizers that take the language in their config; the others recognise what they were trained on. */
const LANGUAGE_AWARE = new Set(['sense_voice', 'whisper']);

/** The sherpa-onnx OfflineRecognizer config for an `asr` entry, paths absolute. */
export function sherpaAsrConfig(
  modelsDir: string,
  model: SherpaModel,
  {
    language,
    numThreads = 1,
    provider = 'cpu',
  }: { language?: string; numThreads?: number; provider?: string } = {},
) {
  const type = model.type!;
  const path = (key: string) => modelPath(modelsDir, model.files[key] as string);
  const own = Object.fromEntries(
    Object.keys(model.files)
      .filter((key) => key !== 'tokens')
      .map((key) => [key, path(key)]),
  );
  const lang = language && language !== 'auto' ? baseLanguage(language) : '';
  const extra =
    type === 'sense_voice'
      ? { language: lang || 'auto', useInverseTextNormalization: 1 }
      : type === 'whisper'
        ? { language: lang, task: 'transcribe', tailPaddings: -1 }
        : {};
  return {
    featConfig: { sampleRate: 16_000, featureDim: 80 },
    modelConfig: {
      [ASR_TYPES[type].config]: { ...own, ...extra },
      tokens: path('tokens'),
      numThreads,
      provider,
      debug: 0,
    },
  };
}

/** Configs of the helper models, paths absolute. */
export const sherpaPunctuationConfig = (modelsDir: string, model: SherpaModel) => ({
  model: { ctTransformer: modelPath(modelsDir, model.files.model as string), numThreads: 1, debug: 0 },
});

export const sherpaDiarizationConfig = (
  modelsDir: string,
  model: SherpaModel,
  { speakers, threshold = 0.5 }: { speakers?: number; threshold?: number } = {},
) => ({
  segmentation: { pyannote: { model: modelPath(modelsDir, model.files.segmentation as string) }, debug: 0 },
  embedding: { model: modelPath(modelsDir, model.files.embedding as string), debug: 0 },
  // A known speaker count fixes the clusters; otherwise the threshold decides how many there are.
  clustering: speakers ? { numClusters: speakers } : { numClusters: -1, threshold },
  minDurationOn: 0.3,
  minDurationOff: 0.5,
});

const notConfigured = (modelsDir: string, what: string, en: string) =>
  new EngineError(
    'engine_not_configured',
    `本地语音识别模型不完整（缺少${what}），请联系管理员`,
    `${en} in ${modelsDir} (npm run admin -- engines install <id> installs one)`,
  );

/**
 * One provider per `asr` model of the folder (id `sherpa-onnx:<model id>`), sharing its VAD and the
 * optional punctuation and diarization models. Every file is checked now and again before each call;
 * each transcription runs in its own child process (sherpa-worker.ts).
 */
export async function createSherpaAsrProviders(options: SherpaAsrOptions): Promise<AsrProvider[]> {
  loadSherpa(options.packageName);
  const { modelsDir } = options;
  // Only recognition's own entries are checked: a broken TTS model is the TTS engine's problem.
  const models = await loadModelRegistry(modelsDir, (m) => !isTtsModel(m));
  const asr = models.filter((m) => m.kind === 'asr');
  if (!asr.length)
    throw notConfigured(modelsDir, '语音识别模型（kind 为 asr）', 'no speech recognition model (kind "asr")');
  const vadEntry = models.find((m) => m.kind === 'vad');
  const vadFile = vadEntry ? modelPath(modelsDir, vadEntry.files.model as string) : options.vadModel;
  if (!vadFile)
    throw notConfigured(
      modelsDir,
      '语音活动检测模型（kind 为 vad，silero_vad.onnx）',
      'no voice activity model (kind "vad", silero_vad.onnx)',
    );
  // A VAD file outside the registry is checked here; registry files were checked by loadModelRegistry.
  if (!vadEntry && !(await stat(vadFile).catch(() => undefined))?.isFile()) {
    throw new EngineError(
      'model_file_missing',
      `语音活动检测模型不存在：${vadFile}`,
      `voice activity model not found: ${vadFile}`,
    );
  }
  const punctuation = models.find((m) => m.kind === 'punctuation');
  const diarization = models.find((m) => m.kind === 'diarization');
  const vad: VadOptions = {
    model: vadFile,
    minSilenceMs: 500,
    maxSpeechMs: options.maxChunkMs ?? 20_000,
    packageName: options.packageName,
  };
  // Exiting without an answer: sherpa aborted on a model it could not read.
  const crashed = ({ exit, stderr }: { exit: number | null; stderr: string }) => {
    const tail = lastLines(stderr, 2) || `exit ${exit}`;
    return new EngineError(
      'model_invalid',
      `语音识别进程异常退出：${tail}`,
      `the recognition process died: ${tail}`,
    );
  };
  // Each transcription in its own process group: cancelling it also ends the ffmpeg it runs.
  const helpers = createHelperPool<typeof sherpaAsrOperations>({
    script: new URL('./sherpa-worker.ts', import.meta.url),
    size: Number.POSITIVE_INFINITY,
    helperPerCall: true,
    ownGroup: true,
    keepStderr: true,
    errors: { crashed, aborted },
  });
  // Sentences of the speech self-check: one long-lived helper keeps the recognizer loaded between
  // clips (a model load costs more than a sentence), fed PCM without files or ffmpeg.
  const clips = createHelperPool<typeof sherpaAsrOperations>({
    script: new URL('./sherpa-worker.ts', import.meta.url),
    size: 1,
    keepStderr: true,
    errors: { crashed, aborted },
  });
  return asr.map((model) => createProvider(model));

  function createProvider(model: SherpaModel): AsrProvider {
    const languages = model.languages.map(baseLanguage);
    const checkLanguage = (given: string | undefined) => {
      const language = given && given !== 'auto' ? baseLanguage(given) : undefined;
      if (language && !languages.includes(language)) {
        throw new EngineError(
          'invalid_request',
          `模型 ${model.id} 不支持语言 ${language}（支持：${languages.join('、')}）`,
          `model ${model.id} does not recognise ${language} (it knows ${languages.join(', ')})`,
        );
      }
      return language;
    };
    return {
      id: `sherpa-onnx:${model.id}`,
      label: model.name,
      languages,
      diarization: Boolean(diarization),
      // Attention decoders give no token times; their words are spread over the chunk.
      wordTimes: !NO_TOKEN_TIMES.has(model.type!),
      async transcribePcm(pcm, opts = {}) {
        const language = checkLanguage(opts.language);
        if (pcm.sampleRate !== 16_000) {
          throw new EngineError(
            'invalid_request',
            '识别音频须为 16 kHz',
            `clips must be 16 kHz, got ${pcm.sampleRate}`,
          );
        }
        await checkModelFiles(modelsDir, model);
        const result = await clips.call(
          'recognizeClip',
          {
            packageName: options.packageName,
            recognizer: sherpaAsrConfig(modelsDir, model, {
              language: LANGUAGE_AWARE.has(model.type!) ? language : undefined,
              numThreads: options.numThreads,
              provider: options.provider,
            }),
            samples: pcmToFloat(pcm),
          },
          { signal: opts.signal },
        );
        const durationMs = Math.round((pcm.samples.length / 16_000) * 1000);
        return {
          language:
            language ??
            parseRecognizerLanguage(result.lang) ??
            (languages.length === 1 ? languages[0] : 'und'),
          durationMs,
          segments: result.text
            ? [
                {
                  id: 0,
                  startMs: 0,
                  endMs: durationMs,
                  text: result.text,
                  words: spreadWords(result.text, 0, durationMs),
                },
              ]
            : [],
          engine: `sherpa-onnx:${model.id}`,
        } satisfies Transcript;
      },
      async transcribe(file, opts = {}) {
        const language = checkLanguage(opts.language);
        const diarize = opts.diarize && diarization;
        if (opts.diarize && !diarization) {
          throw notConfigured(
            modelsDir,
            '说话人分离模型（kind 为 diarization）',
            'no diarization model (kind "diarization")',
          );
        }
        // sherpa must never see a missing file (a VAD without its model silently finds nothing).
        await checkModelFiles(modelsDir, model);
        if (vadEntry) await checkModelFiles(modelsDir, vadEntry);
        if (punctuation) await checkModelFiles(modelsDir, punctuation);
        if (diarize) await checkModelFiles(modelsDir, diarize);
        const job: SherpaAsrJob = {
          file,
          packageName: options.packageName,
          recognizer: sherpaAsrConfig(modelsDir, model, {
            language: LANGUAGE_AWARE.has(model.type!) ? language : undefined,
            numThreads: options.numThreads,
            provider: options.provider,
          }),
          vad,
          ...(punctuation ? { punctuation: sherpaPunctuationConfig(modelsDir, punctuation) } : {}),
          ...(diarize
            ? {
                diarization: sherpaDiarizationConfig(modelsDir, diarize, {
                  speakers: opts.speakers,
                  threshold: options.clusterThreshold,
                }),
              }
            : {}),
        };
        const result = await helpers.call('transcribe', job, opts);
        const segments = result.turns ? assignSpeakers(result.segments, result.turns) : result.segments;
        return {
          // Given, else what the recognizer said most, else the model's only language, else undetermined.
          language:
            language ?? mostFrequent(result.languages) ?? (languages.length === 1 ? languages[0] : 'und'),
          durationMs: result.durationMs,
          segments,
          engine: `sherpa-onnx:${model.id}`,
        } satisfies Transcript;
      },
      close: () => Promise.all([helpers.close(), clips.close()]).then(() => undefined),
    };
  }
}
