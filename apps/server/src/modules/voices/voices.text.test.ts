import { describe, expect, it } from 'vitest';
import { pieceTimes, planSentences, spokenWords } from './voices.text.ts';

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
    expect(unit.pieces.map((p) => ('text' in p ? { text: p.text, weight: p.weight } : p))).toEqual([
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

describe('spokenWords', () => {
  it('times words by the engine’s word timings when it reports them, else shares the sentence out', () => {
    const [unit] = planSentences('银行有1234人。', true, { language: 'zh' });
    const text = (unit.segments[0] as { text: string }).text;
    // Word timings as an engine reports them: offsets in the segment's text, ms from the unit start.
    const at = (s: string) => text.indexOf(s);
    const timings = [
      { kind: 'word', segment: 0, start: at('银'), end: at('银') + 1, startMs: 0, endMs: 300 },
      { kind: 'word', segment: 0, start: at('行'), end: at('行') + 1, startMs: 300, endMs: 500 },
      { kind: 'word', segment: 0, start: at('有'), end: at('有') + 1, startMs: 500, endMs: 700 },
      { kind: 'word', segment: 0, start: at('一千'), end: at('一千') + 2, startMs: 700, endMs: 1000 },
      { kind: 'word', segment: 0, start: at('二百'), end: at('四') + 1, startMs: 1000, endMs: 2400 },
      { kind: 'word', segment: 0, start: at('人'), end: at('人') + 1, startMs: 2400, endMs: 2600 },
    ];
    const sentence = { start_ms: 1000, end_ms: 3800 };
    const timed = spokenWords([unit], [sentence], [pieceTimes(unit, timings)]);
    expect(timed.map((w) => [w.text, w.start_ms, w.end_ms])).toEqual([
      ['银行', 1000, 1500],
      ['有', 1500, 1700],
      ['1234', 1700, 3400],
      ['人。', 3400, 3600],
    ]);
    // Without timings: the sentence's 2.8 s shared by what is said (11 syllables, 7 of them 1234's).
    const shared = spokenWords([unit], [sentence]);
    expect(shared.map((w) => w.text)).toEqual(['银行', '有', '1234', '人。']);
    expect(shared[2].end_ms - shared[2].start_ms).toBeCloseTo((7 * 2800) / 11, 5);
  });
});
