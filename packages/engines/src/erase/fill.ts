import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { EngineError } from '../errors.ts';
import { spawnMedia } from '../media/run.ts';
import type { VideoInfo } from '../ocr/frames.ts';
import type { ToolProcess } from '../process/tool.ts';
import { type Inpainter, type InpaintMethod, type InpaintOptions, loadInpainter } from './inpaint.ts';
import { chromaMask, maskFromVotes, voteCandidates } from './mask.ts';
import { estimateShift, type Shift } from './motion.ts';
import { advancePlate, newPlate, type Plate } from './plate.ts';
import {
  cropRegion,
  frameBytes,
  newPlanes,
  type Planes,
  pasteRegion,
  type Rect,
  rawVideoEncoder,
  readFrames,
} from './yuv.ts';

/**
 * `fill`: erases the glyphs, not the box. Two passes over the video:
 * 1. the region around the boxes in gray: per span, the mask of its text (mask.ts);
 * 2. every frame: the masked pixels are taken from the background plates — the picture seen before
 *    (run forwards) or after (run backwards, over a look-ahead of one to two seconds), carried along
 *    the picture's global shift — whichever saw it more recently; what neither saw is inpainted
 *    (LaMa when installed, else OpenCV Telea: inpaint.ts, started on the first such pixel). The
 *    look-ahead keeps only the regions' rows; the whole frames come from a second decode read in
 *    step with the encoder, so everything outside the regions is passed through untouched, then
 *    encoded with x264 and muxed with the original audio.
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

/** A frame's text mask in one region, shared by the frames that show the same spans. */
interface FrameMask {
  maskY: Uint8Array;
  maskC: Uint8Array;
  /** 1 − maskY: the picture, for motion estimation. */
  keep: Uint8Array;
  masked: boolean;
  /** Luma pixels of the shown boxes. */
  boxed: number;
}

/** The backward plate at the masked pixels only (in mask order): all the fill reads of it. */
interface BackSample {
  ageY: Int16Array;
  y: Uint8Array;
  ageC: Int16Array;
  u: Uint8Array;
  v: Uint8Array;
}

interface Entry {
  /** The region's picture (filled in place). */
  crop: Planes;
  mask: FrameMask;
  /** Motion from the previous frame. */
  shift: Shift;
  /** The backward plate at this frame (only for frames with text). */
  back?: BackSample;
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
 * size); returns the holes neither saw, or null. The backward plate is sampled at the masked pixels
 * in order. `counts` adds the pixels up.
 */
function pick(
  mask: Uint8Array,
  fwdAge: Int16Array,
  fwd: Uint8Array[],
  backAge: Int16Array | undefined,
  back: Uint8Array[],
  to: Uint8Array[],
  counts: FillCounts | undefined,
): Uint8Array | null {
  let holes: Uint8Array | null = null;
  let k = 0;
  let temporal = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const a = fwdAge[i];
    const b = backAge ? backAge[k] : -1;
    if (a >= 0 && (b < 0 || a <= b)) {
      for (let p = 0; p < to.length; p++) to[p][i] = fwd[p][i];
      temporal++;
    } else if (b >= 0) {
      for (let p = 0; p < to.length; p++) to[p][i] = back[p][k];
      temporal++;
    } else {
      holes ??= new Uint8Array(mask.length);
      holes[i] = 1;
    }
    k++;
  }
  if (counts) {
    counts.masked += k;
    counts.temporal += temporal;
    counts.inpainted += k - temporal;
  }
  return holes;
}

/** Fills a frame's masked pixels from the plates, then inpaints what is left. */
async function fillFrame(
  e: Entry,
  fwd: Plate,
  r: Rect,
  counts: FillCounts,
  inpainter: () => Promise<Inpainter>,
): Promise<void> {
  const back = e.back;
  const holesY = pick(
    e.mask.maskY,
    fwd.ageY,
    [fwd.planes.y],
    back?.ageY,
    back ? [back.y] : [],
    [e.crop.y],
    counts,
  );
  const holesC = pick(
    e.mask.maskC,
    fwd.ageC,
    [fwd.planes.u, fwd.planes.v],
    back?.ageC,
    back ? [back.u, back.v] : [],
    [e.crop.u, e.crop.v],
    undefined,
  );
  if (holesY || holesC) await (await inpainter()).fill(e.crop, holesY, holesC, r.w, r.h);
}

/** The plate's values and ages at the masked pixels, in mask order. */
function sampleBack(p: Plate, m: FrameMask): BackSample {
  const take = (mask: Uint8Array, age: Int16Array, planes: Uint8Array[]) => {
    let n = 0;
    for (let i = 0; i < mask.length; i++) n += mask[i];
    const ages = new Int16Array(n);
    const out = planes.map(() => new Uint8Array(n));
    let k = 0;
    for (let i = 0; i < mask.length; i++) {
      if (!mask[i]) continue;
      ages[k] = age[i];
      for (let q = 0; q < planes.length; q++) out[q][k] = planes[q][i];
      k++;
    }
    return { ages, out };
  };
  const y = take(m.maskY, p.ageY, [p.planes.y]);
  const c = take(m.maskC, p.ageC, [p.planes.u, p.planes.v]);
  return { ageY: y.ages, y: y.out[0], ageC: c.ages, u: c.out[0], v: c.out[1] };
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

/**
 * The inpainter, started on the first pixels no frame shows: a moving picture often has none, and
 * loading OpenCV (or LaMa's helper) costs about a second of CPU.
 */
function onDemand(options: InpaintOptions | undefined) {
  let started: Promise<Inpainter> | undefined;
  return {
    get: () => {
      started ??= loadInpainter(options);
      return started;
    },
    /** What inpainted, if anything was. */
    method: async () => (started ? (await started).method : undefined),
    close: async () => {
      const running = await started?.catch(() => undefined);
      await running?.close();
    },
  };
}

/** Erases with `fill` (see the top of this file); returns how the masked pixels were filled. */
export async function fillVideo(
  input: string,
  output: string,
  opts: FillOptions,
): Promise<FillCounts & { inpaint?: InpaintMethod }> {
  const { signal, info } = opts;
  const l = layout(info, opts.spans);
  const total = Math.max(1, Math.round((info.durationMs / 1000) * info.fps));
  const progress = (f: number) => opts.onProgress?.(Math.min(1, f));
  // A watermark tints its whole box: nothing to look for inside it.
  const masks =
    opts.mask === 'box'
      ? l.spans.map((s) => new Uint8Array(s.box.w * s.box.h).fill(1))
      : await spanMasks(input, l, signal, (i) => progress((0.2 * i) / total));
  const inpainter = onDemand(opts.inpaint);

  const videoOnly = `${output}.video.mp4`;
  try {
    const counts = await fillPass(input, videoOnly, opts.spans, masks, opts, inpainter.get, (i) =>
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
    return { ...counts, inpaint: await inpainter.method() };
  } catch (e) {
    await rm(output, { force: true });
    throw e;
  } finally {
    await inpainter.close();
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

/** Distinct span sets kept ready (a frame's mask is rebuilt only when the shown spans change). */
const MASK_CACHE = 8;

/** A filled frame's region picture: pasted into the frame when it has text. */
interface Filled {
  crop: Planes;
  masked: boolean;
}

/**
 * One region's fill: its frames' crops in a window, the plates, the fill of each frame. Only the
 * region is kept (three uint8 planes a frame) with its shared mask and, for frames with text, the
 * backward plate at the masked pixels — never the whole frame.
 */
function regionFill(
  l: Layout,
  masks: Uint8Array[],
  counts: FillCounts,
  block: number,
  inpainter: () => Promise<Inpainter>,
) {
  const { region: r, info } = l;
  const fwd = newPlate(r);
  const scratch = newPlate(r);
  const window: Entry[] = [];
  const cache = new Map<string, FrameMask>();
  /** Crops of frames already written, reused for new ones. */
  const spare: Planes[] = [];
  let previous: Entry | undefined;

  const maskOf = (index: number): FrameMask => {
    const ms = frameMs(index, info.fps);
    const shown = l.spans.flatMap((s, k) => (shownAt(s, ms) ? [k] : []));
    const key = shown.join(',');
    const known = cache.get(key);
    if (known) {
      // Most recently used last.
      cache.delete(key);
      cache.set(key, known);
      return known;
    }
    const maskY = new Uint8Array(r.w * r.h);
    let masked = false;
    let boxed = 0;
    for (const k of shown) {
      const s = l.spans[k];
      boxed += s.box.w * s.box.h;
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
    }
    const keep = new Uint8Array(maskY.length);
    for (let i = 0; i < keep.length; i++) keep[i] = 1 - maskY[i];
    const made = { maskY, maskC: chromaMask(maskY, r.w, r.h), keep, masked, boxed };
    cache.set(key, made);
    if (cache.size > MASK_CACHE) cache.delete(cache.keys().next().value as string);
    return made;
  };

  const entryOf = (crop: Planes, index: number): Entry => {
    const mask = maskOf(index);
    counts.boxed += mask.boxed;
    let shift: Shift = { dx: 0, dy: 0 };
    // The shift matters only when this frame or the one before has text (a plate carried across it).
    if (previous && (mask.masked || previous.mask.masked)) {
      shift = estimateShift(previous.crop.y, previous.mask.keep, crop.y, mask.keep, r.w, r.h);
    }
    return { crop, mask, shift };
  };

  /** The backward plate over the window, kept for the first `upto` frames that have text. */
  const sweepBack = (upto: number) => {
    if (!window.slice(0, upto).some((e) => e.mask.masked)) return;
    const back = newPlate(r);
    const spare = newPlate(r);
    for (let k = window.length - 1; k >= 0; k--) {
      const e = window[k];
      const next = window[k + 1];
      const shift = next ? { dx: -next.shift.dx, dy: -next.shift.dy } : { dx: 0, dy: 0 };
      advancePlate(back, spare, e.crop, e.mask.maskY, e.mask.maskC, r, shift);
      if (k < upto && e.mask.masked) e.back = sampleBack(back, e.mask);
    }
  };

  return {
    region: r,
    /** Takes the region out of `part`, the frame `index` cropped to `at`. */
    push(part: Uint8Array, at: Rect, index: number) {
      const crop = spare.pop() ?? newPlanes(r);
      cropRegion(part, at.w, at.h, { ...r, x: r.x - at.x, y: r.y - at.y }, crop);
      const e = entryOf(crop, index);
      previous = e;
      window.push(e);
    },
    /**
     * Fills the first `block` frames of the window (all with `all`); returns their region pictures,
     * handed back with `recycle` once their frames are written.
     */
    async flush(all: boolean): Promise<Filled[]> {
      const upto = all ? window.length : block;
      sweepBack(upto);
      const out: Filled[] = [];
      for (const e of window.splice(0, upto)) {
        advancePlate(fwd, scratch, e.crop, e.mask.maskY, e.mask.maskC, r, e.shift);
        if (e.mask.masked) await fillFrame(e, fwd, r, counts, inpainter);
        out.push({ crop: e.crop, masked: e.mask.masked });
      }
      return out;
    },
    recycle(done: Filled[]) {
      // The last frame read is still needed: the next one's motion is measured from it.
      for (const d of done) if (d.crop !== previous?.crop) spare.push(d.crop);
    },
  };
}

/** Whole frames read into a few reused arrays, each taken again only once its write has gone out. */
function frameRing(size: number, n = 4) {
  const slots = Array.from({ length: n }, () => ({
    frame: new Uint8Array(size),
    sent: Promise.resolve() as Promise<void>,
  }));
  let turn = 0;
  return {
    take: async (): Promise<Uint8Array> => {
      const slot = slots[turn++ % n];
      await slot.sent;
      return slot.frame;
    },
    /** Writes with back-pressure (waits for 'drain' when the pipe is full). */
    async write(stream: Writable, frame: Uint8Array): Promise<void> {
      let ok = true;
      // Settled on an error too: the encoder's own end says why.
      const sent = new Promise<void>((resolve) => {
        ok = stream.write(frame, () => resolve());
      });
      const slot = slots.find((s) => s.frame === frame);
      if (slot) slot.sent = sent;
      if (!ok) await once(stream, 'drain');
    },
  };
}

/** The smallest rectangle holding all `rects`. */
function around(rects: Rect[]): Rect {
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  return {
    x,
    y,
    w: Math.max(...rects.map((r) => r.x + r.w)) - x,
    h: Math.max(...rects.map((r) => r.y + r.h)) - y,
  };
}

const LONG_RUN = { timeoutMs: 6 * 60 * 60_000 };

/**
 * Pass 2: decode → fill → encode (picture only). The video is decoded twice side by side: once
 * cropped to the regions and read ahead for the look-ahead window, once whole and read only as each
 * filled frame is written — so the window holds the regions' rows, not whole frames (a 2-second
 * look-ahead of whole 720p frames held about 140 MB).
 */
async function fillPass(
  input: string,
  output: string,
  pixels: FillOptions['spans'],
  masks: Uint8Array[],
  opts: FillOptions,
  inpainter: () => Promise<Inpainter>,
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
  // Regions have even corners and sizes, and so has the rectangle around them (whole chroma pixels).
  const band = around(regions.map((g) => g.region));
  const decode = (filter: string[]) =>
    spawnMedia(
      'ffmpeg',
      ['-i', input, '-an', '-fps_mode', 'passthrough', ...filter, '-f', 'rawvideo', 'pipe:1'],
      { signal, ...LONG_RUN },
    );
  // Converted before the crop, as the whole frames are (a 10-bit source is dithered by position).
  const ahead = decode(['-vf', `format=yuv420p,crop=${band.w}:${band.h}:${band.x}:${band.y}`]);
  const whole = decode(['-pix_fmt', 'yuv420p']);
  const { encoder, stdin } = rawVideoEncoder({ width, height }, fps, opts.encode, output, signal);

  const ring = frameRing(frameBytes(width, height));
  const frames = readFrames(whole.child.stdout, frameBytes(width, height), ring.take)[Symbol.asyncIterator]();
  let written = 0;
  /** Writes the next `n` whole frames with the regions' filled pictures pasted in. */
  const emit = async (n: number, filled: Filled[][]) => {
    for (let k = 0; k < n; k++) {
      const next = await frames.next();
      if (next.done) {
        throw new EngineError('media_failed', '媒体处理失败', 'the video ended early on its second read');
      }
      regions.forEach((g, i) => {
        const f = filled[i][k];
        if (f.masked) pasteRegion(next.value, width, height, g.region, f.crop);
      });
      await ring.write(stdin, next.value);
      onFrame(++written);
    }
  };
  let pending = 0;
  const flush = async (all: boolean) => {
    const filled: Filled[][] = [];
    for (const region of regions) filled.push(await region.flush(all));
    const n = all ? pending : block;
    await emit(n, filled);
    regions.forEach((g, i) => {
      g.recycle(filled[i]);
    });
    pending -= n;
  };

  const work = (async () => {
    let index = 0;
    // Each part is cropped into the regions before the next is read: one array does.
    const part = new Uint8Array(frameBytes(band.w, band.h));
    for await (const _ of readFrames(ahead.child.stdout, part.length, () => part)) {
      for (const region of regions) region.push(part, band, index);
      index++;
      if (++pending >= 2 * block) await flush(false);
    }
    await flush(true);
    // A second read longer than the first (it should not be): its frames as they are.
    for (let next = await frames.next(); !next.done; next = await frames.next()) {
      await ring.write(stdin, next.value);
      onFrame(++written);
    }
    stdin.end();
  })();
  try {
    await Promise.all([work, ahead.done, whole.done, encoder.done]);
  } catch (e) {
    ahead.kill();
    whole.kill();
    encoder.kill();
    // Frames no longer read would keep the decoders' pipes, and so their ends, open.
    ahead.child.stdout.destroy();
    whole.child.stdout.destroy();
    // A pipe broken by the encoder's end says less than why it ended (cancelled, failed).
    if (!signal?.aborted && (e as NodeJS.ErrnoException).code !== 'EPIPE') throw e;
    const ended = await Promise.allSettled([encoder.done, ahead.done, whole.done]);
    const why = ended.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    throw why ? why.reason : e;
  }
  return counts;
}
