import { spawnMedia } from '../media/run.ts';
import type { VideoInfo } from '../ocr/frames.ts';
import { chromaSize, frameBytes, type Rect, readFrames } from './yuv.ts';

/**
 * Un-blending a semi-transparent static watermark (the model of Dekel et al., "On the effectiveness
 * of visible watermarks", 2017): every frame under the logo is I = αW + (1 − α)J, with the logo's
 * opacity α and colour W the same in every frame of a segment. Per pixel that is I = a + bJ with
 * b = 1 − α, so J = (I − a) / b once a and b are known — the picture under the logo comes back with its
 * own grain and detail, where a fill can only copy it from other frames or guess it from the border.
 *
 * a and b are estimated from the video itself, over up to SAMPLES frames of the segment: the temporal
 * median M and spread S of I inside the box are M = a + b·median(J) and S = b·spread(J); median(J) and
 * spread(J) are not seen under the logo, so they are interpolated from a ring around the box (a Coons
 * patch of the ring's own median and spread). Then b = S / spread(J) and J = median(J) + (I − M) / b.
 * That holds where the picture's temporal statistics change smoothly across the box (skin, sky, walls,
 * a slow pan over gradients) and fails over moving texture (the median of a passing texture varies
 * from row to row): before un-blending, the same interpolation is tried on same-size patches beside
 * the box, where the answer is known, and a span is un-blended only when it predicts them within
 * TRUSTED levels (RMS luma); other spans are left to the fill. Where the logo is (nearly) opaque
 * (b < B_MIN: dividing by b would magnify the encoder's noise) the gain on I − M is tapered to 0, so
 * an opaque part gets the interpolated level. Each frame is un-blended only while it shows the logo
 * (its edges correlate with the logo's).
 */

/** Frames of a segment used for the statistics (spread evenly over it). */
const SAMPLES = 64;
/** Ring thickness (px) whose statistics are interpolated into the box. */
const RING = 4;
/** Below this b (above this opacity) the gain on I − M is tapered to 0. */
const B_MIN = 0.25;
/** Smallest spread (levels) a ring value may predict: a still, clean picture still has some grain. */
const SPREAD_MIN = 0.5;
/** RMS luma error (0..255) on the patches beside the box up to which a span is un-blended. */
export const TRUSTED = 2;
/** A frame shows the logo when its edges in the box match this share of the logo's. */
const PRESENT = 0.5;

interface PixelSpan extends Rect {
  start: number | null;
  end: number | null;
}

/** What un-blending a span needs, per plane: b (luma) and the level of J, M (luma and chroma). */
export interface UnblendModel {
  /** The box in luma pixels (even corners, so chroma is whole pixels). */
  box: Rect;
  start: number | null;
  end: number | null;
  /** b = 1 − α per luma pixel. */
  b: Float32Array;
  /** b per chroma pixel (the mean of its 2 × 2 luma pixels). */
  bc: Float32Array;
  /** Per plane: median(J) (interpolated) and M (the median of I). */
  level: [Float32Array, Float32Array, Float32Array];
  median: [Float32Array, Float32Array, Float32Array];
  /** The logo's luma edges (gradient of M − level), for the presence test. */
  edges: { gx: Float32Array; gy: Float32Array; energy: number };
  /** The RMS error predicted on the patches beside the box. */
  predicted: number;
  trusted: boolean;
}

const even = (n: number) => n - (n % 2);

const frameMs = (index: number, fps: number) => (index / fps) * 1000;
const shownAt = (s: { start: number | null; end: number | null }, ms: number) =>
  ms >= (s.start ?? 0) && (s.end === null || ms <= s.end);

/** One plane of a region over the sampled frames: per pixel the median and the spread (trimmed RMS about it). */
function stats(samples: Uint8Array[], w: number, h: number): { median: Float32Array; spread: Float32Array } {
  const n = samples.length;
  const median = new Float32Array(w * h);
  const spread = new Float32Array(w * h);
  const v = new Float64Array(n);
  const d = new Float64Array(n);
  const keep = Math.max(1, Math.ceil(n * 0.9));
  for (let i = 0; i < w * h; i++) {
    for (let k = 0; k < n; k++) v[k] = samples[k][i];
    v.sort();
    const m = n % 2 ? v[n >> 1] : (v[n / 2 - 1] + v[n / 2]) / 2;
    for (let k = 0; k < n; k++) d[k] = (v[k] - m) ** 2;
    d.sort();
    let s = 0;
    // The largest deviations dropped: a frame without the logo (the margin of a span) is not grain.
    for (let k = 0; k < keep; k++) s += d[k];
    median[i] = m;
    spread[i] = Math.sqrt(s / keep);
  }
  return { median, spread };
}

/**
 * A field inside `box` interpolated from the ring of `ring` pixels around it (a Coons patch of the
 * ring's mean across its thickness: exact for fields linear along each side). `field` covers `area`.
 */
function coons(field: Float32Array, area: Rect, box: Rect, ring: number): Float32Array {
  const { w, h } = box;
  const at = (x: number, y: number) => field[(y - area.y) * area.w + (x - area.x)];
  const top = new Float32Array(w);
  const bottom = new Float32Array(w);
  const left = new Float32Array(h);
  const right = new Float32Array(h);
  for (let i = 0; i < w; i++) {
    for (let k = 1; k <= ring; k++) {
      top[i] += at(box.x + i, box.y - k) / ring;
      bottom[i] += at(box.x + i, box.y + h - 1 + k) / ring;
    }
  }
  for (let j = 0; j < h; j++) {
    for (let k = 1; k <= ring; k++) {
      left[j] += at(box.x - k, box.y + j) / ring;
      right[j] += at(box.x + w - 1 + k, box.y + j) / ring;
    }
  }
  const c00 = (top[0] + left[0]) / 2;
  const c10 = (top[w - 1] + right[0]) / 2;
  const c01 = (bottom[0] + left[h - 1]) / 2;
  const c11 = (bottom[w - 1] + right[h - 1]) / 2;
  const out = new Float32Array(w * h);
  for (let j = 0; j < h; j++) {
    const v = (j + 1) / (h + 1);
    for (let i = 0; i < w; i++) {
      const u = (i + 1) / (w + 1);
      const across = (1 - u) * left[j] + u * right[j];
      const down = (1 - v) * top[i] + v * bottom[i];
      const corners = (1 - u) * (1 - v) * c00 + u * (1 - v) * c10 + (1 - u) * v * c01 + u * v * c11;
      out[j * w + i] = across + down - corners;
    }
  }
  return out;
}

/** Terms of a cubic surface in x, y (centred, scaled to about ±1). */
const TERMS = 10;
function terms(x: number, y: number, out: Float64Array) {
  out[0] = 1;
  out[1] = x;
  out[2] = y;
  out[3] = x * x;
  out[4] = x * y;
  out[5] = y * y;
  out[6] = x * x * x;
  out[7] = x * x * y;
  out[8] = x * y * y;
  out[9] = y * y * y;
}

/** Solves a·c = b (TERMS × TERMS, Gaussian elimination with partial pivoting); null when singular. */
function solve(a: Float64Array, b: Float64Array): Float64Array | null {
  const n = TERMS;
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r * n + c]) > Math.abs(a[pivot * n + c])) pivot = r;
    if (Math.abs(a[pivot * n + c]) < 1e-9) return null;
    for (let k = 0; k < n; k++) [a[c * n + k], a[pivot * n + k]] = [a[pivot * n + k], a[c * n + k]];
    [b[c], b[pivot]] = [b[pivot], b[c]];
    for (let r = c + 1; r < n; r++) {
      const f = a[r * n + c] / a[c * n + c];
      for (let k = c; k < n; k++) a[r * n + k] -= f * a[c * n + k];
      b[r] -= f * b[c];
    }
  }
  const x = new Float64Array(n);
  for (let r = n - 1; r >= 0; r--) {
    let v = b[r];
    for (let k = r + 1; k < n; k++) v -= a[r * n + k] * x[k];
    x[r] = v / a[r * n + r];
  }
  return x;
}

/**
 * A field inside `box` from a cubic surface fitted (least squares) to the ring around it: follows the
 * curve of a smooth blob (a cheek, a lit wall) where the Coons patch only blends the sides linearly.
 */
function cubic(field: Float32Array, area: Rect, box: Rect, ring: number): Float32Array {
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const sx = box.w / 2 + ring;
  const sy = box.h / 2 + ring;
  const ata = new Float64Array(TERMS * TERMS);
  const atb = new Float64Array(TERMS);
  const t = new Float64Array(TERMS);
  for (let y = box.y - ring; y < box.y + box.h + ring; y++) {
    for (let x = box.x - ring; x < box.x + box.w + ring; x++) {
      if (x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h) continue;
      terms((x - cx) / sx, (y - cy) / sy, t);
      const v = field[(y - area.y) * area.w + (x - area.x)];
      for (let i = 0; i < TERMS; i++) {
        atb[i] += t[i] * v;
        for (let j = 0; j < TERMS; j++) ata[i * TERMS + j] += t[i] * t[j];
      }
    }
  }
  const c = solve(ata, atb);
  if (!c) return coons(field, area, box, ring);
  const out = new Float32Array(box.w * box.h);
  for (let j = 0; j < box.h; j++) {
    for (let i = 0; i < box.w; i++) {
      terms((box.x + i - cx) / sx, (box.y + j - cy) / sy, t);
      let v = 0;
      for (let k = 0; k < TERMS; k++) v += c[k] * t[k];
      out[j * box.w + i] = v;
    }
  }
  return out;
}

type Interpolate = (field: Float32Array, area: Rect, box: Rect, ring: number) => Float32Array;

const crop = (field: Float32Array, area: Rect, box: Rect): Float32Array => {
  const out = new Float32Array(box.w * box.h);
  for (let j = 0; j < box.h; j++) {
    const from = (box.y + j - area.y) * area.w + (box.x - area.x);
    out.set(field.subarray(from, from + box.w), j * box.w);
  }
  return out;
};

/** b = S / interpolated spread(J), clamped to (0, 1]. */
function ratio(spread: Float32Array, expected: Float32Array): Float32Array {
  return spread.map((s, i) => Math.min(1, s / Math.max(SPREAD_MIN, expected[i])));
}

/**
 * The RMS error of un-blending a patch that has no logo (b should come out 1 and J equal I), over the
 * samples: how well the ring predicts what is under a box of this size here.
 */
function patchError(
  samples: Uint8Array[],
  st: { median: Float32Array; spread: Float32Array },
  area: Rect,
  patch: Rect,
  interpolate: Interpolate,
): number {
  const level = interpolate(st.median, area, patch, RING);
  const b = ratio(crop(st.spread, area, patch), interpolate(st.spread, area, patch, RING));
  const m = crop(st.median, area, patch);
  let se = 0;
  let n = 0;
  for (const s of samples) {
    for (let j = 0; j < patch.h; j++) {
      for (let i = 0; i < patch.w; i++) {
        const k = j * patch.w + i;
        const v = s[(patch.y + j - area.y) * area.w + (patch.x + i - area.x)];
        const bk = Math.max(b[k], B_MIN);
        const d = level[k] + (v - m[k]) / bk - v;
        se += d * d;
        n++;
      }
    }
  }
  return n ? Math.sqrt(se / n) : Number.POSITIVE_INFINITY;
}

interface Plan {
  span: PixelSpan;
  box: Rect;
  /** Box, ring and the patches beside it, in luma pixels (even corners). */
  area: Rect;
  patches: Rect[];
  frames: Set<number>;
  y: Uint8Array[];
  u: Uint8Array[];
  v: Uint8Array[];
}

/** The box (even corners) and up to two same-size patches beside it, inside the picture with their rings. */
function planOf(span: PixelSpan, info: VideoInfo): Plan | null {
  const { width, height } = info;
  const x0 = even(span.x);
  const y0 = even(span.y);
  const box = { x: x0, y: y0, w: even(span.x + span.w + 1 - x0), h: even(span.y + span.h + 1 - y0) };
  const fits = (r: Rect) =>
    r.x - RING >= 0 && r.y - RING >= 0 && r.x + r.w + RING <= width && r.y + r.h + RING <= height;
  if (!fits(box)) return null;
  const gap = 2 * RING;
  // Toward the middle of the picture first: a corner logo has picture beside it and below (or above) it.
  const right = box.x + box.w / 2 < width / 2;
  const down = box.y + box.h / 2 < height / 2;
  const across = [box.x + (box.w + gap) * (right ? 1 : -1), box.x + (box.w + gap) * (right ? -1 : 1)];
  const upDown = [box.y + (box.h + gap) * (down ? 1 : -1), box.y + (box.h + gap) * (down ? -1 : 1)];
  const patches = [
    across.map((x) => ({ ...box, x: even(x) })).find(fits),
    upDown.map((y) => ({ ...box, y: even(y) })).find(fits),
  ].filter((r): r is Rect => !!r);
  if (!patches.length) return null;
  const all = [box, ...patches];
  const ax = even(Math.min(...all.map((r) => r.x)) - RING);
  const ay = even(Math.min(...all.map((r) => r.y)) - RING);
  const ax1 = Math.max(...all.map((r) => r.x + r.w)) + RING;
  const ay1 = Math.max(...all.map((r) => r.y + r.h)) + RING;
  const area = { x: ax, y: ay, w: even(ax1 - ax + 1), h: even(ay1 - ay + 1) };
  area.w = Math.min(area.w, even(width - ax));
  area.h = Math.min(area.h, even(height - ay));
  const fps = info.fps || 25;
  const total = Math.max(1, Math.round((info.durationMs / 1000) * fps));
  const first = Math.max(0, Math.ceil(((span.start ?? 0) / 1000) * fps));
  const last = Math.min(total - 1, span.end === null ? total - 1 : Math.floor((span.end / 1000) * fps));
  const frames = new Set<number>();
  const count = last - first + 1;
  for (let k = 0; k < Math.min(SAMPLES, count); k++) {
    frames.add(first + Math.floor((k * count) / Math.min(SAMPLES, count)));
  }
  return { span, box, area, patches, frames, y: [], u: [], v: [] };
}

/** Copies `r` (luma pixels, even corners) of a yuv420p frame's planes. */
function cropPlanes(frame: Uint8Array, width: number, height: number, r: Rect) {
  const cw = chromaSize(width);
  const uAt = width * height;
  const vAt = uAt + cw * chromaSize(height);
  const y = new Uint8Array(r.w * r.h);
  for (let j = 0; j < r.h; j++)
    y.set(frame.subarray((r.y + j) * width + r.x, (r.y + j) * width + r.x + r.w), j * r.w);
  const rw = r.w / 2;
  const rh = r.h / 2;
  const u = new Uint8Array(rw * rh);
  const v = new Uint8Array(rw * rh);
  for (let j = 0; j < rh; j++) {
    const from = (r.y / 2 + j) * cw + r.x / 2;
    u.set(frame.subarray(uAt + from, uAt + from + rw), j * rw);
    v.set(frame.subarray(vAt + from, vAt + from + rw), j * rw);
  }
  return { y, u, v };
}

const half = (r: Rect): Rect => ({ x: r.x / 2, y: r.y / 2, w: r.w / 2, h: r.h / 2 });

function modelOf(p: Plan): UnblendModel {
  const { area, box } = p;
  const yStats = stats(p.y, area.w, area.h);
  // The interpolation that predicts the patches beside the box better.
  const errorOf = (f: Interpolate) =>
    Math.sqrt(p.patches.reduce((s, r) => s + patchError(p.y, yStats, area, r, f) ** 2, 0) / p.patches.length);
  const tried = ([coons, cubic] as const).map((f) => ({ f, error: errorOf(f) }));
  const { f: interpolate, error: predicted } = tried.reduce((a, b) => (b.error < a.error ? b : a));
  const b = ratio(crop(yStats.spread, area, box), interpolate(yStats.spread, area, box, RING));
  const cBox = half(box);
  const bc = new Float32Array(cBox.w * cBox.h);
  for (let j = 0; j < cBox.h; j++) {
    for (let i = 0; i < cBox.w; i++) {
      const q = [b[2 * j * box.w + 2 * i], b[2 * j * box.w + 2 * i + 1], b[(2 * j + 1) * box.w + 2 * i]];
      q.push(b[(2 * j + 1) * box.w + 2 * i + 1]);
      bc[j * cBox.w + i] = (q[0] + q[1] + q[2] + q[3]) / 4;
    }
  }
  const cArea = half(area);
  const uStats = stats(p.u, cArea.w, cArea.h);
  const vStats = stats(p.v, cArea.w, cArea.h);
  const level: UnblendModel['level'] = [
    interpolate(yStats.median, area, box, RING),
    // Chroma is half size: half the ring.
    interpolate(uStats.median, cArea, cBox, RING / 2),
    interpolate(vStats.median, cArea, cBox, RING / 2),
  ];
  const median: UnblendModel['median'] = [
    crop(yStats.median, area, box),
    crop(uStats.median, cArea, cBox),
    crop(vStats.median, cArea, cBox),
  ];
  // The logo's own edges: where M departs from the interpolated level.
  const gx = new Float32Array(box.w * box.h);
  const gy = new Float32Array(box.w * box.h);
  let energy = 0;
  const d = (k: number) => median[0][k] - level[0][k];
  for (let j = 1; j < box.h - 1; j++) {
    for (let i = 1; i < box.w - 1; i++) {
      const k = j * box.w + i;
      gx[k] = d(k + 1) - d(k - 1);
      gy[k] = d(k + box.w) - d(k - box.w);
      energy += gx[k] * gx[k] + gy[k] * gy[k];
    }
  }
  return {
    box,
    start: p.span.start,
    end: p.span.end,
    b,
    bc,
    level,
    median,
    edges: { gx, gy, energy },
    predicted,
    trusted: predicted <= TRUSTED && energy > 0,
  };
}

/**
 * The un-blend models of the spans (null where a span's box and the patches beside it do not fit in
 * the picture): one decode of the video, keeping the sampled frames' areas.
 */
export async function estimateUnblend(
  input: string,
  info: VideoInfo,
  spans: PixelSpan[],
  signal?: AbortSignal,
): Promise<Array<UnblendModel | null>> {
  const plans = spans.map((s) => planOf(s, info));
  if (!plans.some(Boolean)) return plans.map(() => null);
  const { width, height } = info;
  const proc = spawnMedia(
    'ffmpeg',
    ['-i', input, '-an', '-fps_mode', 'passthrough', '-pix_fmt', 'yuv420p', '-f', 'rawvideo', 'pipe:1'],
    { signal, timeoutMs: 6 * 60 * 60_000 },
  );
  const work = (async () => {
    let index = 0;
    for await (const frame of readFrames(proc.child.stdout, frameBytes(width, height))) {
      for (const p of plans) {
        if (!p?.frames.has(index)) continue;
        const c = cropPlanes(frame, width, height, p.area);
        p.y.push(c.y);
        p.u.push(c.u);
        p.v.push(c.v);
      }
      index++;
    }
  })();
  try {
    await Promise.all([work, proc.done]);
  } catch (e) {
    proc.kill();
    throw e;
  }
  return plans.map((p) => (p && p.y.length >= 8 ? modelOf(p) : null));
}

/** Whether a frame's luma in the box shows the logo's edges. */
function shows(m: UnblendModel, frame: Uint8Array, width: number): boolean {
  const { box, edges } = m;
  let dot = 0;
  for (let j = 1; j < box.h - 1; j++) {
    for (let i = 1; i < box.w - 1; i++) {
      const k = j * box.w + i;
      const at = (box.y + j) * width + box.x + i;
      dot +=
        (frame[at + 1] - frame[at - 1]) * edges.gx[k] + (frame[at + width] - frame[at - width]) * edges.gy[k];
    }
  }
  return dot >= PRESENT * edges.energy;
}

/**
 * The gain on I − M: 1 / b, tapered to 0 below B_MIN (an opaque part: its I − M is the encoder's noise,
 * magnified by 1 / b; what remains there is the level, the interpolated median of the picture).
 */
const gainOf = (b: number) => (b >= B_MIN ? 1 / b : b / (B_MIN * B_MIN));

/** J = level + (I − M) / b in one plane's box. */
function unblendPlane(
  plane: Uint8Array,
  stride: number,
  box: Rect,
  b: Float32Array,
  level: Float32Array,
  median: Float32Array,
) {
  for (let j = 0; j < box.h; j++) {
    for (let i = 0; i < box.w; i++) {
      const k = j * box.w + i;
      const at = (box.y + j) * stride + box.x + i;
      const v = level[k] + (plane[at] - median[k]) * gainOf(b[k]);
      plane[at] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  }
}

/**
 * Un-blends a yuv420p frame in place with the trusted models shown at `ms`; returns the luma pixels
 * un-blended (the opaque ones, given the level, not counted).
 */
export function unblendFrame(frame: Uint8Array, info: VideoInfo, models: UnblendModel[], ms: number): number {
  const { width, height } = info;
  const cw = chromaSize(width);
  const uAt = width * height;
  const vAt = uAt + cw * chromaSize(height);
  let changed = 0;
  for (const m of models) {
    if (!m.trusted || !shownAt(m, ms) || !shows(m, frame, width)) continue;
    unblendPlane(frame, width, m.box, m.b, m.level[0], m.median[0]);
    const c = half(m.box);
    unblendPlane(frame.subarray(uAt), cw, c, m.bc, m.level[1], m.median[1]);
    unblendPlane(frame.subarray(vAt), cw, c, m.bc, m.level[2], m.median[2]);
    for (const v of m.b) if (v >= B_MIN) changed++;
  }
  return changed;
}

export { frameMs };
