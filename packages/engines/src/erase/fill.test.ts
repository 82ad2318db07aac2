import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.ts';
import { damageOf } from './check.ts';
import { eraseVideo } from './erase.ts';
import { chromaMask, dilate } from './mask.ts';
import { estimateShift } from './motion.ts';
import {
  burnCues,
  burnedBoxes,
  type CleanKind,
  lumaFrames,
  makeCleanClip,
  measure,
  type TruthCue,
} from './truth.ts';
import type { Span } from './types.ts';
import type { Rect } from './yuv.ts';

const W = 480;
const H = 270;
const FPS = 25;
const CUES: TruthCue[] = [{ text: '今天我们一起去公园', start_ms: 500, end_ms: 1800 }];

let dir: string;
const clips = new Map<CleanKind, { burned: string; clean: Uint8Array[]; boxes: Rect[]; spans: Span[] }>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-fill-test-'));
  for (const kind of ['static', 'pan'] as const) {
    const clean = join(dir, `${kind}-clean.mp4`);
    const burned = join(dir, `${kind}-burned.mp4`);
    await makeCleanClip(clean, kind, { width: W, height: H, seconds: 2.4 });
    await burnCues(clean, burned, CUES, { height: H, dir });
    const cleanFrames = await lumaFrames(clean, W, H);
    const boxes = burnedBoxes(cleanFrames, await lumaFrames(burned, W, H), CUES, {
      width: W,
      height: H,
      fps: FPS,
      pad: 4,
    });
    const spans = CUES.map((c, i) => ({
      box: { x: boxes[i].x / W, y: boxes[i].y / H, w: boxes[i].w / W, h: boxes[i].h / H },
      start_ms: c.start_ms - 80,
      end_ms: c.end_ms + 80,
    }));
    clips.set(kind, { burned, clean: cleanFrames, boxes, spans });
  }
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('fill: the text erased from its own pixels', () => {
  it.each(['static', 'pan'] as const)(
    '%s shot: the hidden picture comes back from other frames, well above delogo, the rest untouched',
    async (kind) => {
      const clip = clips.get(kind);
      if (!clip) throw new Error('no clip');
      const scores: Record<string, ReturnType<typeof measure>> = {};
      const damage: Record<string, number> = {};
      const burned = await lumaFrames(clip.burned, W, H);
      const middle = Math.round(((CUES[0].start_ms + CUES[0].end_ms) / 2000) * FPS);
      for (const method of ['fast', 'fill'] as const) {
        const out = join(dir, `${kind}-${method}.mp4`);
        const result = await eraseVideo(clip.burned, out, { method, spans: clip.spans });
        expect(result.method).toBe(method);
        if (method === 'fill') {
          expect(result.temporal_share).toBeGreaterThan(0.9);
          // An inpainter is named only when it filled something (it is started on the first hole).
          if (result.temporal_share === 1) expect(result.inpaint).toBeUndefined();
        }
        const frames = await lumaFrames(out, W, H);
        scores[method] = measure(clip.clean, frames, CUES, clip.boxes, { width: W, height: H, fps: FPS });
        damage[method] = damageOf(burned[middle], frames[middle], W, H, clip.boxes[0]).changed_share;
      }
      // The damage view: delogo repaints its whole box, fill only the text.
      expect(damage.fill).toBeLessThan(damage.fast / 3);
      expect(scores.fill.inBoxPsnr).toBeGreaterThanOrEqual(scores.fast.inBoxPsnr + 10);
      expect(scores.fill.inBoxPsnr).toBeGreaterThanOrEqual(30);
      expect(scores.fill.inBoxSsim).toBeGreaterThanOrEqual(0.9);
      expect(scores.fill.outsidePsnr).toBeGreaterThanOrEqual(40);
    },
    120_000,
  );

  it('inpaints what no frame shows (a box erased over the whole clip) and leaves the rest as it was', async () => {
    const clip = clips.get('static');
    if (!clip) throw new Error('no clip');
    const out = join(dir, 'whole.mp4');
    const spans = clip.spans.map((s) => ({ ...s, start_ms: null, end_ms: null }));
    const result = await eraseVideo(clip.burned, out, { method: 'fill', spans });
    // The mask is on in every frame of a still shot: no frame shows what is under it.
    expect(result.temporal_share).toBe(0);
    expect(result.inpaint).toBe('telea');
    const o = { width: W, height: H, fps: FPS };
    const m = measure(clip.clean, await lumaFrames(out, W, H), CUES, clip.boxes, o);
    const burned = measure(clip.clean, await lumaFrames(clip.burned, W, H), CUES, clip.boxes, o);
    expect(m.inBoxPsnr).toBeGreaterThan(burned.inBoxPsnr + 3);
    expect(m.outsidePsnr).toBeGreaterThanOrEqual(40);
  }, 120_000);

  it('a fill cancelled on the way leaves no file', async () => {
    const clip = clips.get('pan');
    if (!clip) throw new Error('no clip');
    const out = join(dir, 'cancelled.mp4');
    const stop = new AbortController();
    const run = eraseVideo(clip.burned, out, {
      method: 'fill',
      spans: clip.spans,
      signal: stop.signal,
      onProgress: (f) => {
        if (f > 0.3) stop.abort();
      },
    });
    await expect(run).rejects.toSatisfy((e) => isEngineError(e, 'aborted'));
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.video.mp4`)).toBe(false);
  }, 60_000);
});

describe('fill: parts', () => {
  it('finds a global shift while masked text stays put', () => {
    const w = 96;
    const h = 48;
    const at = (x: number, y: number) => (Math.sin(x / 3) * 60 + Math.cos(y / 4 + x / 7) * 50 + 128) | 0;
    const prev = new Uint8Array(w * h);
    const cur = new Uint8Array(w * h);
    const keep = new Uint8Array(w * h).fill(1);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        prev[y * w + x] = at(x, y);
        cur[y * w + x] = at(x + 3, y - 1); // content moved by (−3, +1)
        // "Text" in the middle: the same in both frames, and masked.
        if (x > 30 && x < 60 && y > 20 && y < 30) {
          prev[y * w + x] = 255;
          cur[y * w + x] = 255;
          keep[y * w + x] = 0;
        }
      }
    }
    expect(estimateShift(prev, keep, cur, keep, w, h)).toEqual({ dx: -3, dy: 1 });
  });

  it('grows a mask by a square radius and maps it onto chroma', () => {
    const m = new Uint8Array(7 * 5);
    m[2 * 7 + 3] = 1;
    const d = dilate(m, 7, 5, 1);
    expect(d.reduce((a, b) => a + b, 0)).toBe(9);
    expect([d[1 * 7 + 2], d[3 * 7 + 4], d[0], d[2 * 7 + 5]]).toEqual([1, 1, 0, 0]);
    expect(Array.from(chromaMask(m, 7, 5))).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
  });
});
