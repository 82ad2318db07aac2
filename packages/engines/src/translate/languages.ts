import { convertScript } from '../ocr/text.ts';

/** Primary subtag, lower-cased: 'zh-Hant' → 'zh'. */
export const primaryLanguage = (code: string) => code.trim().toLowerCase().split(/[-_]/)[0] ?? '';

export const isChinese = (code: string) => primaryLanguage(code) === 'zh';

/** zh-Hant, zh-TW, zh-HK, zh-MO (any case, `_` or `-`). */
export const isTraditionalChinese = (code: string) =>
  isChinese(code) && /[-_](hant|tw|hk|mo)\b/i.test(code.trim());

/** Chinese, Japanese and Korean: counted per character, not per word, on screen. */
export const isCjkLanguage = (code: string) =>
  ['zh', 'ja', 'ko', 'yue', 'cmn'].includes(primaryLanguage(code));

const names = new Intl.DisplayNames(['en'], { type: 'language' });

/** 'English (en)' — the code in brackets so prompts stay unambiguous (and the fake server can read it). */
export function languageLabel(code: string): string {
  if (code === 'auto') return 'the original language, detect it (auto)';
  let name = code;
  try {
    name = names.of(code) ?? code;
  } catch {
    // not a BCP 47 tag: the code alone
  }
  return `${name} (${code})`;
}

/** Simplified → Traditional Chinese (OpenCC tables through opencc-js). */
export const toTraditional = (text: string) => convertScript(text, 's2t');

/** Traditional → Simplified Chinese (OpenCC). */
export const toSimplified = (text: string) => convertScript(text, 't2s');

const SCRIPTS: Array<[RegExp, string]> = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/gu, 'ja'],
  [/\p{Script=Hangul}/gu, 'ko'],
  [/\p{Script=Han}/gu, 'zh'],
  [/\p{Script=Cyrillic}/gu, 'ru'],
  [/\p{Script=Thai}/gu, 'th'],
  [/\p{Script=Arabic}/gu, 'ar'],
];

/**
 * The language of subtitle text told by its script (kana before Han, so Japanese is not taken for
 * Chinese), or undefined when the script does not tell it (Latin text: English, French…).
 */
export function guessLanguage(texts: string[]): string | undefined {
  const text = texts.join('');
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return undefined;
  for (const [re, code] of SCRIPTS) {
    const n = text.match(re)?.length ?? 0;
    // A few kana among kanji are enough for Japanese; the others must be a good part of the letters.
    if (code === 'ja' ? n >= Math.max(2, letters * 0.05) : n >= letters * 0.3) return code;
  }
  return undefined;
}
