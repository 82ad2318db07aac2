import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eraseVideo } from './erase.ts';
import { burnWatermark, lumaFrames, makeCleanClip, measure, type TruthMark } from './truth.ts';
import { findWatermarks, spansFromWatermarks } from './watermark.ts';
import { eraseWatermark } from './watermark-erase.ts';

const W = 480;
const H = 270;
const FPS = 25;
const SECONDS = 4.8;
const JUMP_MS = 2600;
const LOGO = { w: 96, h: 40 };
// Top left until the jump, then bottom right: a logo that moves between corners.
const MARKS: TruthMark[] = [
  { rect: { x: 16, y: 16, ...LOGO }, start_ms: 0, end_ms: JUMP_MS },
  { rect: { x: W - 16 - LOGO.w, y: H - 16 - LOGO.h, ...LOGO }, start_ms: JUMP_MS, end_ms: SECONDS * 1000 },
];

let dir: string;
let marked: string;
let clean: Uint8Array[];
let faceClean: string;
let faceMarked: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-watermark-test-'));
  const cleanClip = join(dir, 'clean.mp4');
  marked = join(dir, 'marked.mp4');
  await makeCleanClip(cleanClip, 'pan', { width: W, height: H, seconds: SECONDS });
  await burnWatermark(cleanClip, marked, MARKS, {});
  clean = await lumaFrames(cleanClip, W, H);
  faceClean = join(dir, 'face-clean.mp4');
  faceMarked = join(dir, 'face-marked.mp4');
  await makeCleanClip(faceClean, 'face', { width: W, height: H, seconds: SECONDS });
  await burnWatermark(faceClean, faceMarked, MARKS, {});
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('watermark: found per segment, filled from other frames', () => {
  it('finds the logo in each corner with its own time, and fill beats delogo inside its box', async () => {
    const found = await findWatermarks(marked);
    expect(found).toHaveLength(2);
    found.forEach((s, i) => {
      const truth = MARKS[i].rect;
      const px = { x: s.box.x * W, y: s.box.y * H, w: s.box.w * W, h: s.box.h * H };
      // Its edges: the plate's border, one pixel either side of it.
      expect(Math.abs(px.x - truth.x)).toBeLessThanOrEqual(3);
      expect(Math.abs(px.y - truth.y)).toBeLessThanOrEqual(3);
      expect(Math.abs(px.x + px.w - truth.x - truth.w)).toBeLessThanOrEqual(3);
      expect(Math.abs(px.y + px.h - truth.y - truth.h)).toBeLessThanOrEqual(3);
    });
    // The jump, to a frame or two.
    expect(found[0].start_ms).toBe(0);
    expect(Math.abs(found[0].end_ms - JUMP_MS)).toBeLessThanOrEqual(2 * (1000 / FPS));
    expect(found[1].start_ms).toBe(found[0].end_ms);
    expect(found[1].end_ms).toBeGreaterThanOrEqual(SECONDS * 1000 - 1000 / FPS);

    const spans = spansFromWatermarks(found, { padBox: 4 / W, marginMs: 80, durationMs: SECONDS * 1000 });
    const cues = MARKS.map((m) => ({ text: '', start_ms: m.start_ms, end_ms: m.end_ms - 1 }));
    const boxes = MARKS.map((m) => m.rect);
    const scores: Record<string, ReturnType<typeof measure>> = {};
    for (const method of ['fast', 'fill'] as const) {
      const out = join(dir, `${method}.mp4`);
      const result = await eraseWatermark(marked, out, { method, spans });
      if (method === 'fill') {
        // A texture passing under the logo cannot be predicted from around it: filled, not un-blended.
        expect(result.unblended_share).toBe(0);
        expect(result.temporal_share).toBeGreaterThan(0.8);
      }
      scores[method] = measure(clean, await lumaFrames(out, W, H), cues, boxes, {
        width: W,
        height: H,
        fps: FPS,
      });
    }
    expect(scores.fill.inBoxPsnr).toBeGreaterThanOrEqual(scores.fast.inBoxPsnr + 6);
    expect(scores.fill.outsidePsnr).toBeGreaterThanOrEqual(35);
  }, 240_000);

  it('looks only inside the given areas: a logo outside them is not found', async () => {
    const found = await findWatermarks(marked, { areas: [{ x: 0, y: 0, w: 0.5, h: 0.5 }] });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ area: 0, start_ms: 0 });
    expect(found[0].box.x * W).toBeLessThan(20);
    expect(Math.abs(found[0].end_ms - JUMP_MS)).toBeLessThanOrEqual(2 * (1000 / FPS));
  }, 60_000);

  it('un-blends a logo over smooth gradients: the grain under it comes back, closer than delogo or the fill', async () => {
    const truth = await lumaFrames(faceClean, W, H);
    const spans = spansFromWatermarks(await findWatermarks(faceMarked), {
      padBox: 4 / W,
      marginMs: 80,
      durationMs: SECONDS * 1000,
    });
    const cues = MARKS.map((m) => ({ text: '', start_ms: m.start_ms, end_ms: m.end_ms - 1 }));
    const boxes = MARKS.map((m) => m.rect);
    const o = { width: W, height: H, fps: FPS };
    const fast = join(dir, 'face-fast.mp4');
    await eraseWatermark(faceMarked, fast, { method: 'fast', spans });
    const filled = join(dir, 'face-filled.mp4');
    await eraseVideo(faceMarked, filled, { method: 'fill', spans, mask: 'box' });
    const out = join(dir, 'face-unblended.mp4');
    const result = await eraseWatermark(faceMarked, out, { method: 'fill', spans });
    expect(result.unblended_share).toBeGreaterThan(0.7);
    expect(result.unblended_share).toBeLessThanOrEqual(1);
    const delogo = measure(truth, await lumaFrames(fast, W, H), cues, boxes, o);
    const fill = measure(truth, await lumaFrames(filled, W, H), cues, boxes, o);
    const unblended = measure(truth, await lumaFrames(out, W, H), cues, boxes, o);
    expect(unblended.inBoxPsnr).toBeGreaterThan(delogo.inBoxPsnr + 4);
    expect(unblended.inBoxPsnr).toBeGreaterThan(fill.inBoxPsnr);
    expect(unblended.outsidePsnr).toBeGreaterThanOrEqual(40);
  }, 600_000);
});
