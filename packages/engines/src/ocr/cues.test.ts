import { describe, expect, it } from 'vitest';
import type { VideoInfo } from './frames.ts';
import { buildCues, type SampleResult } from './video.ts';

const region = { x: 0, y: 0.8, w: 1, h: 0.2 };
const info: VideoInfo = {
  width: 1280,
  height: 720,
  durationMs: 60_000,
  fps: 25,
  bitRate: 4e6,
  pixFmt: 'yuv420p',
  hasAudio: false,
};
const STEP = 6;

/** One sample per entry, STEP frames apart: a text read there, '' for nothing read, '|' for a blank band. */
function samples(reads: string[]): SampleResult[] {
  return reads.map((r, i) => ({
    n: i * STEP,
    from: i * STEP,
    blank: r === '|',
    lines: r && r !== '|' ? [{ text: r, score: 0.95, box: { x: 0.3, y: 0.4, w: 0.4, h: 0.3 } }] : [],
  }));
}

const cues = (reads: string[]) =>
  buildCues(samples(reads), region, 'zh', info, STEP).map((c) => [c.text, c.start_ms, c.end_ms]);

describe('cues from the samples of a busy band', () => {
  it('joins a cue read again after ~1.2 s the grain hid (more than MAX_GAP unread samples)', () => {
    const A = '活解设他天这实';
    expect(cues([A, A, '', '', '', '', '', A, A, '|'])).toEqual([[A, 0, 2160]]);
  });

  it('joins a part of a cue read before the whole at its place, not one read elsewhere', () => {
    const at = (text: string, x: number, w: number) => [{ text, score: 0.95, box: { x, y: 0.4, w, h: 0.3 } }];
    const run = (partX: number) => {
      const s = samples(['', '', '', '', '', '', '', '', '|']);
      s[6].lines = at('计分子月四', 0.35, 0.3);
      s[7].lines = at('计分子月四', 0.35, 0.3);
      s[0].lines = at('月四', partX, 0.12);
      return buildCues(s, region, 'zh', info, STEP).map((c) => c.text);
    };
    expect(run(0.53)).toEqual(['计分子月四']);
    expect(run(0.05)).toEqual(['月四', '计分子月四']);
  });

  it('drops a misread read once or twice between two reads of one cue', () => {
    const A = '心平量它关';
    expect(cues([A, A, A, '平量包天', '平量包天', '', A, '|'])).toEqual([[A, 0, 1680]]);
    expect(cues([A, A, A, '平量包天', '平量包天', '平量包天', A, '|'])).toHaveLength(3);
  });

  it('keeps two cues apart when the band went blank between them, or the hidden stretch was too long', () => {
    const A = '活解设他天这实';
    expect(cues([A, A, '', '|', '', A, A])).toHaveLength(2);
    expect(cues([A, A, ...Array(10).fill(''), A, A])).toHaveLength(2);
  });

  it('keeps different texts apart', () => {
    expect(cues(['今天天气很好', '', '', '', '', '', '我们一起去公园'])).toHaveLength(2);
  });
});
