export * from './call.ts';
export type { OutboxMessage } from './calls/accounts.ts';
export * as accountsCalls from './calls/accounts.ts';
export { accountIdentifier, EMAIL_RE, PHONE_RE, VerificationScene } from './calls/accounts.ts';
export type { ApiKeyUsageDay, ApiKeyView, WebhookDeliveryView, WebhookView } from './calls/apikeys.ts';
export * as apikeysCalls from './calls/apikeys.ts';
export type { JobView } from './calls/app.ts';
export * as appCalls from './calls/app.ts';
export type {
  AudiobookChapter,
  AudiobookCharacter,
  AudiobookExportFormat,
  AudiobookParagraph,
  AudiobookWork,
  BookSegment,
  ComplianceEntry,
  LoudnessPreset,
} from './calls/audiobook.ts';
export * as audiobookCalls from './calls/audiobook.ts';
export type { Consumption, CreditLot, Plan, TenantBonusWithPrevious } from './calls/credits.ts';
export * as creditsCalls from './calls/credits.ts';
export { CreditSource, CreditTool } from './calls/credits.ts';
export type { DubOptions } from './calls/dubbing.ts';
export * as dubbingCalls from './calls/dubbing.ts';
export type { EraseMethodName, EraseOptions, EraseReport } from './calls/erase.ts';
export * as eraseCalls from './calls/erase.ts';
export type { MediaAsset, MediaLimits, MediaPeaks, ToolAvailability, UploadTicket } from './calls/media.ts';
export * as mediaCalls from './calls/media.ts';
export type { Box, DetectedRegion, OcrOptions, PreviewFrame } from './calls/ocr.ts';
export * as ocrCalls from './calls/ocr.ts';
export type { AnalyticsEvent, Question } from './calls/onboarding.ts';
export * as onboardingCalls from './calls/onboarding.ts';
export { analyticsEvent } from './calls/onboarding.ts';
export type { OrderInfo, Product } from './calls/payments.ts';
export * as paymentsCalls from './calls/payments.ts';
export type {
  CueCheck,
  CueDrift,
  CueFit,
  CueFix,
  CueTake,
  DubSettings,
  FitStatus,
  ProjectDocument,
  ProjectView,
  Speaker,
  SubtitleCue,
  SubtitleRules,
  SubtitleTrack,
  TranslationSettings,
} from './calls/projects.ts';
export * as projectsCalls from './calls/projects.ts';
export {
  cueFix,
  DEFAULT_SUBTITLE_RULES,
  DubOutput,
  dubSettings,
  LATIN_SUBTITLE_RULES,
  projectDocument,
  subtitleRulesFor,
  translationPreferences,
  translationSettings,
} from './calls/projects.ts';
export type { PublicCallDef } from './calls/public-api.ts';
export * as publicApi from './calls/public-api.ts';
export { publicApiCalls } from './calls/public-api.ts';
export type { SttOptions } from './calls/stt.ts';
export * as sttCalls from './calls/stt.ts';
export type {
  SelfCheckFigures,
  SentenceCheck,
  TaskEvent,
  TaskOutput,
  TaskStageView,
  TaskView,
} from './calls/tasks.ts';
export * as tasksCalls from './calls/tasks.ts';
export { TASK_EVENTS_PATH } from './calls/tasks.ts';
export type {
  CharacterReading,
  DictionaryEntry,
  HistoryItem,
  LanguageIcon,
  Model,
  SpokenReading,
  TtsFormat,
  TtsGenerateBody,
  TtsSentence,
  Voice,
  VoiceLabels,
} from './calls/tts.ts';
export * as ttsCalls from './calls/tts.ts';
export type {
  GlossaryEntry,
  LanguageOption,
  TranslationBody,
  TranslationExportFormat,
  TranslationPreferences,
  TranslationSubtitles,
} from './calls/video-translation.ts';
export * as videoTranslationCalls from './calls/video-translation.ts';
export type { VoiceChangerOptions, VoiceChangerTarget } from './calls/voice-changer.ts';
export * as voiceChangerCalls from './calls/voice-changer.ts';
export { VOICE_CHANGER_MAX_BYTES, VOICE_CHANGER_MAX_SECONDS } from './calls/voice-changer.ts';
export type { CheckItem, FileCheck, SampleCheckView, VoiceCloneView } from './calls/voice-clone.ts';
export * as voiceCloneCalls from './calls/voice-clone.ts';
export {
  cloneStatusNames,
  SampleFix,
  sampleFixNames,
  VOICE_CLONE_QUOTA_BY_LEVEL,
  voiceCloneQuota,
} from './calls/voice-clone.ts';
// The zod-free constants (the web imports them from their own modules).
export * from './constants/apikeys.ts';
export * from './constants/credits.ts';
export * from './constants/dubbing.ts';
export * from './constants/onboarding.ts';
export * from './constants/payments.ts';
export * from './constants/tasks.ts';
export * from './constants/tts.ts';
export * from './entities.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './helpers/input-safety.ts';
export * from './helpers/mask.ts';
export * from './helpers/products.ts';
export * from './helpers/speed.ts';
export * from './helpers/subtitles.ts';
export * from './helpers/time.ts';
export * from './helpers/tts-cache-key.ts';
export * from './helpers/tts-markup.ts';
