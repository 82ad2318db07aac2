import { describe, expect, it } from 'vitest';
import { isSpeakerName, speakerPrefix, withoutDialogueDashes } from './speakers.ts';

/*
 * Lines as real subtitle files write them (interviews, dramas, news, vlogs, fansubs): speaker labels
 * are read off, sentences that merely contain a colon are kept whole.
 */

describe('speakerPrefix', () => {
  it('reads the labels subtitle files use for speakers', () => {
    const labelled: Array<[string, string, string]> = [
      ['张三：你好，今天怎么样？', '张三', '你好，今天怎么样？'],
      ['小明：大家好，欢迎收看。', '小明', '大家好，欢迎收看。'],
      ['旁白：很久很久以前，在一座山里。', '旁白', '很久很久以前，在一座山里。'],
      ['主持人：欢迎来到今天的节目。', '主持人', '欢迎来到今天的节目。'],
      ['男：你去哪儿？', '男', '你去哪儿？'],
      ['嘉宾A: 我觉得这个问题很有意思。', '嘉宾A', '我觉得这个问题很有意思。'],
      ['欧阳娜娜：谢谢大家。', '欧阳娜娜', '谢谢大家。'],
      ['迈克尔·杰克逊：再见。', '迈克尔·杰克逊', '再见。'],
      ['[李雷] 我们走吧。', '李雷', '我们走吧。'],
      ['【韩梅梅】等等我！', '韩梅梅', '等等我！'],
      ['李雷：“你好。”', '李雷', '“你好。”'],
      ['Alice: Hello there', 'Alice', 'Hello there'],
      ['Dr. Smith: Take a seat.', 'Dr. Smith', 'Take a seat.'],
      ['SPEAKER_01: so what happened next', 'SPEAKER_01', 'so what happened next'],
    ];
    for (const [line, speaker, text] of labelled)
      expect(speakerPrefix(line), line).toEqual({ speaker, text });
  });

  it('keeps sentences whose opening clause ends in a colon', () => {
    const sentences = [
      '她说：我明天就回来。',
      '他笑着说：那你可要小心了。',
      '一位乘客告诉我们：车晚点了两个小时。',
      '记者问：这件事您怎么看？',
      '老师说：同学们，安静一下。',
      '我想告诉你：我一直都在。',
      '大家注意：列车即将进站。',
      '同学们：今天我们学习第三课。',
      '注意：前方施工，请绕行。',
      '第一：不要迟到。',
      '这就是结果：我们输了。',
      '他：好吧。',
      '老牛说：“水很浅，你过得去。”',
      '小马问：“牛伯伯，水深吗？”',
      '克里希纳在会谈结束后说：“我对进展表示满意。”',
      '有人会说：“这不可能。”',
      '王总经理表示：今年的目标已经完成。',
      '10:30 我们出发',
      '时间：晚上八点',
      'https://example.com 看这里',
      'He said: we leave at dawn.',
      'Note: this is not a drill.',
      '[笑] 好的',
      '[音乐]',
      '【掌声】谢谢',
      '[Music] la la la',
      '张三：',
      '他说，真的吗：不会吧',
    ];
    for (const line of sentences) expect(speakerPrefix(line), line).toBeNull();
  });

  it('never takes a clause for a name', () => {
    for (const clause of ['她说', '他笑着说', '一位乘客告诉我们', '有人喊', '大家', '这个人', '那位先生'])
      expect(isSpeakerName(clause), clause).toBe(false);
    for (const name of ['张三', '李华', '主持人', '旁白', '女记者', '男1'])
      expect(isSpeakerName(name), name).toBe(true);
  });
});

describe('withoutDialogueDashes', () => {
  it('drops dialogue dashes, not minus signs or long dashes', () => {
    expect(withoutDialogueDashes('- 你去哪儿？\n- 回家。')).toBe('你去哪儿？\n回家。');
    expect(withoutDialogueDashes('-你好\n-你也好')).toBe('你好\n你也好');
    expect(withoutDialogueDashes('-5 度，很冷')).toBe('-5 度，很冷');
    expect(withoutDialogueDashes('——我不同意。')).toBe('——我不同意。');
  });
});
