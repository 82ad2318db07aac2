import { rm } from 'node:fs/promises';
import { EngineError } from '../errors.ts';
import { spawnMedia } from '../media/run.ts';
import type { VideoInfo } from '../ocr/frames.ts';
import type { ToolProcess } from '../process/tool.ts';
import { type Inpainter, type InpaintMethod, type InpaintOptions, loadInpainter } from './inpaint.ts';
import { chromaMask, maskFromVotes, voteCandidates } from './mask.ts';
import { estimateShift, type Shift } from './motion.ts';
import { advancePlate, copyPlate, newPlate, type Plate } from './plate.ts';
import {
  cropRegion,
  frameBytes,
  newPlanes,
  type Planes,
  pasteRegion,
  type Rect,
  readFrames,
  writeFrame,
} from './yuv.ts';

/**
 * `fill`: erases the glyphs, not the box. Two reads of the video:
 * 1. the region around the boxes in gray: per span, the mask of its text (mask.ts);
 * 2. every frame: the masked pixels are taken from the background plates — the picture seen before
 *    (run forwards) or after (run backwards, over a look-ahead of one to two seconds), carried along
 *    the picture's global shift — whichever saw it more recently; what neither saw is inpainted
 *    (LaMa when installed, else OpenCV Telea: inpaint.ts). Everything outside the masks is passed
 *    through untouched, then encoded with x264 and muxed with the original audio.
 */

/** Pixels of picture kept around the boxes for motion estimation. */
const CONTEXT = 32;

interface PixelSpan {
  box: Rect;
  start: number | null;
  end: number | null;
}

interface Layout {
  info: VideoInfo;
  region: Rect;
  /** Spans with boxes in region coordinates. */
  spans: PixelSpan[];
}

const even = (n: number) => n - (n % 2);

function layout(info: VideoInfo, pixels: Array<Rect & { start: number | null; end: number | null }>): Layout {
  const x0 = even(Math.max(0, Math.min(...pixels.map((s) => s.x)) - CONTEXT));
  const y0 = even(Math.max(0, Math.min(...pixels.map((s) => s.y)) - CONTEXT));
  const x1 = Math.min(info.width, Math.max(...pixels.map((s) => s.x + s.w)) + CONTEXT);
  const y1 = Math.min(info.height, Math.max(...pixels.map((s) => s.y + s.h)) + CONTEXT);
  // Even sizes too: ffmpeg crops a subsampled picture to even sizes, and rows must line up.
  const region = { x: x0, y: y0, w: even(x1 - x0), h: even(y1 - y0) };
  const spans = pixels.map((s) => ({
    box: {
      x: s.x - x0,
      y: s.y - y0,
      w: Math.min(s.w, region.w - (s.x - x0)),
      h: Math.min(s.h, region.h - (s.y - y0)),
    },
    start: s.start,
    end: s.end,
  }));
  return { info, region, spans };
}

const shownAt = (s: PixelSpan, ms: number) => ms >= (s.start ?? 0) && (s.end === null || ms <= s.end);

const frameMs = (index: number, fps: number) => (index / fps) * 1000;

/** Runs a tool that reads the input and writes raw frames, handing each frame to `each`. */
async function eachFrame(
  proc: ToolProcess,
  size: number,
  each: (frame: Uint8Array, index: number) => Promise<void> | void,
): Promise<void> {
  const work = (async () => {
    let index = 0;
    for await (const frame of readFrames(proc.child.stdout, size)) await each(frame, index++);
  })();
  try {
    await Promise.all([work, proc.done]);
  } catch (e) {
    proc.kill();
    throw e;
  }
}

/** Pass 1: each span's text mask (box-sized) from the gray region of the frames it covers. */
async function spanMasks(
  input: string,
  l: Layout,
  signal: AbortSignal | undefined,
  onFrame: (i: number) => void,
): Promise<Uint8Array[]> {
  const { region: r, info } = l;
  const votes = l.spans.map((s) => new Uint16Array(s.box.w * s.box.h));
  const counted = l.spans.map(() => 0);
  const proc = spawnMedia(
    'ffmpeg',
    [
      '-i',
      input,
      '-an',
      '-vf',
      `format=gray,crop=${r.w}:${r.h}:${r.x}:${r.y}`,
      '-fps_mode',
      'passthrough',
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    { signal, timeoutMs: 6 * 60 * 60_000 },
  );
  let previous: Uint8Array | undefined;
  await eachFrame(proc, r.w * r.h, (gray, index) => {
    const ms = frameMs(index, info.fps);
    l.spans.forEach((s, k) => {
      if (!shownAt(s, ms)) return;
      voteCandidates(gray, previous, r.w, s.box, votes[k]);
      counted[k]++;
    });
    previous = gray;
    onFrame(index);
  });
  return l.spans.map((s, k) => maskFromVotes(votes[k], s.box.w, s.box.h, counted[k]));
}

interface Entry {
  index: number;
  frame: Uint8Array;
  crop: Planes;
  maskY: Uint8Array;
  maskC: Uint8Array;
  masked: boolean;
  /** Motion from the previous frame. */
  shift: Shift;
  /** The backward plate at this frame (only for frames with text). */
  back?: Plate;
}

export interface FillCounts {
  /** Luma pixels of the shown boxes, summed over frames. */
  boxed: number;
  /** Of those, text (filled). */
  masked: number;
  temporal: number;
  inpainted: number;
}

/**
 * Takes each masked pixel from the plate that saw it more recently (into `to`, planes of the same
 * size); returns the holes neither saw, or null. `count` adds the pixels to `counts`.
 */
function pick(
  mask: Uint8Array,
  fwd: { age: Int16Array; planes: Uint8Array[] },
  back: { age: Int16Array; planes: Uint8Array[] } | undefined,
  to: Uint8Array[],
  counts: FillCounts | undefined,
): Uint8Array | null {
  const holes = new Uint8Array(mask.length);
  let any = false;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const a = fwd.age[i];
    const b = back ? back.age[i] : -1;
    const from = a >= 0 && (b < 0 || a <= b) ? fwd.planes : b >= 0 ? back?.planes : undefined;
    if (from) for (let p = 0; p < to.length; p++) to[p][i] = from[p][i];
    else {
      holes[i] = 1;
      any = true;
    }
    if (counts) {
      counts.masked++;
      if (from) counts.temporal++;
      else counts.inpainted++;
    }
  }
  return any ? holes : null;
}

/** Fills a frame's masked pixels from the plates, then inpaints what is left. */
async function fillFrame(
  e: Entry,
  fwd: Plate,
  r: Rect,
  counts: FillCounts,
  inpainter: Inpainter,
): Promise<void> {
  const back = e.back;
  const holesY = pick(
    e.maskY,
    { age: fwd.ageY, planes: [fwd.planes.y] },
    back && { age: back.ageY, planes: [back.planes.y] },
    [e.crop.y],
    counts,
  );
  const holesC = pick(
    e.maskC,
    { age: fwd.ageC, planes: [fwd.planes.u, fwd.planes.v] },
    back && { age: back.ageC, planes: [back.planes.u, back.planes.v] },
    [e.crop.u, e.crop.v],
    undefined,
  );
  if (holesY || holesC) await inpainter.fill(e.crop, holesY, holesC, r.w, r.h);
}

export interface FillOptions {
  info: VideoInfo;
  /** The spans in pixels, checked (pixelSpans). */
  spans: Array<Rect & { start: number | null; end: number | null }>;
  /** Encoder settings of the picture (videoEncodeArgs). */
  encode: string[];
  /** text (default): the text's own pixels in each box; box: the whole box (a watermark). */
  mask?: 'text' | 'box';
  /** What inpaints the pixels no frame shows (LaMa's model when installed). */
  inpaint?: InpaintOptions;
  signal?: AbortSignal;
  onProgress?: (f: number) => void;
}

/** Erases with `fill` (see the top of this file); returns how the masked pixels were filled. */
export async function fillVideo(
  input: string,
  output: string,
  opts: FillOptions,
): Promise<FillCounts & { inpaint: InpaintMethod }> {
  const { signal, info } = opts;
  const l = layout(info, opts.spans);
  const total = Math.max(1, Math.round((info.durationMs / 1000) * info.fps));
  const progress = (f: number) => opts.onProgress?.(Math.min(1, f));
  const inpainter = loadInpainter(opts.inpaint);
  inpainter.catch(() => {}); // awaited after the first pass
  // A watermark tints its whole box: nothing to look for inside it.
  const masks =
    opts.mask === 'box'
      ? l.spans.map((s) => new Uint8Array(s.box.w * s.box.h).fill(1))
      : await spanMasks(input, l, signal, (i) => progress((0.2 * i) / total)).catch(async (e) => {
          await inpainter.then((i) => i.close()).catch(() => {});
          throw e;
        });
  const using = await inpainter;

  const videoOnly = `${output}.video.mp4`;
  try {
    const counts = await fillPass(input, videoOnly, opts.spans, masks, opts, using, (i) =>
      progress(0.2 + (0.78 * i) / total),
    );
    // The original audio and metadata around the new picture.
    await spawnMedia(
      'ffmpeg',
      [
        '-i',
        videoOnly,
        '-i',
        input,
        '-map',
        '0:v',
        '-map',
        '1:a?',
        '-c',
        'copy',
        '-map_metadata',
        '1',
        '-movflags',
        '+faststart',
        '-y',
        output,
      ],
      { signal },
    ).done;
    progress(1);
    return { ...counts, inpaint: using.method };
  } catch (e) {
    await rm(output, { force: true });
    throw e;
  } finally {
    await using.close();
    await rm(videoOnly, { force: true });
  }
}

/**
 * Spans grouped by place: boxes whose regions (box + context) touch share one region, apart ones
 * (a watermark's two corners) get their own — a region spanning the picture would be filled whole.
 */
function groups(pixels: FillOptions['spans']): number[][] {
  const grown = pixels.map((s) => ({
    x0: s.x - CONTEXT,
    y0: s.y - CONTEXT,
    x1: s.x + s.w + CONTEXT,
    y1: s.y + s.h + CONTEXT,
  }));
  const parent = pixels.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i];
    return i;
  };
  for (let i = 0; i < grown.length; i++) {
    for (let j = i + 1; j < grown.length; j++) {
      const a = grown[i];
      const b = grown[j];
      if (a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1) parent[root(i)] = root(j);
    }
  }
  const out = new Map<number, number[]>();
  pixels.forEach((_, i) => {
    const list = out.get(root(i)) ?? [];
    list.push(i);
    out.set(root(i), list);
  });
  return [...out.values()];
}

/** One region's fill: its frames' crops in a window, the plates, the fill of each frame. */
function regionFill(l: Layout, masks: Uint8Array[], counts: FillCounts, block: number, inpainter: Inpainter) {
  const { region: r, info } = l;
  const { width, height, fps } = info;
  const fwd = newPlate(r);
  const scratch = newPlate(r);
  const window: Entry[] = [];
  let previous: Entry | undefined;

  const entryOf = (frame: Uint8Array, index: number): Entry => {
    const crop = newPlanes(r);
    cropRegion(frame, width, height, r, crop);
    const maskY = new Uint8Array(r.w * r.h);
    let masked = false;
    const ms = frameMs(index, fps);
    l.spans.forEach((s, k) => {
      if (!shownAt(s, ms)) return;
      counts.boxed += s.box.w * s.box.h;
      const m = masks[k];
      for (let j = 0; j < s.box.h; j++) {
        const row = (s.box.y + j) * r.w + s.box.x;
        for (let i = 0; i < s.box.w; i++) {
          if (m[j * s.box.w + i]) {
            maskY[row + i] = 1;
            masked = true;
          }
        }
      }
    });
    const maskC = chromaMask(maskY, r.w, r.h);
    let shift: Shift = { dx: 0, dy: 0 };
    // The shift matters only when this frame or the one before has text (a plate carried across it).
    if (previous && (masked || previous.masked)) {
      const keep = (m: Uint8Array) => m.map((v) => 1 - v);
      shift = estimateShift(previous.crop.y, keep(previous.maskY), crop.y, keep(maskY), r.w, r.h);
    }
    return { index, frame, crop, maskY, maskC, masked, shift };
  };

  /** The backward plate over the window, kept for the first `upto` frames that have text. */
  const sweepBack = (upto: number) => {
    if (!window.slice(0, upto).some((e) => e.masked)) return;
    const back = newPlate(r);
    const spare = newPlate(r);
    for (let k = window.length - 1; k >= 0; k--) {
      const e = window[k];
      const next = window[k + 1];
      const shift = next ? { dx: -next.shift.dx, dy: -next.shift.dy } : { dx: 0, dy: 0 };
      advancePlate(back, spare, e.crop, e.maskY, e.maskC, r, shift);
      if (k < upto && e.masked) e.back = copyPlate(back);
    }
  };

  return {
    push(frame: Uint8Array, index: number) {
      const e = entryOf(frame, index);
      previous = e;
      window.push(e);
    },
    /** Fills the first `block` frames of the window (all with `all`) into their full frames. */
    async flush(all: boolean) {
      const upto = all ? window.length : block;
      sweepBack(upto);
      for (const e of window.splice(0, upto)) {
        advancePlate(fwd, scratch, e.crop, e.maskY, e.maskC, r, e.shift);
        if (e.masked) {
          await fillFrame(e, fwd, r, counts, inpainter);
          pasteRegion(e.frame, width, height, r, e.crop);
        }
      }
    },
  };
}

/** Pass 2: decode → fill → encode (picture only). */
async function fillPass(
  input: string,
  output: string,
  pixels: FillOptions['spans'],
  masks: Uint8Array[],
  opts: FillOptions,
  inpainter: Inpainter,
  onFrame: (i: number) => void,
): Promise<FillCounts> {
  const { info, signal } = opts;
  const { width, height, fps } = info;
  // Look-ahead: the backward plate of a frame sees at least `block` frames of its future; a whole
  // box (a watermark) is uncovered more slowly than strokes, so it looks further.
  const block = Math.max(8, Math.round(fps * (opts.mask === 'box' ? 2 : 1)));
  const counts: FillCounts = { boxed: 0, masked: 0, temporal: 0, inpainted: 0 };
  const regions = groups(pixels).map((g) =>
    regionFill(
      layout(
        info,
        g.map((i) => pixels[i]),
      ),
      g.map((i) => masks[i]),
      counts,
      block,
      inpainter,
    ),
  );
  const decoder = spawnMedia(
    'ffmpeg',
    ['-i', input, '-an', '-fps_mode', 'passthrough', '-pix_fmt', 'yuv420p', '-f', 'rawvideo', 'pipe:1'],
    { signal, timeoutMs: 6 * 60 * 60_000 },
  );
  // Our own pipe of raw frames: no user input here, so no demuxer list.
  const encoder = spawnMedia(
    'ffmpeg',
    [
      '-f',
      'rawvideo',
      '-pix_fmt',
      'yuv420p',
      '-s',
      `${width}x${height}`,
      '-framerate',
      String(fps),
      '-i',
      'pipe:0',
      ...opts.encode,
      '-an',
      '-y',
      output,
    ],
    { signal, stdin: 'pipe', restrictDemuxers: false, timeoutMs: 6 * 60 * 60_000 },
  );
  const stdin = encoder.child.stdin;
  if (!stdin) throw new EngineError('media_failed', '媒体处理失败', 'encoder without stdin');

  const frames: Array<{ frame: Uint8Array; index: number }> = [];
  const flush = async (all: boolean) => {
    for (const region of regions) await region.flush(all);
    for (const f of frames.splice(0, all ? frames.length : block)) {
      await writeFrame(stdin, f.frame);
      onFrame(f.index + 1);
    }
  };

  const work = (async () => {
    let index = 0;
    for await (const frame of readFrames(decoder.child.stdout, frameBytes(width, height))) {
      for (const region of regions) region.push(frame, index);
      frames.push({ frame, index: index++ });
      if (frames.length >= 2 * block) await flush(false);
    }
    await flush(true);
    stdin.end();
  })();
  try {
    await Promise.all([work, decoder.done, encoder.done]);
  } catch (e) {
    decoder.kill();
    encoder.kill();
    // A pipe broken by the encoder's end says less than why it ended (cancelled, failed).
    if (!signal?.aborted && (e as NodeJS.ErrnoException).code !== 'EPIPE') throw e;
    const ended = await Promise.allSettled([encoder.done, decoder.done]);
    const why = ended.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    throw why ? why.reason : e;
  }
  return counts;
}
