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
export * from './audio/ffmpeg.ts';
export * from './audio/subtitles.ts';
export * from './audio/wav.ts';
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
export * from './media/index.ts';
export { createOpenAiEngine, type OpenAiEngineOptions, speechUrl } from './openai/engine.ts';
export { CATALOGUE_GROUPS, type CatalogueEntry, MODEL_CATALOGUE } from './sherpa/catalogue.ts';
export { createSherpaEngine, type SherpaEngine, type SherpaEngineOptions } from './sherpa/engine.ts';
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
export { splitSentences, type TextPiece } from './text/sentences.ts';
export * from './tts/registry.ts';
export type * from './tts/types.ts';
