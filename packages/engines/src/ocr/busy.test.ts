import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBusyClip } from './busyclip.ts';
import { createOcrPool } from './pool.ts';
import type { OcrEngine } from './types.ts';
import { recognizeVideo } from './video.ts';

let dir: string;
let engine: OcrEngine;
let clip: string;

// Yellow text in a faint box over grain and a moving fractal: the text-pixel mask misses the first
// cue for over a second and the second one for a second in its middle (light picture behind it),
// which the pixel-change detector took for an empty band — 2000–3320, 3320–3800 and 4760–5600.
const CUES = [
  { text: '我们今天在公园里等了3个小时\nRoom 42 at 7 pm', start_ms: 400, end_ms: 3300 },
  { text: '这是第二句很长的字幕', start_ms: 3300, end_ms: 5600 },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-ocr-busy-'));
  engine = createOcrPool();
  clip = join(dir, 'busy.mp4');
  await makeBusyClip(clip, {
    width: 640,
    height: 360,
    duration_ms: 6000,
    seed: 3,
    boxOpacity: 0.15,
    cues: CUES,
  });
}, 240_000);

afterAll(async () => {
  await engine?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('subtitle OCR on a busy background', () => {
  it('follows the text, not the pixels: each cue whole, with its text and times', async () => {
    const res = await recognizeVideo(clip, { engine, regions: [{ x: 0, y: 0.7, w: 1, h: 0.3 }] });
    const zh = res.tracks.find((t) => t.script === 'zh');
    const latin = res.tracks.find((t) => t.script === 'latin');
    expect(zh?.cues.map((c) => c.text)).toEqual(['我们今天在公园里等了3个小时', '这是第二句很长的字幕']);
    zh?.cues.forEach((c, i) => {
      expect(Math.abs(c.start_ms - CUES[i].start_ms)).toBeLessThanOrEqual(200);
      expect(Math.abs(c.end_ms - CUES[i].end_ms)).toBeLessThanOrEqual(200);
    });
    // Grain changes the band at every sample; still not every sample is read, only about one a
    // second of each cue, more where its reads disagree, and those around its changes (19 of 25 here;
    // 21 when every sample whose mask changed was read).
    expect(res.frames_recognised).toBeLessThan(res.frames_sampled * 0.8);
    expect(latin?.cues).toHaveLength(1);
    expect(latin?.cues[0].text.replace(/\s+/g, '')).toBe('Room42at7pm');
  }, 240_000);
});
