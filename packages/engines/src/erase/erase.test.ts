import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.ts';
import { probeFile } from '../media/probe.ts';
import { runFfmpeg } from '../media/run.ts';
import { makeSubtitledClip } from '../media/testclips.ts';
import { createOcrPool } from '../ocr/pool.ts';
import type { Box, OcrEngine } from '../ocr/types.ts';
import { recognizeVideo } from '../ocr/video.ts';
import { checkErased, eraseAgain, lumaDelta } from './check.ts';
import { eraseVideo, spansFromCues } from './erase.ts';
import type { Span } from './types.ts';

const W = 640;
const H = 360;
const BAND: Box = { x: 0, y: 0.72, w: 1, h: 0.28 };
const TITLE: Box = { x: 0, y: 0, w: 1, h: 0.2 };

let dir: string;
let engine: OcrEngine;
let clip: string;
let spans: Span[];

const CUES = [
  { text: '擦除之前的字幕', start_ms: 300, end_ms: 1700, position: 'bottom' as const },
  {
    text: '第二句话在这里\nThe second line',
    start_ms: 2000,
    end_ms: 3400,
    position: 'bottom' as const,
    lines: 2 as const,
  },
  { text: '片头标题', start_ms: 0, end_ms: 3800, position: 'top' as const, color: 'yellow' as const },
];

/** PSNR of the picture outside `boxes` (both videos with the boxes painted black), worst frame. */
async function psnrOutside(a: string, b: string, boxes: Box[]): Promise<number> {
  const paint = boxes
    .map(
      (x) =>
        `drawbox=x=${Math.floor(x.x * W) - 2}:y=${Math.floor(x.y * H) - 2}:w=${Math.ceil(x.w * W) + 4}:h=${Math.ceil(x.h * H) + 4}:c=black:t=fill`,
    )
    .join(',');
  const stats = join(dir, `psnr-${Math.random().toString(36).slice(2)}.log`);
  await runFfmpeg(
    [
      '-i',
      a,
      '-i',
      b,
      '-lavfi',
      `[0:v]${paint}[a];[1:v]${paint}[b];[a][b]psnr=stats_file=${stats}`,
      '-f',
      'null',
      '-',
    ],
    { restrictDemuxers: false },
  );
  const values = (await readFile(stats, 'utf8'))
    .split('\n')
    .map((l) => /psnr_avg:(\S+)/.exec(l)?.[1])
    .filter((v): v is string => v !== undefined)
    .map((v) => (v === 'inf' ? 100 : Number(v)));
  return Math.min(...values);
}

const chars = async (video: string) => {
  const res = await recognizeVideo(video, { engine, regions: [BAND, TITLE] });
  return res.tracks.flatMap((t) => t.cues).reduce((n, c) => n + c.text.replace(/\s+/g, '').length, 0);
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-erase-test-'));
  engine = createOcrPool();
  clip = join(dir, 'clip.mp4');
  await makeSubtitledClip(clip, {
    width: W,
    height: H,
    duration_ms: 3800,
    background: 'moving',
    cues: CUES,
    speech: true,
  });
  const rec = await recognizeVideo(clip, { engine, regions: [BAND, TITLE] });
  spans = spansFromCues(
    rec.tracks.flatMap((t) => t.cues),
    { marginMs: 100, padBox: 0.005 },
  );
}, 60_000);

afterAll(async () => {
  await engine?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('subtitle erasing', () => {
  it('spansFromCues pads boxes inside the frame and times by the margin', () => {
    const s = spansFromCues([{ start_ms: 50, end_ms: 900, box: { x: 0.002, y: 0.9, w: 0.5, h: 0.099 } }], {
      marginMs: 100,
      padBox: 0.01,
    });
    expect(s[0].start_ms).toBe(0);
    expect(s[0].end_ms).toBe(1000);
    expect(s[0].box.x).toBe(0);
    expect(s[0].box.y).toBeCloseTo(0.89);
    expect(s[0].box.y + s[0].box.h).toBeLessThanOrEqual(1);
  });

  it('fast (delogo) erases the recognised cues only where they were, keeps the rest of the picture and the audio', async () => {
    expect(spans).toHaveLength(4);
    const out = join(dir, 'fast.mp4');
    const progress: number[] = [];
    await eraseVideo(clip, out, { method: 'fast', spans, onProgress: (f) => progress.push(f) });
    expect(progress.at(-1)).toBe(1);
    const [a, b] = await Promise.all([probeFile(clip), probeFile(out)]);
    expect([b.width, b.height, b.videoCodec, b.audioCodec]).toEqual([
      a.width,
      a.height,
      'h264',
      a.audioCodec,
    ]);
    expect(Math.abs(b.durationMs - a.durationMs)).toBeLessThan(100);
    expect(await chars(out)).toBe(0);
    expect(
      await psnrOutside(
        clip,
        out,
        spans.map((s) => s.box),
      ),
    ).toBeGreaterThanOrEqual(40);
    const check = await checkErased(out, { engine, regions: [BAND, TITLE], spans });
    expect(check.residual).toEqual([]);
    expect(check.residual_chars).toBe(0);
    expect(check.dark_residue).toEqual([]);
  }, 60_000);

  it('blur hides the text too', async () => {
    const out = join(dir, 'blur.mp4');
    await eraseVideo(clip, out, { method: 'blur', spans });
    expect(await chars(out)).toBe(0);
  }, 60_000);

  it('the check reports text left in an erased span and the second pass removes it', async () => {
    // Erase only the title: the bottom cues are "missed" and must show up as residual.
    const titleOnly = spans.filter((s) => s.box.y < 0.5);
    const partly = join(dir, 'partly.mp4');
    await eraseVideo(clip, partly, { method: 'fast', spans: titleOnly });
    const check = await checkErased(partly, { engine, regions: [BAND, TITLE], spans });
    expect(check.residual.map((r) => r.text)).toEqual([
      '擦除之前的字幕',
      '第二句话在这里',
      expect.stringMatching(/second/i),
    ]);
    expect(check.residual_chars).toBeGreaterThanOrEqual(20);
    const again = join(dir, 'again.mp4');
    const used = await eraseAgain(partly, again, { check, method: 'fast' });
    expect(used).toHaveLength(3);
    const after = await checkErased(again, { engine, regions: [BAND, TITLE], spans });
    expect(after.residual_chars).toBe(0);
    // Nothing left → nothing to do, no file.
    const none = join(dir, 'none.mp4');
    expect(await eraseAgain(again, none, { check: after, method: 'fast' })).toEqual([]);
    expect(existsSync(none)).toBe(false);
  }, 90_000);

  it('reports a dark patch left where a box was erased', async () => {
    const patched = join(dir, 'patched.mp4');
    // A flat picture with a black box where "a subtitle was erased".
    await runFfmpeg(
      [
        '-f',
        'lavfi',
        '-i',
        `color=c=0x8090a0:s=${W}x${H}:r=25:d=2`,
        '-vf',
        'drawbox=x=200:y=300:w=240:h=30:c=0x101010:t=fill',
        '-c:v',
        'libx264',
        '-y',
        patched,
      ],
      { restrictDemuxers: false },
    );
    const box = { x: 200 / W, y: 300 / H, w: 240 / W, h: 30 / H };
    const clean = { x: 200 / W, y: 100 / H, w: 240 / W, h: 30 / H };
    const check = await checkErased(patched, {
      engine,
      regions: [BAND],
      spans: [
        { box, start_ms: 0, end_ms: 2000 },
        { box: clean, start_ms: 0, end_ms: 2000 },
        // Many spans (one probe frame each, picked in batches: ffmpeg cannot parse one long expression).
        ...Array.from({ length: 40 }, (_, i) => ({ box: clean, start_ms: i * 45, end_ms: i * 45 + 40 })),
      ],
    });
    expect(check.dark_residue).toHaveLength(1);
    expect(check.dark_residue[0].box).toEqual(box);
    expect(check.dark_residue[0].mean_luma_delta).toBeLessThan(-60);
    const gray = new Uint8Array(100).fill(128);
    expect(lumaDelta(gray, 10, 10, { x: 3, y: 3, w: 4, h: 4 })).toBe(0);
  }, 30_000);

  it('refuses bad boxes and ranges with a typed error and leaves no output', async () => {
    const out = join(dir, 'bad.mp4');
    const bad: Array<[Span[], string]> = [
      [[{ box: { x: 0.8, y: 0.8, w: 0.4, h: 0.1 }, start_ms: null, end_ms: null }], 'invalid_request'],
      [[{ box: { x: 0.1, y: 0.8, w: 0.3, h: 0 }, start_ms: null, end_ms: null }], 'invalid_request'],
      [[{ box: { x: 0.1, y: 0.8, w: 0.3, h: 0.1 }, start_ms: 60_000, end_ms: 61_000 }], 'invalid_request'],
      [[{ box: { x: 0.1, y: 0.8, w: 0.3, h: 0.1 }, start_ms: 900, end_ms: 500 }], 'invalid_request'],
      [[], 'invalid_request'],
    ];
    for (const [s, code] of bad) {
      await expect(eraseVideo(clip, out, { method: 'fast', spans: s })).rejects.toSatisfy((e) =>
        isEngineError(e, code as 'invalid_request'),
      );
      expect(existsSync(out)).toBe(false);
    }
    const audio = join(dir, 'tone.m4a');
    await runFfmpeg(['-f', 'lavfi', '-i', 'sine=d=1', '-c:a', 'aac', '-y', audio], {
      restrictDemuxers: false,
    });
    await expect(eraseVideo(audio, out, { method: 'fast', spans })).rejects.toSatisfy((e) =>
      isEngineError(e, 'media_unsupported'),
    );
    // A cancelled erase leaves no file either.
    await expect(
      eraseVideo(clip, out, { method: 'fast', spans, signal: AbortSignal.abort() }),
    ).rejects.toSatisfy((e) => isEngineError(e, 'aborted'));
    expect(existsSync(out)).toBe(false);
  }, 30_000);
});
