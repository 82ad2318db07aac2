import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentences.ts';

const texts = (text: string, max?: number) => splitSentences(text, max).map((p) => p.text);

describe('splitSentences', () => {
  it('splits Chinese and English at terminators and newlines, keeping closing quotes', () => {
    expect(texts('你好！今天下雨吗？“下雨了。”他说；好的\n第二段。Hello there. Pi is 3.14! Ok')).toEqual([
      '你好！',
      '今天下雨吗？',
      '“下雨了。”',
      '他说；',
      '好的',
      '第二段。',
      'Hello there.',
      'Pi is 3.14!',
      'Ok',
    ]);
  });

  it('keeps offsets into the original text', () => {
    const text = '  第一句。  第二句？！ ';
    for (const p of splitSentences(text)) expect(text.slice(p.start, p.end)).toBe(p.text);
    expect(texts(text)).toEqual(['第一句。', '第二句？！']);
  });

  it('cuts long sentences at commas, then spaces, then hard', () => {
    const long = `${'一二三四五六七八，'.repeat(5)}。`;
    const pieces = splitSentences(long, 20);
    expect(pieces.every((p) => p.text.length <= 20)).toBe(true);
    expect(pieces[0].text).toBe('一二三四五六七八，一二三四五六七八，');
    expect(pieces.map((p) => p.text).join('')).toBe(long);
    expect(texts('a'.repeat(25), 10)).toEqual(['aaaaaaaaaa', 'aaaaaaaaaa', 'aaaaa']);
    expect(texts('word '.repeat(6).trim(), 12)).toEqual(['word word', 'word word', 'word word']);
  });

  it('drops blank input', () => {
    expect(splitSentences(' \n\n ')).toEqual([]);
  });
});
