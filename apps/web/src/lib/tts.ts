// The contract's TTS constants, from its zod-free module (the calls module would bring zod along).
export {
  MAX_DICTIONARY_ENTRIES,
  PREMIUM_VOICE_LEVEL,
  TTS_HEADERS,
  TTS_MAX_CHARS_BY_LEVEL,
  TTS_SYNC_MAX_CHARS,
  TtsFailureCode,
  ttsMaxChars,
  VoiceStatus,
  voiceAgeNames,
  voiceGenderNames,
} from '@vw/contract/constants/tts.ts';
