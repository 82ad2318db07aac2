import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.ts';
import { runFfmpeg } from '../media/run.ts';
import { makeSubtitledClip } from '../media/testclips.ts';
import { grabFrame } from './frames.ts';
import { createOcrPool } from './pool.ts';
import { detectSubtitleRegions } from './regions.ts';
import { convertScript, textSimilarity } from './text.ts';
import type { Box, OcrEngine } from './types.ts';
import { recognizeVideo } from './video.ts';

const squeeze = (s: string) => s.replace(/\s+/g, '');
const contains = (outer: Box, inner: Box, slack = 0.01) =>
  inner.x >= outer.x - slack &&
  inner.y >= outer.y - slack &&
  inner.x + inner.w <= outer.x + outer.w + slack &&
  inner.y + inner.h <= outer.y + outer.h + slack;

let dir: string;
let engine: OcrEngine;
let still: string;
let stillBoxes: Box[];
let moving: string;

const STILL_CUES = [
  { text: '今天天气很好', start_ms: 300, end_ms: 1800, position: 'bottom' as const },
  {
    text: '我们一起去公园\nLet us go to the park',
    start_ms: 2200,
    end_ms: 4000,
    position: 'bottom' as const,
    lines: 2 as const,
  },
  { text: '第一集 新的开始', start_ms: 0, end_ms: 4600, position: 'top' as const, color: 'yellow' as const },
];

const MOVING_CUES = [
  { text: '這是繁體字幕測試', start_ms: 400, end_ms: 1900, position: 'bottom' as const },
  {
    text: '第一行的文字\n第二行的文字',
    start_ms: 2300,
    end_ms: 3800,
    position: 'bottom' as const,
    lines: 2 as const,
  },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-ocr-test-'));
  engine = createOcrPool();
  still = join(dir, 'still.mp4');
  moving = join(dir, 'moving.mp4');
  const [a] = await Promise.all([
    makeSubtitledClip(still, {
      width: 640,
      height: 360,
      duration_ms: 4600,
      background: 'still',
      cues: STILL_CUES,
    }),
    makeSubtitledClip(moving, {
      width: 640,
      height: 360,
      duration_ms: 4200,
      background: 'moving',
      cues: MOVING_CUES,
      speech: true,
    }),
  ]);
  stillBoxes = a.boxes;
}, 60_000);

afterAll(async () => {
  await engine?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('subtitle OCR (PP-OCRv4)', () => {
  it('draws the test clip where it says: bottom cues low and centred, the title high', () => {
    expect(stillBoxes).toHaveLength(3);
    const [one, two, title] = stillBoxes;
    expect(one.y).toBeGreaterThan(0.8);
    expect(Math.abs(one.x + one.w / 2 - 0.5)).toBeLessThan(0.02);
    // The bilingual cue has two lines: twice as tall.
    expect(two.h).toBeGreaterThan(one.h * 1.8);
    expect(title.y + title.h).toBeLessThan(0.2);
  });

  it('finds the bottom subtitle band and the top title as separate regions', async () => {
    const { regions, frame_ms } = await detectSubtitleRegions(still, { engine, samples: 6 });
    expect(frame_ms).toHaveLength(6);
    const subtitle = regions.find((r) => r.kind === 'subtitle');
    const title = regions.find((r) => r.kind === 'title');
    expect(subtitle).toBeDefined();
    expect(title).toBeDefined();
    // The two-line bilingual cue and the one-line cue fall in the same region.
    expect(contains(subtitle as Box, stillBoxes[0])).toBe(true);
    expect(contains(subtitle as Box, stillBoxes[1])).toBe(true);
    // Two lines were seen stacked: no room is left above them for a third (a bigger band costs OCR).
    expect(stillBoxes[1].y - (subtitle as Box).y).toBeLessThan(stillBoxes[0].h);
    expect(contains(title as Box, stillBoxes[2])).toBe(true);
    expect(title?.confidence).toBeGreaterThan(0.9);
  }, 60_000);

  it('reads cues with frame-exact times, splits bilingual lines into two tracks, skips unchanged frames', async () => {
    const regions = [
      { x: 0, y: 0.75, w: 1, h: 0.25 },
      { x: 0, y: 0, w: 1, h: 0.2 },
    ];
    const progress: number[] = [];
    const keys: string[] = [];
    const res = await recognizeVideo(still, {
      engine,
      regions,
      onProgress: (f) => progress.push(f),
      checkpoint: (key, fn) => {
        keys.push(key);
        return fn();
      },
    });
    expect(res.engine_label).toBe('PP-OCRv4 (离线)');
    expect(keys).toEqual(['ocr-chunk-0']);
    expect(progress.at(-1)).toBe(1);
    const zh = res.tracks.find((t) => t.region === 0 && t.script === 'zh');
    const en = res.tracks.find((t) => t.region === 0 && t.script === 'latin');
    const title = res.tracks.find((t) => t.region === 1 && t.script === 'zh');
    expect(zh?.cues.map((c) => c.text)).toEqual(['今天天气很好', '我们一起去公园']);
    zh?.cues.forEach((c, i) => {
      expect(Math.abs(c.start_ms - STILL_CUES[i].start_ms)).toBeLessThanOrEqual(200);
      expect(Math.abs(c.end_ms - STILL_CUES[i].end_ms)).toBeLessThanOrEqual(200);
      // The cue box covers where the text was drawn (what erasing will use).
      expect(
        contains(c.box, { ...stillBoxes[i], h: i === 1 ? stillBoxes[i].h / 2 : stillBoxes[i].h }, 0.015),
      ).toBe(true);
    });
    expect(en?.cues).toHaveLength(1);
    expect(en?.language).toBe('en');
    expect(textSimilarity(en?.cues[0].text ?? '', 'Let us go to the park')).toBeGreaterThan(0.85);
    expect(Math.abs((en?.cues[0].start_ms ?? 0) - 2200)).toBeLessThanOrEqual(200);
    expect(title?.cues).toHaveLength(1);
    expect(squeeze(title?.cues[0].text ?? '')).toBe('第一集新的开始');
    expect(title?.cues[0].start_ms).toBe(0);
    expect(Math.abs((title?.cues[0].end_ms ?? 0) - 4600)).toBeLessThanOrEqual(200);
    // 4 fps × 4.6 s × 2 regions sampled; only the changes were read (3 cues + the empty band).
    expect(res.frames_sampled).toBeGreaterThanOrEqual(36);
    expect(res.frames_recognised).toBeLessThanOrEqual(6);

    // In chunks of ~1.6 s (three ffmpeg passes, the next extracted while one is read, resumable per
    // chunk): the same cues and times.
    const chunkKeys: string[] = [];
    const stored = new Map<string, unknown>();
    const chunked = await recognizeVideo(still, {
      engine,
      regions,
      chunkSeconds: 1.6,
      checkpoint: async (key, fn) => {
        chunkKeys.push(key);
        const v = await fn();
        stored.set(key, JSON.parse(JSON.stringify(v)));
        return v;
      },
    });
    expect(chunkKeys).toEqual(['ocr-chunk-0', 'ocr-chunk-1', 'ocr-chunk-2']);
    const strip = (r: typeof res) => r.tracks.map((t) => t.cues.map((c) => [c.text, c.start_ms, c.end_ms]));
    expect(strip(chunked)).toEqual(strip(res));
    // A resumed run takes the stored chunks and reads no frame again.
    const resumed = await recognizeVideo(still, {
      engine,
      regions,
      chunkSeconds: 1.6,
      checkpoint: async <T>(key: string) => stored.get(key) as T,
    });
    expect(strip(resumed)).toEqual(strip(res));
  }, 60_000);

  it('reads over a moving background, keeps two-line cues whole and converts Traditional to Simplified', async () => {
    const res = await recognizeVideo(moving, {
      engine,
      regions: [{ x: 0, y: 0.7, w: 1, h: 0.3 }],
      convert: 't2s',
    });
    const zh = res.tracks.find((t) => t.script === 'zh');
    expect(zh?.language).toBe('zh-Hans');
    expect(zh?.cues.map((c) => c.text)).toEqual(['这是繁体字幕测试', '第一行的文字\n第二行的文字']);
    zh?.cues.forEach((c, i) => {
      expect(Math.abs(c.start_ms - MOVING_CUES[i].start_ms)).toBeLessThanOrEqual(200);
      expect(Math.abs(c.end_ms - MOVING_CUES[i].end_ms)).toBeLessThanOrEqual(200);
    });
    // The background moves in every frame, yet the band is read about once per cue.
    expect(res.frames_recognised).toBeLessThanOrEqual(5);
    expect(convertScript('这是简体', 's2t')).toBe('這是簡體');
  }, 60_000);

  it('refuses regions outside the frame or of zero size, and files without video', async () => {
    const outside = recognizeVideo(still, { engine, regions: [{ x: 0.5, y: 0.8, w: 0.6, h: 0.2 }] });
    await expect(outside).rejects.toSatisfy((e) => isEngineError(e, 'invalid_request'));
    const zero = recognizeVideo(still, { engine, regions: [{ x: 0.1, y: 0.8, w: 0, h: 0.1 }] });
    await expect(zero).rejects.toSatisfy((e) => isEngineError(e, 'invalid_request'));
    const audio = join(dir, 'tone.m4a');
    await runFfmpeg(['-f', 'lavfi', '-i', 'sine=d=1', '-c:a', 'aac', '-y', audio], {
      restrictDemuxers: false,
    });
    const noVideo = recognizeVideo(audio, { engine, regions: [{ x: 0, y: 0.8, w: 1, h: 0.2 }] });
    await expect(noVideo).rejects.toSatisfy((e) => isEngineError(e, 'media_unsupported'));
    await expect(detectSubtitleRegions(audio, { engine })).rejects.toSatisfy((e) =>
      isEngineError(e, 'media_unsupported'),
    );
    const late = join(dir, 'late.jpg');
    await expect(grabFrame(still, 60_000, late)).rejects.toSatisfy((e) =>
      isEngineError(e, 'invalid_request'),
    );
    expect(existsSync(late)).toBe(false);
  }, 30_000);

  it('cancels a recognition through its AbortSignal', async () => {
    const ac = new AbortController();
    const run = recognizeVideo(moving, {
      engine,
      regions: [{ x: 0, y: 0.7, w: 1, h: 0.3 }],
      signal: ac.signal,
    });
    ac.abort();
    await expect(run).rejects.toSatisfy((e) => isEngineError(e, 'aborted'));
    const frame = join(dir, 'f.jpg');
    await grabFrame(still, 1000, frame);
    const pending = engine.recognize(frame, { signal: AbortSignal.abort() });
    await expect(pending).rejects.toSatisfy((e) => isEngineError(e, 'aborted'));
    // The pool still answers afterwards.
    const lines = await engine.recognize(frame);
    expect(lines.map((l) => squeeze(l.text))).toContain('今天天气很好');
  }, 30_000);
});
