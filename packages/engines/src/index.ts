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
export { createSherpaEngine, type SherpaEngine, type SherpaEngineOptions } from './sherpa/engine.ts';
export {
  checkModelFiles,
  loadModelRegistry,
  MODEL_KINDS,
  type ModelKind,
  type ModelSpeaker,
  parseModelRegistry,
  REGISTRY_FILE,
  type SherpaModel,
} from './sherpa/models.ts';
export {
  createVoiceActivityDetector,
  type SpeechSpan,
  type VadOptions,
  type VoiceActivityDetector,
} from './sherpa/vad.ts';
export { splitSentences, type TextPiece } from './text/sentences.ts';
export * from './tts/registry.ts';
export type * from './tts/types.ts';
