/**
 * Pause lengths and number formatting of the editor. The text with its pauses and readings is a
 * draft (draft.ts); the contract's markup is only how it travels to the server.
 */
import {
  BREAK_PRESETS_MS,
  MAX_BREAK_MS,
  MIN_BREAK_MS,
  stripTtsMarkup,
} from '@vw/contract/helpers/tts-markup.ts';

export { BREAK_PRESETS_MS, MAX_BREAK_MS, MIN_BREAK_MS };

/** Clamps a custom length (seconds, as typed) to the contract's range, in whole milliseconds. */
export function pauseMs(seconds: number): number {
  if (!Number.isFinite(seconds)) return MIN_BREAK_MS;
  return Math.min(MAX_BREAK_MS, Math.max(MIN_BREAK_MS, Math.round(seconds * 1000)));
}

/** "0.5 秒"-style length of a pause. */
export const pauseSeconds = (ms: number) => Math.round(ms / 100) / 10;

/** The text as it is read: markup removed. */
export const plainText = stripTtsMarkup;

/**
 * An integer with thousands separators exactly as zh-CN writes it ('100,000'), without Intl:
 * the first `toLocaleString('zh-CN')` of a page costs tens of milliseconds, on the first paint.
 */
export function groupDigits(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
