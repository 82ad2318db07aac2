import {
  accountsCalls,
  apikeysCalls,
  appCalls,
  audiobookCalls,
  EMAIL_RE as C_EMAIL,
  PHONE_RE as C_PHONE,
  creditsCalls,
  dubbingCalls,
  eraseCalls,
  mediaCalls,
  ocrCalls,
  onboardingCalls,
  paymentsCalls,
  projectsCalls,
  sttCalls,
  tasksCalls,
  ttsCalls,
  UserType,
  videoTranslationCalls,
  voiceChangerCalls,
  voiceCloneCalls,
} from '@vw/contract';
import { describe, expect, it } from 'vitest';
import { api, EMAIL_RE, PHONE_RE, USER_TYPE_REFUSED } from './api.ts';
import * as credits from './credits.ts';
import * as tts from './tts.ts';

describe('web call mirrors match the contract', () => {
  const contract = {
    ...accountsCalls,
    ...appCalls,
    ...creditsCalls,
    ...ttsCalls,
    ...paymentsCalls,
    ...onboardingCalls,
    ...apikeysCalls,
    ...tasksCalls,
    ...mediaCalls,
    ...projectsCalls,
    ...sttCalls,
    ...dubbingCalls,
    ...ocrCalls,
    ...eraseCalls,
    ...voiceChangerCalls,
    ...voiceCloneCalls,
    ...audiobookCalls,
    ...videoTranslationCalls,
  } as unknown as Record<string, { method: string; path: string }>;
  it.each(Object.entries(api))('%s', (name, ep) => {
    expect(contract[name], `${name} is not in the contract`).toBeDefined();
    expect({ method: ep.method, path: ep.path }).toEqual({
      method: contract[name].method,
      path: contract[name].path,
    });
  });
  it('patterns and constants', () => {
    expect(PHONE_RE.source).toBe(C_PHONE.source);
    expect(EMAIL_RE.source).toBe(C_EMAIL.source);
    expect(USER_TYPE_REFUSED).toBe(UserType.Refused);
  });
  it('credit constants', () => {
    expect(credits.CreditType).toEqual(creditsCalls.CreditType);
    expect(credits.FREE_LEVEL).toBe(creditsCalls.FREE_LEVEL);
    expect(credits.SUBSCRIPTION_SHORTCUT_LEVEL).toBe(creditsCalls.SUBSCRIPTION_SHORTCUT_LEVEL);
    expect(credits.REDEEM_CODE_LENGTH).toBe(creditsCalls.REDEEM_CODE_LENGTH);
    expect(credits.ExportTaskStatus).toEqual(creditsCalls.ExportTaskStatus);
    expect(credits.creditSourceNames).toEqual(creditsCalls.creditSourceNames);
    expect(credits.creditToolNames).toEqual(creditsCalls.creditToolNames);
    expect(credits.creditSources).toEqual(creditsCalls.CreditSource.options);
    expect(credits.creditTools).toEqual(creditsCalls.CreditTool.options);
  });
  it('tts constants', () => {
    expect(tts.VoiceStatus).toEqual(ttsCalls.VoiceStatus);
    expect(tts.PREMIUM_VOICE_LEVEL).toBe(ttsCalls.PREMIUM_VOICE_LEVEL);
    expect(tts.voiceGenderNames).toEqual(ttsCalls.voiceGenderNames);
    expect(tts.voiceAgeNames).toEqual(ttsCalls.voiceAgeNames);
    expect(tts.TTS_SYNC_MAX_CHARS).toBe(ttsCalls.TTS_SYNC_MAX_CHARS);
    expect(tts.TTS_MAX_CHARS_BY_LEVEL).toEqual(ttsCalls.TTS_MAX_CHARS_BY_LEVEL);
    for (const level of [0, 100, 150, 200, 300, 400, 900])
      expect(tts.ttsMaxChars(level)).toBe(ttsCalls.ttsMaxChars(level));
    expect(tts.TTS_HEADERS).toEqual(ttsCalls.TTS_HEADERS);
    expect(tts.TtsFailureCode).toEqual(ttsCalls.TtsFailureCode);
    expect(tts.MAX_DICTIONARY_ENTRIES).toBe(ttsCalls.MAX_DICTIONARY_ENTRIES);
  });
});
