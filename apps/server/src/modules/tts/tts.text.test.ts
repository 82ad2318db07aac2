import { describe, expect, it } from 'vitest';
import { planSentences } from './tts.text.ts';

describe('planSentences', () => {
  it('keeps offsets into the marked-up text, folds pauses in and writes pinyin inline', () => {
    const text = '我们去银行。<break time="500ms"/>他<phoneme ph="xing2">行</phoneme>走了！';
    const units = planSentences(text, true);
    expect(units).toHaveLength(2);
    expect(text.slice(units[0].start, units[0].end)).toBe('我们去银行。');
    expect(units[1].plain).toBe('他行走了！');
    expect(units[1].segments).toEqual([{ pauseMs: 500 }, { text: '他 xing2 走了！' }]);
    expect(text.slice(units[1].start, units[1].end)).toBe(text.slice(units[0].end));
    expect(planSentences(text, false)[1].segments).toEqual([{ pauseMs: 500 }, { text: '他行走了！' }]);
  });

  it('joins a trailing pause to the last sentence', () => {
    const units = planSentences('你好。<break time="1s"/>', true);
    expect(units).toHaveLength(1);
    expect(units[0].segments).toEqual([{ text: '你好。' }, { pauseMs: 1000 }]);
  });
});

describe('planSentences: the reading layer', () => {
  it('hands a Chinese voice the normalised reading, keeps the written text shown and weighs what is said', () => {
    const [unit] = planSentences('共1234人用AI。', false, { language: 'zh' });
    expect(unit.plain).toBe('共1234人用AI。');
    expect(unit.segments).toEqual([{ text: '共一千二百三十四人用 A I 。' }]);
    expect(unit.pieces).toEqual([
      { text: '共', weight: 1 },
      { text: '1234', weight: 7 },
      { text: '人', weight: 1 },
      { text: '用', weight: 1 },
      { text: 'AI', weight: 2 },
      { text: '。', weight: 0 },
    ]);
  });

  it('leaves other languages and marked readings alone', () => {
    expect(planSentences('I have 2 cats.', false, { language: 'en-US' })[0].segments).toEqual([
      { text: 'I have 2 cats.' },
    ]);
    const marked = planSentences('第<phoneme ph="di4">2</phoneme>个', true, { language: 'zh' })[0];
    expect(marked.segments).toEqual([{ text: '第 di4 个' }]);
  });
});
