import { describe, expect, it } from 'vitest';
import { parseRecognizerLanguage } from './pipeline.ts';
import {
  assignSpeakers,
  assignWords,
  joinTexts,
  offsetSegment,
  splitWords,
  spreadWords,
  wordsFromTokens,
} from './timing.ts';
import type { AsrSegment } from './types.ts';

describe('words of a text', () => {
  it('splits CJK by character, spaced scripts by spaces, and keeps punctuation on the word before', () => {
    expect(splitWords('你好，世界。Hello, big world! 안녕 하세요')).toEqual([
      '你',
      '好，',
      '世',
      '界。',
      'Hello,',
      'big',
      'world!',
      '안녕',
      '하세요',
    ]);
  });

  it('spreads a segment over its characters, punctuation weighing nothing', () => {
    expect(spreadWords('你好，hello', 1000, 2400)).toEqual([
      { text: '你', startMs: 1000, endMs: 1200 },
      { text: '好，', startMs: 1200, endMs: 1400 },
      { text: 'hello', startMs: 1400, endMs: 2400 },
    ]);
    expect(spreadWords('', 0, 1000)).toEqual([]);
  });

  it('joins texts with spaces only between spaced scripts', () => {
    expect(joinTexts(['你好。', '我们走吧', 'OK then', ' done. ', '', '好'])).toBe(
      '你好。我们走吧OK then done.好',
    );
  });
});

describe('words from recognizer tokens', () => {
  it('groups SentencePiece pieces and CJK characters, offset to file time', () => {
    const words = wordsFromTokens(
      {
        tokens: ['<|en|>', '▁he', 'llo', '▁world', ',', '你', '好'],
        timestamps: [0, 0.1, 0.3, 0.6, 0.9, 1.0, 1.2],
      },
      5000,
      6500,
    );
    expect(words).toEqual([
      { text: 'hello', startMs: 5100, endMs: 5600 },
      { text: 'world,', startMs: 5600, endMs: 6000 },
      { text: '你', startMs: 6000, endMs: 6200 },
      { text: '好', startMs: 6200, endMs: 6500 },
    ]);
  });

  it("joins paraformer's @@ continuations and uses durations when given", () => {
    expect(
      wordsFromTokens(
        { tokens: ['good@@', 'bye', 'now'], timestamps: [0, 0.2, 0.5], durations: [0.2, 0.2, 0.3] },
        0,
        10_000,
      ),
    ).toEqual([
      { text: 'goodbye', startMs: 0, endMs: 400 },
      { text: 'now', startMs: 500, endMs: 800 },
    ]);
  });

  it('says when there are no token times, so the caller spreads instead', () => {
    expect(wordsFromTokens({ tokens: ['a', 'b'], timestamps: [] }, 0, 1000)).toBeUndefined();
    expect(wordsFromTokens({ tokens: [], timestamps: [] }, 0, 1000)).toBeUndefined();
  });
});

const segment = (id: number, startMs: number, endMs: number, text = `s${id}`): AsrSegment => ({
  id,
  startMs,
  endMs,
  text,
  words: [{ text, startMs, endMs }],
});

describe('segments', () => {
  it('gives each word to the segment its middle falls in, or the nearest', () => {
    const w = (text: string, startMs: number, endMs: number) => ({ text, startMs, endMs });
    const words = [w('a', 0, 400), w('b', 1100, 1500), w('c', 1500, 1600), w('d', 3000, 3100)];
    expect(assignWords([segment(0, 0, 1000), segment(1, 1400, 2000)], words)).toEqual([
      [words[0]],
      [words[1], words[2], words[3]],
    ]);
  });

  it('moves a chunk segment and its words to file time', () => {
    expect(offsetSegment(segment(0, 100, 900), 60_000, 7)).toEqual({
      id: 7,
      startMs: 60_100,
      endMs: 60_900,
      text: 's0',
      words: [{ text: 's0', startMs: 60_100, endMs: 60_900 }],
    });
  });

  it('labels speakers by most talk, numbered in order of appearance', () => {
    const turns = [
      { startMs: 0, endMs: 1200, speaker: 4 },
      { startMs: 1200, endMs: 3000, speaker: 1 },
      { startMs: 3000, endMs: 4000, speaker: 4 },
    ];
    const out = assignSpeakers(
      [segment(0, 0, 1000), segment(1, 1000, 2900), segment(2, 3100, 3900), segment(3, 5000, 6000)],
      turns,
    );
    expect(out.map((s) => s.speaker)).toEqual(['S1', 'S2', 'S1', undefined]);
  });

  it("reads the recognizer's language tag", () => {
    expect(parseRecognizerLanguage('<|zh|>')).toBe('zh');
    expect(parseRecognizerLanguage('en')).toBe('en');
    expect(parseRecognizerLanguage('<|nospeech|>')).toBeUndefined();
    expect(parseRecognizerLanguage('')).toBeUndefined();
  });
});
