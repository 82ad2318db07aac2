import { describe, expect, it } from 'vitest';
import { compareTranscript, parseSrtDubbingMarks } from './marks.ts';

describe('parseSrtDubbingMarks', () => {
  it('reads a speaker prefix with a full- or half-width colon', () => {
    expect(parseSrtDubbingMarks('小明：你好，今天怎么样？')).toEqual({
      speaker: '小明',
      text: '你好，今天怎么样？',
    });
    expect(parseSrtDubbingMarks('Alice: Hello there')).toEqual({ speaker: 'Alice', text: 'Hello there' });
    expect(parseSrtDubbingMarks('旁白 : 很久以前')).toEqual({ speaker: '旁白', text: '很久以前' });
  });

  it('reads mute and keep marks, alone or with a speaker, ASCII or full-width brackets', () => {
    expect(parseSrtDubbingMarks('[静音]')).toEqual({ mark: 'mute', text: '' });
    expect(parseSrtDubbingMarks('[mute] (music)')).toEqual({ mark: 'mute', text: '(music)' });
    expect(parseSrtDubbingMarks('【保留原声】欢呼声')).toEqual({ mark: 'keep', text: '欢呼声' });
    expect(parseSrtDubbingMarks('[KEEP] crowd')).toEqual({ mark: 'keep', text: 'crowd' });
    expect(parseSrtDubbingMarks('老王：[静音]嗯')).toEqual({ speaker: '老王', mark: 'mute', text: '嗯' });
  });

  it('does not take times, URLs, sentences or other brackets for marks or speakers', () => {
    expect(parseSrtDubbingMarks('10:30 我们出发')).toEqual({ text: '10:30 我们出发' });
    expect(parseSrtDubbingMarks('https://example.com 看这里')).toEqual({
      text: 'https://example.com 看这里',
    });
    expect(parseSrtDubbingMarks('他说，真的吗：不会吧')).toEqual({ text: '他说，真的吗：不会吧' });
    expect(parseSrtDubbingMarks('[笑] 好的')).toEqual({ text: '[笑] 好的' });
  });

  it('keeps a sentence whose first clause ends in a colon; reads [名字] labels and dialogue dashes', () => {
    for (const line of ['她说：我明天就回来。', '他笑着说：那你可要小心了。', '一位乘客告诉我们：车晚点了。'])
      expect(parseSrtDubbingMarks(line), line).toEqual({ text: line });
    expect(parseSrtDubbingMarks('[李雷] 我们走吧。')).toEqual({ speaker: '李雷', text: '我们走吧。' });
    expect(parseSrtDubbingMarks('【静音】[李雷] 嗯')).toEqual({ speaker: '李雷', mark: 'mute', text: '嗯' });
    expect(parseSrtDubbingMarks('- 你去哪儿？\n- 回家。')).toEqual({ text: '你去哪儿？\n回家。' });
    expect(parseSrtDubbingMarks('- 张三：走吧')).toEqual({ speaker: '张三', text: '走吧' });
  });
});

describe('compareTranscript', () => {
  it('compares Chinese character by character, ignoring punctuation and width', () => {
    expect(compareTranscript('今天天气很好。', '今天天气很好')).toBe(1);
    expect(compareTranscript('今天天气很好', '今天天汽很好')).toBeCloseTo(5 / 6, 5);
    expect(compareTranscript('今天天气很好', '明天下雨')).toBeLessThan(0.4);
  });

  it('compares Latin text word by word, case-insensitive', () => {
    expect(compareTranscript('Hello, World!', 'hello world')).toBe(1);
    expect(compareTranscript('the quick brown fox', 'the quick brown box')).toBe(0.75);
    expect(compareTranscript('mixed 中文 text', 'mixed 中文 test')).toBeCloseTo(3 / 4, 5);
  });

  it('handles empty sides', () => {
    expect(compareTranscript('', '')).toBe(1);
    expect(compareTranscript('你好', '')).toBe(0);
  });
});
