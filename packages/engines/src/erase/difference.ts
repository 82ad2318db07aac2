import { rm, writeFile } from 'node:fs/promises';
import { EngineError } from '../errors.ts';
import { runFfmpeg } from '../media/run.ts';
import { assertBox, pickGrayFrames, probeVideo } from '../ocr/frames.ts';
import type { Box } from '../ocr/types.ts';
import { DAMAGE_DELTA } from './check.ts';

/**
 * The damage view: one frame's absolute luma difference between the video before and after erasing,
 * as a picture (black = unchanged; the encoder's own noise of a few levels is hidden, the rest
 * amplified four times) and as figures — the share of pixels that changed visibly outside the erased
 * boxes (should be about 0) and inside them.
 */

export interface Difference {
  at_ms: number;
  /** The picture's size (the video's, at most 960 px wide). */
  width: number;
  height: number;
  /** Share (0..1) of the pixels outside `boxes` whose luma moved by more than DAMAGE_DELTA. */
  outside_changed_share: number;
  /** The same inside the boxes. */
  inside_changed_share: number;
}

const WIDTH_MAX = 960;
/** Differences up to this (0..255) are the encoder's, shown black. */
const NOISE = 3;
const GAIN = 4;

/** Renders the difference at `atMs` (clamped to the last frame) into `image` (PNG). */
export async function renderDifference(
  before: string,
  after: string,
  opts: { atMs: number; boxes: Box[]; image: string; signal?: AbortSignal },
): Promise<Difference> {
  const { signal } = opts;
  const info = await probeVideo(after, { signal });
  for (const b of opts.boxes) assertBox(b, info.width, info.height);
  const scale = Math.min(1, WIDTH_MAX / info.width);
  const width = Math.max(2, Math.round((info.width * scale) / 2) * 2);
  const height = Math.max(2, Math.round((info.height * scale) / 2) * 2);
  const last = Math.max(0, Math.floor((info.durationMs / 1000) * info.fps) - 1);
  const frame = Math.min(last, Math.max(0, Math.floor((opts.atMs / 1000) * info.fps)));
  const pick = async (video: string) =>
    (await pickGrayFrames(['-i', video], [frame], { fps: info.fps, width, height, signal })).get(frame);
  const [a, b] = [await pick(before), await pick(after)];
  if (!a || !b) {
    throw new EngineError('invalid_request', '时间点超出视频长度', `no frame ${frame} in both videos`);
  }
  const inside = new Uint8Array(width * height);
  for (const box of opts.boxes) {
    const x0 = Math.floor(box.x * width);
    const x1 = Math.min(width, Math.ceil((box.x + box.w) * width));
    for (let y = Math.floor(box.y * height); y < Math.min(height, Math.ceil((box.y + box.h) * height)); y++) {
      inside.fill(1, y * width + x0, y * width + x1);
    }
  }
  const picture = new Uint8Array(width * height);
  let inN = 0;
  let inChanged = 0;
  let outChanged = 0;
  for (let i = 0; i < picture.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    picture[i] = d <= NOISE ? 0 : Math.min(255, d * GAIN);
    const changed = d > DAMAGE_DELTA ? 1 : 0;
    if (inside[i]) {
      inN++;
      inChanged += changed;
    } else outChanged += changed;
  }
  const raw = `${opts.image}.gray`;
  try {
    await writeFile(raw, picture);
    // Our own raw file: no user input here, so no demuxer list.
    await runFfmpeg(
      ['-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${width}x${height}`, '-i', raw].concat([
        '-frames:v',
        '1',
        '-update',
        '1',
        '-y',
        opts.image,
      ]),
      { signal, restrictDemuxers: false },
    );
  } finally {
    await rm(raw, { force: true });
  }
  const outN = picture.length - inN;
  return {
    at_ms: Math.round((frame / info.fps) * 1000),
    width,
    height,
    outside_changed_share: outN ? outChanged / outN : 0,
    inside_changed_share: inN ? inChanged / inN : 0,
  };
}
