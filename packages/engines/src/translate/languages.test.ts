import { DEFAULT_SUBTITLE_RULES, LATIN_SUBTITLE_RULES, subtitleRulesFor } from '@vw/contract';
import { describe, expect, it } from 'vitest';
import { guessLanguage } from './languages.ts';

describe('guessLanguage', () => {
  it('tells the language of subtitle text by its script', () => {
    expect(guessLanguage(['今天天气很好。', '我们去公园吧！'])).toBe('zh');
    // Kanji with a little kana is Japanese, not Chinese.
    expect(guessLanguage(['今日は天気がいい', '公園へ行こう'])).toBe('ja');
    expect(guessLanguage(['안녕하세요', '반갑습니다'])).toBe('ko');
    expect(guessLanguage(['Привет, как дела?'])).toBe('ru');
    // A brand name inside Chinese does not make it English; Latin text alone is not told apart.
    expect(guessLanguage(['我用 iPhone 拍的视频'])).toBe('zh');
    expect(guessLanguage(['Hello there', 'Bonjour'])).toBeUndefined();
    expect(guessLanguage(['123 …', ''])).toBeUndefined();
  });
});

describe('subtitleRulesFor', () => {
  it('counts CJK by characters and alphabetic languages by the Netflix 42 / 17 limits', () => {
    expect(subtitleRulesFor('zh')).toEqual(DEFAULT_SUBTITLE_RULES);
    expect(subtitleRulesFor('zh-Hant')).toEqual(DEFAULT_SUBTITLE_RULES);
    expect(subtitleRulesFor('ja')).toEqual(DEFAULT_SUBTITLE_RULES);
    expect(subtitleRulesFor('en')).toEqual(LATIN_SUBTITLE_RULES);
    expect(subtitleRulesFor('fr')).toMatchObject({ max_chars_per_line: 42, max_cps: 17, max_lines: 2 });
  });
});
