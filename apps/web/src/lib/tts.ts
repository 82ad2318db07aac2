/**
 * Mirrors of the TTS contract's plain constants (packages/contract/src/calls/tts.ts). That module
 * builds zod schemas when it loads; copying the values keeps zod out of the web bundle.
 * `api.test.ts` fails if any of them drifts from the contract.
 */
export const VoiceStatus = { Draft: 1, Published: 2 } as const;
export const PREMIUM_VOICE_LEVEL = 300;
export const voiceGenderNames: Record<string, string> = { female: '女声', male: '男声' };
export const voiceAgeNames: Record<string, string> = {
  child: '童声',
  young: '青年',
  middle: '中年',
  old: '老年',
};
export const TTS_SYNC_MAX_CHARS = 3000;
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
export const TTS_HEADERS = {
  historyId: 'x-history-id',
  cacheHit: 'x-cache-hit',
  credits: 'x-credits',
  characters: 'x-characters',
  cacheKey: 'x-cache-key',
} as const;
export const TtsFailureCode = {
  GenerationFailed: 1,
  SensitiveContent: 3,
  UnsupportedLanguage: 4,
  TextMismatch: 5,
} as const;
export const MAX_DICTIONARY_ENTRIES = 2000;
