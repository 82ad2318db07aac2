import { checkCues, DEFAULT_SUBTITLE_RULES, parseSubtitles } from '@vw/contract';
import { describe, expect, it } from 'vitest';
import { toChapterSrt } from './audiobook.export.ts';

describe('toChapterSrt', () => {
  it('cuts long paragraphs into cues that follow the subtitle rules and show the written text', () => {
    const paragraph = `他在2024年3月5日回到了故乡，${'村口的老槐树还在那里静静地站着，'.repeat(3)}仿佛一切都没有改变。`;
    const second = '“你回来啦！”母亲说。';
    const cues = parseSubtitles(
      toChapterSrt([
        { key: 'a', text: paragraph, start_ms: 500, end_ms: 500 + 16_000 },
        { key: 'b', text: second, start_ms: 17_300, end_ms: 19_800 },
      ]),
    );
    expect(cues.length).toBeGreaterThan(3);
    expect(checkCues(cues, DEFAULT_SUBTITLE_RULES).flat()).toEqual([]);
    expect(cues.map((c) => c.text.replace(/\n/g, '')).join('')).toBe(paragraph + second);
    expect(cues[0].start_ms).toBe(500);
    // A paragraph's cues stay inside its time; the next paragraph starts its own cue.
    expect(cues.find((c) => c.text.startsWith('“你回来啦'))?.start_ms).toBe(17_300);
  });
});
