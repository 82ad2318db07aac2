import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSubtitledClip } from '../media/testclips.ts';
import { grabFrame } from './frames.ts';
import { createOcrPool } from './pool.ts';
import type { Box, OcrEngine } from './types.ts';

const squeeze = (s: string) => s.replace(/\s+/g, '');
const ZH = '我们一起去公园散步';
const EN = 'Let us go to the park';

let dir: string;
let engine: OcrEngine;
let frame: string;
let drawn: Box;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-ocr-pool-'));
  engine = createOcrPool({ size: 1 });
  const clip = join(dir, 'clip.mp4');
  const made = await makeSubtitledClip(clip, {
    width: 640,
    height: 360,
    duration_ms: 1200,
    background: 'still',
    cues: [{ text: `${ZH}\n${EN}`, start_ms: 0, end_ms: 1200, position: 'bottom', lines: 2 }],
  });
  drawn = made.boxes[0];
  frame = join(dir, 'frame.jpg');
  await grabFrame(clip, 600, frame);
}, 60_000);

afterAll(async () => {
  await engine?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('PP-OCRv4 helper pool', () => {
  it('reads each line of a picture with its box where the text was drawn', async () => {
    const lines = await engine.recognize(frame);
    expect(lines.map((l) => squeeze(l.text))).toEqual([ZH, squeeze(EN)]);
    // Boxes are in the picture's own coordinates (not shifted by the detector's padding): the two
    // lines stack inside the drawn box, top one first.
    const [zh, en] = lines;
    for (const l of lines) {
      const mid = l.box.y + l.box.h / 2;
      expect(mid).toBeGreaterThan(drawn.y);
      expect(mid).toBeLessThan(drawn.y + drawn.h);
      expect(Math.abs(l.box.x + l.box.w / 2 - 0.5)).toBeLessThan(0.03);
    }
    expect(zh.box.y + zh.box.h / 2).toBeLessThan(en.box.y);
  }, 30_000);
});
