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
