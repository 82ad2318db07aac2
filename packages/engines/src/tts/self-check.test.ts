import { describe, expect, it } from 'vitest';
import {
  addSelfCheckFigures,
  alignUnits,
  compareSpeech,
  type SentenceCheck,
  selfCheckFigures,
  speechUnits,
} from './self-check.ts';

describe('speechUnits', () => {
  it('reads numbers the way the voice says them, so written and spoken forms are the same units', () => {
    expect(speechUnits('今年是2024年。')).toEqual(speechUnits('今年是二〇二四年'));
    expect(speechUnits('今年是2024年。')).toEqual(speechUnits('今年是二零二四年！'));
    expect(speechUnits('价格是15元')).toEqual(speechUnits('价格是十五元'));
    expect(speechUnits('我有2个苹果')).toEqual(speechUnits('我有二个苹果'));
  });

  it('drops punctuation, case and width, keeps Latin words whole', () => {
    expect(speechUnits('你好，World！', 'en')).toEqual(['你', '好', 'world']);
    expect(speechUnits('Hello, big world.', 'en')).toEqual(['hello', 'big', 'world']);
    expect(speechUnits('ＡＢＣ', 'en')).toEqual(['abc']);
  });
});

describe('alignUnits', () => {
  it('tells dropped, extra and changed units apart', () => {
    const steps = alignUnits([...'我们一起去'], [...'我们去了']);
    expect(steps.map((s) => s.kind)).toEqual(['same', 'same', 'dropped', 'dropped', 'same', 'extra']);
    expect(alignUnits([...'天气'], [...'天汽']).map((s) => s.kind)).toEqual(['same', 'changed']);
  });
});

describe('compareSpeech', () => {
  const clean = [
    ['他们一起走向公园，心情非常愉快。', '他们一起走向公园心情非常愉快'],
    ['今年是2024年，比去年多了15%。', '今年是二零二四年比去年多了百分之十五'],
    ['会议在3月5日下午3点开始。', '会议在三月五日下午三点开始'],
    ['Hello, world!', 'hello world'],
  ] as const;

  it('passes a sentence heard as written (numbers and punctuation in either form)', () => {
    for (const [text, heard] of clean) {
      const c = compareSpeech(text, heard);
      expect(c, text).toMatchObject({ cer: 0, problem: null, dropped: [], repeated: [], extra: [] });
    }
  });

  it('passes one unit changed by the recognizer in a long sentence', () => {
    const c = compareSpeech('他们一起走向公园，心情非常愉快。', '他们一起走向公园心情非常愉怪');
    expect(c.problem).toBeNull();
    expect(c.cer).toBeCloseTo(1 / 14, 3);
  });

  it('catches a dropped word and names it', () => {
    const c = compareSpeech('他们一起走向公园，心情非常愉快。', '他们走向公园心情非常愉快');
    expect(c).toMatchObject({ problem: 'dropped', dropped: ['一起'], repeated: [], extra: [] });
    expect(c.cer).toBeCloseTo(2 / 14, 3);
  });

  it('catches a repeated word whichever side the recognizer aligns it to', () => {
    const c = compareSpeech('今天天气很好。', '今天天气天气很好');
    expect(c).toMatchObject({ problem: 'repeated', repeated: ['天气'], dropped: [] });
    expect(compareSpeech('我们走向公园', '我们走向走向公园')).toMatchObject({ repeated: ['走向'] });
    expect(compareSpeech('see you later', 'see you you later', { language: 'en' })).toMatchObject({
      problem: 'repeated',
      repeated: ['you'],
    });
  });

  it('catches extra words that are not a repeat', () => {
    const c = compareSpeech('今天天气很好。', '今天天气真的非常很好');
    expect(c).toMatchObject({ problem: 'extra', extra: ['真的非常'], repeated: [] });
  });

  it('flags a sentence that is simply something else', () => {
    const c = compareSpeech('清晨的街道很安静。', '他们一起走向公园');
    expect(c.problem).not.toBeNull();
    expect(c.cer).toBeGreaterThan(0.5);
    expect(compareSpeech('清晨的街道很安静。', '').problem).toBe('dropped');
  });
});

describe('selfCheckFigures', () => {
  const check = (
    status: SentenceCheck['status'],
    cer: number,
    attempts: number,
    ms: number,
  ): SentenceCheck => ({
    status,
    cer,
    heard: '',
    problem: status === 'flagged' ? 'dropped' : null,
    attempts,
    ms,
  });

  it('counts checked, regenerated and flagged sentences with the mean error rate and time', () => {
    const f = selfCheckFigures([
      check('passed', 0, 1, 10),
      check('passed', 0.1, 2, 30),
      check('flagged', 0.2, 3, 60),
    ]);
    expect(f).toEqual({ ran: true, checked: 3, regenerated: 2, flagged: 1, mean_cer: 0.1, ms: 100 });
    expect(selfCheckFigures([undefined, null])).toEqual({
      ran: false,
      checked: 0,
      regenerated: 0,
      flagged: 0,
      mean_cer: 0,
      ms: 0,
    });
    expect(addSelfCheckFigures(f, selfCheckFigures([check('passed', 0.3, 1, 5)]))).toEqual({
      ran: true,
      checked: 4,
      regenerated: 2,
      flagged: 1,
      mean_cer: 0.15,
      ms: 105,
    });
  });
});
