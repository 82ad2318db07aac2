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
