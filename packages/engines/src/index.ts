export * from './asr/formats.ts';
export {
  createOpenAiAsrProvider,
  languageCode,
  mapVerboseJson,
  type OpenAiAsrOptions,
  openAiBaseUrl,
  partLength,
  planParts,
} from './asr/openai.ts';
export { type ChunkedTranscription, transcribeChunks } from './asr/pipeline.ts';
export * from './asr/registry.ts';
export {
  createSherpaAsrProviders,
  type SherpaAsrOptions,
  sherpaAsrConfig,
} from './asr/sherpa.ts';
export {
  assignSpeakers,
  assignWords,
  joinTexts,
  offsetSegment,
  type SpeakerTurn,
  splitWords,
  spreadWords,
  type TokenTimes,
  wordsFromTokens,
} from './asr/timing.ts';
export type * from './asr/types.ts';
export { denoise, denoiseSamples, RNNOISE_RATE, writeMonoWav } from './audio/denoise.ts';
export * from './audio/ffmpeg.ts';
export * from './audio/levels.ts';
export { type AudioEncoder, createMp3Encoder } from './audio/mp3-encoder.ts';
export {
  ANALYSIS_RATE,
  decodeMono,
  type FormantStats,
  formantsOf,
  measureFormants,
  measurePitch,
  measurePitchTrack,
  type PitchStats,
  type PitchTrack,
  pitchStats,
  yinTrack,
} from './audio/pitch.ts';
export * from './audio/subtitles.ts';
export * from './audio/wav.ts';
export { detectChapters } from './book/chapters.ts';
export { decodeText, importBook } from './book/import.ts';
export { attributeSpeakers } from './book/speakers.ts';
export * from './book/types.ts';
export * from './clone/index.ts';
export * from './clone/trainer.ts';
export * from './dub/index.ts';
export * from './erase/index.ts';
export * from './errors.ts';
export {
  createEspeakEngine,
  type EspeakEngineOptions,
  espeakVoiceName,
  resolveEspeakVoice,
} from './espeak/engine.ts';
export {
  type CharacterReading,
  type EspeakInputOptions,
  isMandarinVoice,
  MANDARIN_VOICE,
  type MandarinSyllable,
  mandarinReadings,
  mandarinSyllables,
  normalizePinyin,
  toEspeakInput,
} from './espeak/input.ts';
export * from './espeak/personas.ts';
export * from './lipsync/http.ts';
export * from './llm/index.ts';
export * from './media/index.ts';
export * from './ocr/index.ts';
export { createOpenAiEngine, type OpenAiEngineOptions, speechUrl } from './openai/engine.ts';
export * from './registry.ts';
export {
  createHttpSeparator,
  HTTP_SEPARATOR_ID,
  type SeparatedStems,
  type Separator,
  type SeparatorOptions,
} from './separate/http.ts';
export {
  CATALOGUE_GROUPS,
  type CatalogueEntry,
  type CatalogueModel,
  KOKORO_V11_SPEAKERS,
  MODEL_CATALOGUE,
  type ModelDownload,
  type ModelLicence,
  RECOMMENDED_MODELS,
} from './sherpa/catalogue.ts';
export { createSherpaEngine, type SherpaEngine, type SherpaEngineOptions } from './sherpa/engine.ts';
export {
  type DownloadProgress,
  download,
  InstallError,
  type InstallErrorKind,
  sha256File,
} from './sherpa/install/download.ts';
export {
  DOWNLOADS_DIR,
  downloadUrl,
  type InstallableEntry,
  type InstallDownload,
  type InstallEvent,
  type InstallOptions,
  type InstallReport,
  installModels,
  probeOnline,
  removeModel,
  type VerifyResult,
  verifyModels,
} from './sherpa/install/installer.ts';
export {
  INSTALL_STATE_FILE,
  type InstallState,
  type ModelInstallState,
  type ModelProgress,
  readInstallState,
} from './sherpa/install/state.ts';
export {
  ASR_TYPES,
  type AsrModelType,
  checkModelFiles,
  isTtsModel,
  loadModelRegistry,
  MODEL_KINDS,
  type ModelKind,
  type ModelSpeaker,
  parseModelRegistry,
  REGISTRY_FILE,
  type SherpaModel,
  TTS_KINDS,
  type TtsModelKind,
} from './sherpa/models.ts';
export {
  createVoiceActivityDetector,
  type SpeechChunk,
  type SpeechSpan,
  type VadOptions,
  type VoiceActivityDetector,
} from './sherpa/vad.ts';
export { createG2pwModel, findG2pwModel, type G2pwPolyphoneModel } from './text/g2pw.ts';
export {
  LATIN_LEXICON,
  type NormalizedText,
  normalizeText,
  readsAsChinese,
  type SpanKind,
  type SpokenSpan,
  spokenText,
} from './text/normalize.ts';
export {
  type PolyphoneModel,
  pinyinReadings,
  preparePolyphones,
  setPolyphoneModel,
} from './text/polyphones.ts';
export { splitSentences, type TextPiece } from './text/sentences.ts';
export * from './translate/index.ts';
export * from './tts/registry.ts';
export * from './tts/self-check.ts';
export type * from './tts/types.ts';
export {
  type EnvelopeProfile,
  envelopeOfFile,
  envelopeProfile,
  envelopeWarp,
  measureVoiceChange,
  type VoiceChangeMeasure,
} from './vc/envelope.ts';
export { createHttpVcProvider, HTTP_VC_ENGINE_ID, type HttpVcOptions } from './vc/http.ts';
export { createVcProviders, createVcRegistry, type VcRegistry } from './vc/registry.ts';
export {
  createRubberbandProvider,
  FORMANT_FOLLOW,
  followingFormant,
  RUBBERBAND_ENGINE_ID,
  RUBBERBAND_LABEL,
  rubberbandAvailable,
  semitonesBetween,
} from './vc/rubberband.ts';
export type * from './vc/types.ts';
