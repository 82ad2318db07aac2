/**
 * The global shift of the picture between two frames of a region (a pan or a moving band), in whole
 * pixels: content at p in `prev` is at p + shift in `cur`. Found coarse to fine — at half size over
 * ±MAX/2, then ±1 at full size — by the mean absolute difference over the pixels neither frame
 * masks (the text, which does not move with the picture).
 */

export interface Shift {
  dx: number;
  dy: number;
}

/** Largest shift looked for, in pixels per frame (a slow pan moves a few). */
const MAX = 8;
/** Differences are clipped so that a few unlike pixels (a moving hand) do not outweigh the rest. */
const CLIP = 48;

interface Plane {
  px: Uint8Array;
  keep: Uint8Array;
  w: number;
  h: number;
}

function half(p: Plane): Plane {
  const w = p.w >> 1;
  const h = p.h >> 1;
  const px = new Uint8Array(w * h);
  const keep = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = 2 * y * p.w + 2 * x;
      px[y * w + x] = (p.px[a] + p.px[a + 1] + p.px[a + p.w] + p.px[a + p.w + 1] + 2) >> 2;
      keep[y * w + x] = p.keep[a] & p.keep[a + 1] & p.keep[a + p.w] & p.keep[a + p.w + 1];
    }
  }
  return { px, keep, w, h };
}

/** Mean clipped |cur(p) − prev(p − s)| over kept pixels on a grid of `step`; Infinity if too few. */
function cost(prev: Plane, cur: Plane, dx: number, dy: number, step: number): number {
  const { w, h } = cur;
  const { px: cp, keep: ck } = cur;
  const { px: pp, keep: pk } = prev;
  // prev's pixel for cur's pixel i is i − off; bounds and arrays hoisted out of the hot loop.
  const off = dy * w + dx;
  const x0 = Math.max(0, dx);
  const x1 = Math.min(w, w + dx);
  const y1 = Math.min(h, h + dy);
  let sum = 0;
  let n = 0;
  for (let y = Math.max(0, dy); y < y1; y += step) {
    const end = y * w + x1;
    for (let i = y * w + x0; i < end; i += step) {
      if ((ck[i] & pk[i - off]) === 0) continue;
      const d = cp[i] - pp[i - off];
      const a = d < 0 ? -d : d;
      sum += Math.min(a, CLIP);
      n++;
    }
  }
  return n >= 64 ? sum / n : Number.POSITIVE_INFINITY;
}

function best(prev: Plane, cur: Plane, cx: number, cy: number, range: number, step: number): Shift {
  let found = { dx: cx, dy: cy };
  let least = Number.POSITIVE_INFINITY;
  for (let dy = cy - range; dy <= cy + range; dy++) {
    for (let dx = cx - range; dx <= cx + range; dx++) {
      // Ties go to the smaller move (a still picture stays still).
      const c = cost(prev, cur, dx, dy, step) + 1e-4 * (Math.abs(dx) + Math.abs(dy));
      if (c < least) {
        least = c;
        found = { dx, dy };
      }
    }
  }
  return found;
}

/** `keepPrev`/`keepCur`: 1 where the pixel is picture (not text) in that frame. */
export function estimateShift(
  prev: Uint8Array,
  keepPrev: Uint8Array,
  cur: Uint8Array,
  keepCur: Uint8Array,
  w: number,
  h: number,
): Shift {
  const a: Plane = { px: prev, keep: keepPrev, w, h };
  const b: Plane = { px: cur, keep: keepCur, w, h };
  if (w < 16 || h < 16) return best(a, b, 0, 0, 2, 1);
  const coarse = best(half(a), half(b), 0, 0, MAX >> 1, 1);
  return best(a, b, coarse.dx * 2, coarse.dy * 2, 1, 1);
}
