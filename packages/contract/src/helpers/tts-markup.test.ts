import { describe, expect, it } from 'vitest';
import {
  breakTag,
  countTtsCharacters,
  isPinyin,
  parseTtsMarkup,
  phonemeTag,
  stripTtsMarkup,
} from './tts-markup.ts';

describe('tts markup', () => {
  it('parses pauses and pinyin overrides', () => {
    const text = `银行${breakTag(500)}前面${phonemeTag('行', 'xing2')}走<break time="1.5s"/>好`;
    expect(parseTtsMarkup(text)).toMatchObject([
      { type: 'text', text: '银行' },
      { type: 'pause', ms: 500 },
      { type: 'text', text: '前面' },
      { type: 'phoneme', text: '行', pinyin: 'xing2' },
      { type: 'text', text: '走' },
      { type: 'pause', ms: 1500 },
      { type: 'text', text: '好' },
    ]);
    expect(stripTtsMarkup(text)).toBe('银行前面行走好');
    expect(countTtsCharacters(`${text} a b`)).toBe(9);
  });

  it('clamps pauses and keeps unknown markup as text', () => {
    expect(parseTtsMarkup('<break time="60s"/>')).toEqual([{ type: 'pause', ms: 10_000, start: 0, end: 19 }]);
    const p = parseTtsMarkup('ab<phoneme ph="hang2">行</phoneme>c');
    expect(p.map((x) => [x.start, x.end])).toEqual([
      [0, 2],
      [2, 33],
      [33, 34],
    ]);
    expect(stripTtsMarkup('a < b <phoneme ph="x">行</phoneme>')).toBe('a < b 行');
    expect(isPinyin('yin2 hang2')).toBe(true);
    expect(isPinyin('yin hang')).toBe(false);
  });
});
