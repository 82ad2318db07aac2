/*
 * Whether recognised text is in the language the user asked for, judged by its writing system: a
 * recognizer told 中文 that hears English speech writes English words (or a transliteration), and the
 * user must be told so on the result instead of finding it out subtitle by subtitle.
 */

import { primaryLanguage } from '@vw/engines';

type Script = 'han' | 'kana' | 'hangul' | 'latin' | 'cyrillic' | 'thai' | 'arabic';

const SCRIPTS: Array<[Script, RegExp]> = [
  ['han', /\p{Script=Han}/u],
  ['kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['hangul', /\p{Script=Hangul}/u],
  ['latin', /\p{Script=Latin}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['thai', /\p{Script=Thai}/u],
  ['arabic', /\p{Script=Arabic}/u],
];

const SCRIPT_NAMES: Record<Script, string> = {
  han: '汉字',
  kana: '日文假名',
  hangul: '韩文',
  latin: '拉丁字母（如英文）',
  cyrillic: '西里尔字母（如俄文）',
  thai: '泰文',
  arabic: '阿拉伯文',
};

/** The scripts a language is written in (what its recognised text should mostly be). */
function scriptsOf(language: string): Script[] | null {
  const base = primaryLanguage(language);
  if (['zh', 'yue', 'cmn', 'wuu'].includes(base)) return ['han'];
  if (base === 'ja') return ['kana', 'han'];
  if (base === 'ko') return ['hangul', 'han'];
  if (['ru', 'uk', 'be', 'bg', 'sr', 'kk'].includes(base)) return ['cyrillic'];
  if (base === 'th') return ['thai'];
  if (['ar', 'fa', 'ur'].includes(base)) return ['arabic'];
  if (
    [
      'en',
      'fr',
      'de',
      'es',
      'it',
      'pt',
      'nl',
      'vi',
      'id',
      'ms',
      'tr',
      'pl',
      'sv',
      'da',
      'no',
      'fi',
      'cs',
      'ro',
      'hu',
    ].includes(base)
  )
    return ['latin'];
  return null;
}

const languageNames = new Intl.DisplayNames(['zh-CN'], { type: 'language' });

/** Fewer letters than this say too little about the language (a name, a number, "OK"). */
const MIN_LETTERS = 12;

/**
 * A notice when the recognised text is mostly written in a script the requested language does not
 * use; null when it matches, when no language was requested ('auto') or the text is too short to tell.
 */
export function languageNotice(requested: string, text: string): string | null {
  const expected = requested === 'auto' ? null : scriptsOf(requested);
  if (!expected) return null;
  const counts = new Map<Script, number>();
  let letters = 0;
  for (const ch of text) {
    const found = SCRIPTS.find(([, re]) => re.test(ch));
    if (!found) continue;
    letters++;
    counts.set(found[0], (counts.get(found[0]) ?? 0) + 1);
  }
  if (letters < MIN_LETTERS) return null;
  const inExpected = expected.reduce((n, s) => n + (counts.get(s) ?? 0), 0);
  // Mostly the expected script (English words inside Chinese speech are normal): no notice.
  if (inExpected / letters >= 0.5) return null;
  const [main] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
  let asked = requested;
  try {
    asked = languageNames.of(primaryLanguage(requested)) ?? requested;
  } catch {
    // not a BCP 47 tag: the code as given
  }
  return `识别出的文字主要是${SCRIPT_NAMES[main]}，与所选的语言「${asked}」不一致：请确认音频的语言，或选择「自动检测」后重新识别。`;
}
