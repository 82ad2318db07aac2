import { spawnMedia } from '../media/run.ts';
import { probeVideo, type VideoInfo } from '../ocr/frames.ts';
import type { Box } from '../ocr/types.ts';
import { dilate } from './mask.ts';
import type { Span } from './types.ts';
import { type Rect, readFrames } from './yuv.ts';

/**
 * Finding a watermark: an overlay stays put while the picture under it moves, so its edges are the
 * ones whose gradient keeps the same direction and size from frame to frame (the mean of the signed
 * gradients over a few seconds keeps them and averages a moving picture's edges away — the idea of
 * Dekel et al., "On the effectiveness of visible watermarks", 2017). Two reads of the video:
 * 1. samples (4 a second, gray, at most 640 px wide) in windows of two seconds: each window's
 *    persistent edges, joined into clusters, give its watermark boxes (inside the `areas` when
 *    given); consecutive windows with the same boxes are one segment;
 * 2. where the boxes change (a watermark that jumps to another corner, appears or goes), every frame
 *    around the change: the frame where the picture stops showing the old segment's edges and starts
 *    showing the new one's is the boundary.
 * A still shot shows every edge in every frame: a cluster over a quarter of the picture is not taken
 * for a watermark, and inside a drawn box the box found is about the drawn one (the caller erases a
 * drawn box where nothing was found as drawn).
 */

export interface WatermarkSegment {
  /** The watermark's box (normalised, tight around its edges). */
  box: Box;
  start_ms: number;
  /** The first frame without it (or the video's end). */
  end_ms: number;
  /** The index of the area it was found in (with `areas`). */
  area?: number;
}

export interface FindWatermarksOptions {
  /** Where to look (normalised boxes); one watermark per area. Default: the whole picture. */
  areas?: Box[];
  signal?: AbortSignal;
  onProgress?: (f: number) => void;
}

const WIDTH_MAX = 640;
const RATE = 4;
const WINDOW = 8;
/** Mean gradient size (central difference, 0..510) an edge keeps over a window. */
const EDGE = 12;
/** |Σ gradient| / Σ |gradient|: 1 for an edge that never changes, about 1/√n for a moving picture. */
const CONSISTENT = 0.6;
/** Pixels joining the edges of one watermark (its letters, its plate) into one cluster. */
const JOIN = 6;
const MIN_EDGES = 24;
/** Share of a window's frames that must show an edge. */
const SHOWN = 0.6;
const MAX_SHARE = 0.25;
/** Boxes of two windows are the same watermark above this overlap (intersection over union). */
const SAME = 0.5;

interface Sums {
  gx: Float32Array;
  gy: Float32Array;
  mag: Float32Array;
  n: number;
}

const newSums = (size: number): Sums => ({
  gx: new Float32Array(size),
  gy: new Float32Array(size),
  mag: new Float32Array(size),
  n: 0,
});

function addFrame(s: Sums, p: Uint8Array, w: number, h: number) {
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = p[i + 1] - p[i - 1];
      const gy = p[i + w] - p[i - w];
      s.gx[i] += gx;
      s.gy[i] += gy;
      s.mag[i] += Math.sqrt(gx * gx + gy * gy);
    }
  }
  s.n++;
}

function addSums(to: Sums, from: Sums) {
  for (let i = 0; i < to.gx.length; i++) {
    to.gx[i] += from.gx[i];
    to.gy[i] += from.gy[i];
    to.mag[i] += from.mag[i];
  }
  to.n += from.n;
}

/**
 * The edges that persist over the summed frames (1 = edge), inside `keep`: strong and consistent on
 * average, and shown by more than half of `frames` themselves (an edge seen in a third of them, a
 * logo that left during the window, can still be strong on average).
 */
function persistent(s: Sums, keep: Uint8Array, frames?: Uint8Array[], w = 0): Uint8Array {
  const out = new Uint8Array(s.gx.length);
  if (!s.n) return out;
  for (let i = 0; i < out.length; i++) {
    if (!keep[i]) continue;
    const m = Math.sqrt(s.gx[i] * s.gx[i] + s.gy[i] * s.gy[i]);
    if (m < EDGE * s.n || m < CONSISTENT * s.mag[i]) continue;
    if (frames) {
      // Each frame's gradient along the mean direction.
      const ux = s.gx[i] / m;
      const uy = s.gy[i] / m;
      let shown = 0;
      for (const p of frames) if ((p[i + 1] - p[i - 1]) * ux + (p[i + w] - p[i - w]) * uy >= EDGE) shown++;
      if (shown < SHOWN * frames.length) continue;
    }
    out[i] = 1;
  }
  return out;
}

/** Clusters of edges (joined over JOIN px): the bounding box of each cluster's edge pixels and its count. */
function clusters(edges: Uint8Array, w: number, h: number): Array<Rect & { count: number }> {
  const joined = dilate(edges, w, h, JOIN);
  const seen = new Uint8Array(w * h);
  const stack = new Int32Array(w * h);
  const out: Array<Rect & { count: number }> = [];
  for (let start = 0; start < joined.length; start++) {
    if (!joined[start] || seen[start]) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let x0 = w;
    let y0 = h;
    let x1 = -1;
    let y1 = -1;
    let count = 0;
    while (top) {
      const i = stack[--top];
      const x = i % w;
      const y = (i - x) / w;
      if (edges[i]) {
        count++;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
      for (const j of [
        x > 0 ? i - 1 : -1,
        x < w - 1 ? i + 1 : -1,
        y > 0 ? i - w : -1,
        y < h - 1 ? i + w : -1,
      ]) {
        if (j >= 0 && joined[j] && !seen[j]) {
          seen[j] = 1;
          stack[top++] = j;
        }
      }
    }
    if (count) out.push({ x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1, count });
  }
  return out;
}

const iou = (a: Rect, b: Rect) => {
  const ix = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
  const iy = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  const inter = ix * iy;
  return inter / (a.w * a.h + b.w * b.h - inter);
};

const sameBoxes = (a: Found[], b: Found[]) =>
  a.length === b.length && a.every((r) => b.some((q) => q.area === r.area && iou(r, q) >= SAME));

interface Frame {
  w: number;
  h: number;
  /** Pixels inside the areas (all when none). */
  keep: Uint8Array;
  /** The areas in analysis pixels (the whole picture when none). */
  areas: Rect[];
  whole: boolean;
}

type Found = Rect & { area?: number };

/** The watermark boxes the summed frames (or these `frames` themselves) show. */
function boxesOf(s: Sums, f: Frame, frames?: Uint8Array[]): Found[] {
  const found = clusters(persistent(s, f.keep, frames, f.w), f.w, f.h).filter(
    (c) => c.count >= MIN_EDGES && c.w * c.h <= MAX_SHARE * f.w * f.h,
  );
  if (f.whole) return found;
  // One watermark per area: the clusters centred in it, together.
  const out: Found[] = [];
  f.areas.forEach((a, area) => {
    const inside = found.filter((c) => {
      const cx = c.x + c.w / 2;
      const cy = c.y + c.h / 2;
      return cx >= a.x && cx < a.x + a.w && cy >= a.y && cy < a.y + a.h;
    });
    if (!inside.length) return;
    const x0 = Math.min(...inside.map((c) => c.x));
    const y0 = Math.min(...inside.map((c) => c.y));
    const x1 = Math.max(...inside.map((c) => c.x + c.w));
    const y1 = Math.max(...inside.map((c) => c.y + c.h));
    out.push({ x: x0, y: y0, w: x1 - x0, h: y1 - y0, area });
  });
  return out;
}

/** A segment's edges with their mean gradient: what a frame showing the watermark correlates with. */
interface Signature {
  index: Int32Array;
  gx: Float32Array;
  gy: Float32Array;
  energy: number;
}

function signatureOf(s: Sums, boxes: Rect[], f: Frame): Signature {
  const edges = persistent(s, f.keep);
  const picked: number[] = [];
  for (const b of boxes) {
    for (let y = b.y; y < b.y + b.h; y++) {
      for (let x = b.x; x < b.x + b.w; x++) if (edges[y * f.w + x]) picked.push(y * f.w + x);
    }
  }
  const index = Int32Array.from(picked);
  const gx = new Float32Array(index.length);
  const gy = new Float32Array(index.length);
  let energy = 0;
  index.forEach((i, k) => {
    gx[k] = s.gx[i] / s.n;
    gy[k] = s.gy[i] / s.n;
    energy += gx[k] * gx[k] + gy[k] * gy[k];
  });
  return { index, gx, gy, energy };
}

/** How much of the signature's edges a frame shows (about 1 with the watermark, about 0 without). */
function presence(sig: Signature, p: Uint8Array, w: number): number {
  if (!sig.energy) return 0;
  let dot = 0;
  for (let k = 0; k < sig.index.length; k++) {
    const i = sig.index[k];
    dot += (p[i + 1] - p[i - 1]) * sig.gx[k] + (p[i + w] - p[i - w]) * sig.gy[k];
  }
  return dot / sig.energy;
}

interface Run {
  boxes: Found[];
  /** The open run's sums; a closed run keeps only its signature (a long video has many runs). */
  sums: Sums | null;
  sig?: Signature;
  /** Sample indexes [first, end). */
  first: number;
  end: number;
  windows: number;
}

function grayArgs(input: string, f: Frame, extra: string[], from?: number, length?: number): string[] {
  const seek = from !== undefined ? ['-ss', (from / 1000).toFixed(3)] : [];
  const take = length !== undefined ? ['-t', (length / 1000).toFixed(3)] : [];
  const vf = [...extra, `scale=${f.w}:${f.h}:flags=area`, 'format=gray'].join(',');
  return [
    ...seek,
    '-i',
    input,
    ...take,
    '-an',
    '-vf',
    vf,
    '-fps_mode',
    'passthrough',
    '-f',
    'rawvideo',
    'pipe:1',
  ];
}

async function eachGray(
  args: string[],
  size: number,
  signal: AbortSignal | undefined,
  each: (p: Uint8Array, i: number) => void,
): Promise<void> {
  const proc = spawnMedia('ffmpeg', args, { signal, timeoutMs: 6 * 60 * 60_000 });
  const work = (async () => {
    let i = 0;
    for await (const p of readFrames(proc.child.stdout, size)) each(p, i++);
  })();
  try {
    await Promise.all([work, proc.done]);
  } catch (e) {
    proc.kill();
    throw e;
  }
}

function frameOf(info: VideoInfo, areas: Box[] | undefined): Frame {
  const scale = Math.min(1, WIDTH_MAX / info.width);
  const w = Math.max(16, Math.round((info.width * scale) / 2) * 2);
  const h = Math.max(16, Math.round((info.height * scale) / 2) * 2);
  const whole = !areas?.length;
  const rects = whole
    ? [{ x: 0, y: 0, w, h }]
    : (areas ?? []).map((a) => ({
        x: Math.max(0, Math.floor(a.x * w)),
        y: Math.max(0, Math.floor(a.y * h)),
        w: Math.min(w, Math.ceil((a.x + a.w) * w)) - Math.max(0, Math.floor(a.x * w)),
        h: Math.min(h, Math.ceil((a.y + a.h) * h)) - Math.max(0, Math.floor(a.y * h)),
      }));
  const keep = new Uint8Array(w * h);
  for (const r of rects) for (let y = r.y; y < r.y + r.h; y++) keep.fill(1, y * w + r.x, y * w + r.x + r.w);
  return { w, h, keep, areas: rects, whole };
}

/** The watermarks of a video, per segment of time (empty: none found). */
export async function findWatermarks(
  input: string,
  opts: FindWatermarksOptions = {},
): Promise<WatermarkSegment[]> {
  const { signal } = opts;
  const info = await probeVideo(input, { signal });
  const f = frameOf(info, opts.areas);
  const size = f.w * f.h;
  const samples = Math.max(1, Math.ceil((info.durationMs / 1000) * RATE));

  // Pass 1: windows → runs of windows with the same boxes.
  const runs: Run[] = [];
  const closeRun = (r: Run) => {
    if (r.sums) r.sig = signatureOf(r.sums, r.boxes, f);
    r.sums = null;
  };
  let frames: Uint8Array[] = [];
  let first = 0;
  const closeWindow = (end: number) => {
    const window = newSums(size);
    for (const p of frames) addFrame(window, p, f.w, f.h);
    const boxes = boxesOf(window, f, frames);
    const last = runs.at(-1);
    if (last && sameBoxes(last.boxes, boxes)) {
      if (last.sums) {
        addSums(last.sums, window);
        // The boxes of the whole run: more frames, cleaner edges.
        const merged = boxesOf(last.sums, f);
        if (sameBoxes(merged, boxes)) last.boxes = merged;
      }
      last.end = end;
      last.windows++;
    } else {
      if (last) closeRun(last);
      runs.push({ boxes, sums: window, first, end, windows: 1 });
    }
  };
  let count = 0;
  let recent: Uint8Array[] = [];
  await eachGray(grayArgs(input, f, [`fps=${RATE}`]), size, signal, (p) => {
    frames.push(p);
    recent = [...recent.slice(1 - WINDOW), p];
    count++;
    if (frames.length >= WINDOW) {
      closeWindow(count);
      frames = [];
      first = count;
    }
    opts.onProgress?.(Math.min(0.9, (0.9 * count) / samples));
  });
  if (frames.length) {
    // A short tail says little on its own (a moving picture looks still over three frames): it is
    // judged with the frames before it, as a full window.
    first = count - recent.length;
    frames = recent;
    closeWindow(count);
  }
  const lastRun = runs.at(-1);
  if (lastRun) closeRun(lastRun);

  // A one-window run between two different runs is the change itself, not a segment of its own.
  const kept = runs.filter(
    (r, k) =>
      !(
        r.windows === 1 &&
        k > 0 &&
        k < runs.length - 1 &&
        !sameBoxes(r.boxes, runs[k - 1].boxes) &&
        !sameBoxes(r.boxes, runs[k + 1].boxes)
      ),
  );
  // Neighbours equal after that: one run.
  const merged: Run[] = [];
  for (const r of kept) {
    const last = merged.at(-1);
    if (last && sameBoxes(last.boxes, r.boxes)) {
      last.end = r.end;
      last.windows += r.windows;
    } else merged.push(r);
  }

  // Pass 2: the frame of each change, from the frames around it.
  const sampleMs = (i: number) => (i / RATE) * 1000;
  const frameMs = 1000 / info.fps;
  const bounds: number[] = [0];
  for (let k = 1; k < merged.length; k++) {
    const a = merged[k - 1];
    const b = merged[k];
    // From a whole frame, sought half a frame early so that it is the first one read.
    const firstFrame = Math.ceil(sampleMs(Math.max(a.first, a.end - WINDOW)) / frameMs - 1e-6);
    const from = Math.max(0, (firstFrame - 0.5) * frameMs);
    const to = sampleMs(Math.min(b.end, b.first + WINDOW));
    const none: Signature = {
      index: new Int32Array(0),
      gx: new Float32Array(0),
      gy: new Float32Array(0),
      energy: 0,
    };
    const sa = a.sig ?? none;
    const sb = b.sig ?? none;
    // Each frame's vote: > 0 looks like b, ≤ 0 like a (a side without a watermark scores 0.5).
    const votes: number[] = [];
    await eachGray(grayArgs(input, f, [], from, to - from), size, signal, (p) => {
      const pa = sa.energy ? presence(sa, p, f.w) : 0.5;
      const pb = sb.energy ? presence(sb, p, f.w) : 0.5;
      votes.push(pb - pa);
    });
    // The split that disagrees with the fewest frames.
    let best = 0;
    let least = Number.POSITIVE_INFINITY;
    let wrong = votes.filter((v) => v <= 0).length; // all frames taken as b
    for (let s = 0; s <= votes.length; s++) {
      if (wrong < least) {
        least = wrong;
        best = s;
      }
      if (s < votes.length) wrong += votes[s] > 0 ? 1 : -1;
    }
    bounds.push(Math.min(info.durationMs, (firstFrame + best) * frameMs));
  }
  bounds.push(info.durationMs);
  opts.onProgress?.(1);

  const out: WatermarkSegment[] = [];
  merged.forEach((r, k) => {
    for (const b of r.boxes) {
      out.push({
        box: { x: b.x / f.w, y: b.y / f.h, w: b.w / f.w, h: b.h / f.h },
        start_ms: Math.round(bounds[k]),
        end_ms: Math.round(bounds[k + 1]),
        ...(b.area !== undefined ? { area: b.area } : {}),
      });
    }
  });
  return out.sort((a, b) => a.start_ms - b.start_ms);
}

/**
 * Spans erasing found watermarks: each box grown by `padBox` (normalised) on every side, its time by
 * `marginMs` at a change (so the frames at the boundary lose both), the ends of the video open.
 */
export function spansFromWatermarks(
  segments: WatermarkSegment[],
  opts: { padBox: number; marginMs: number; durationMs: number },
): Span[] {
  return segments.map((s) => {
    const x = Math.max(0, s.box.x - opts.padBox);
    const y = Math.max(0, s.box.y - opts.padBox);
    return {
      box: {
        x,
        y,
        w: Math.min(1, s.box.x + s.box.w + opts.padBox) - x,
        h: Math.min(1, s.box.y + s.box.h + opts.padBox) - y,
      },
      start_ms: s.start_ms <= 0 ? null : Math.max(0, s.start_ms - opts.marginMs),
      end_ms: s.end_ms >= opts.durationMs ? null : s.end_ms + opts.marginMs,
    };
  });
}
