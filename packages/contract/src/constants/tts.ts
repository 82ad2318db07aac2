/**
 * Plain TTS constants, free of zod so the web bundle can import them directly
 * (`@vw/contract/constants/tts.ts`); the calls in calls/tts.ts build on them.
 */

/** Voice status: only 2 (published) is offered to users. */
export const VoiceStatus = { Draft: 1, Published: 2 } as const;

/** Plan level a premium voice needs (spec §6, err_voice_cannot_access_other_voice). */
export const PREMIUM_VOICE_LEVEL = 300;

export const voiceGenderNames: Record<string, string> = { female: '女声', male: '男声' };

export const voiceAgeNames: Record<string, string> = {
  child: '童声',
  young: '青年',
  middle: '中年',
  old: '老年',
};

/** Up to this many characters (countTtsCharacters) `mode: 'auto'` streams the audio in the response. */
export const TTS_SYNC_MAX_CHARS = 3000;
/** Longest text per request by plan level (characters); see also model.max_text_length. */
export const TTS_MAX_CHARS_BY_LEVEL: Record<number, number> = {
  100: 100_000,
  200: 200_000,
  300: 500_000,
  400: 1_000_000,
};
export function ttsMaxChars(level: number): number {
  let best = TTS_MAX_CHARS_BY_LEVEL[100];
  for (const [l, n] of Object.entries(TTS_MAX_CHARS_BY_LEVEL)) if (level >= Number(l)) best = n;
  return best;
}

/** Response headers of a streamed synthesis (lower case). */
export const TTS_HEADERS = {
  historyId: 'x-history-id',
  /** '1' when the audio came from the cache (no credits spent). */
  cacheHit: 'x-cache-hit',
  /** Credits charged for this request (0 on a cache hit). */
  credits: 'x-credits',
  characters: 'x-characters',
  cacheKey: 'x-cache-key',
} as const;

/** Task failure codes (spec §8); every failed task's credits are refunded. */
export const TtsFailureCode = {
  GenerationFailed: 1,
  SensitiveContent: 3,
  UnsupportedLanguage: 4,
  TextMismatch: 5,
} as const;

export const MAX_DICTIONARY_ENTRIES = 2000;
