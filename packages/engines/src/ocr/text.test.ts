import { describe, expect, it } from 'vitest';
import { sameCueText, substringDistance, textPartOf, voteText } from './text.ts';

describe('reads of one cue', () => {
  it('joins a read that lost a line or a few characters, not a different line', () => {
    expect(sameCueText('我们今天在公园里', '我们今天在公园里\n第二行字幕', 0.6)).toBe(true);
    expect(sameCueText('我们今夭在公园', '我们今天在公园里', 0.6)).toBe(true);
    expect(sameCueText('这是第二句字幕', '我们今天在公园里', 0.6)).toBe(false);
    // Short texts are parts of too many lines to be joined as a part.
    expect(sameCueText('好的', '好的我们走吧明天见', 0.6)).toBe(false);
    expect(substringDistance('公园', '我们在公园里')).toBe(0);
  });

  it('votes each character over the reads', () => {
    const reads = [
      { text: '我们今天在公园', score: 0.9 },
      { text: '我们今夭在公园', score: 0.8 },
      { text: '我们令天在公园', score: 0.85 },
      { text: '我们今天在公', score: 0.95 },
    ];
    expect(voteText(reads)).toBe('我们今天在公园');
    expect(voteText([])).toBe('');
  });

  it('never lets a partial read win over a longer read that contains it', () => {
    // More frames read only the last letters: by agreement alone "月四" would win.
    const reads = [
      { text: '月四', score: 1 },
      { text: '月四', score: 1 },
      { text: '月四', score: 1 },
      { text: '计分子月四', score: 0.99 },
      { text: '计分子月四', score: 1 },
    ];
    expect(voteText(reads)).toBe('计分子月四');
    // A longer text read once is no proof (a stray mark read as a letter).
    expect(voteText([...reads.slice(0, 3), { text: '计分子月四', score: 1 }])).toBe('月四');
    // Nor a longer read with stray marks in it.
    const dotted = [
      { text: 'Gate353am73', score: 1 },
      { text: 'Gate353am73', score: 1 },
      { text: 'Gate353am73', score: 1 },
      { text: 'Gate353.am.73', score: 0.9 },
      { text: 'Gate353.am.73', score: 0.9 },
    ];
    expect(voteText(dotted)).toBe('Gate353am73');
    expect(textPartOf('月四', '计分子月四', 0.6)).toBe(true);
    expect(textPartOf('月五', '计分子月四', 0.6)).toBe(false);
    expect(textPartOf('计分子月四', '计分子月四', 0.6)).toBe(false);
  });
});
