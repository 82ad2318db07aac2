import type { Box } from './types.ts';

/**
 * Change detection on a subtitle band without OCR. A "text mask" keeps the pixels that look like
 * subtitle strokes: bright (luma ≥ 160) with a much darker pixel (by ≥ 80) within 2 px — the edge
 * between a letter and its outline or a dark picture. A moving background changes the picture but
 * hardly this mask; a new subtitle changes most of it.
 */
export interface TextMask {
  bits: Uint8Array;
  count: number;
}

const BRIGHT = 160;
const CONTRAST = 80;

export function textMask(gray: Uint8Array, width: number, height: number): TextMask {
  const bits = new Uint8Array(width * height);
  let count = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const v = gray[row + x];
      if (v < BRIGHT) continue;
      const limit = v - CONTRAST;
      let hit = false;
      for (let d = 1; d <= 2 && !hit; d++) {
        if (x >= d && gray[row + x - d] <= limit) hit = true;
        else if (x + d < width && gray[row + x + d] <= limit) hit = true;
        else if (y >= d && gray[row - d * width + x] <= limit) hit = true;
        else if (y + d < height && gray[row + d * width + x] <= limit) hit = true;
      }
      if (hit) {
        bits[row + x] = 1;
        count++;
      }
    }
  }
  return { bits, count };
}

/**
 * Distance 0..1 between two masks, tolerant of a 1-pixel jitter: the share of set pixels in either
 * mask with no set pixel at the same place or next to it in the other.
 */
export function maskDistance(a: TextMask, b: TextMask, width: number): number {
  if (!a.count && !b.count) return 0;
  if (!a.count || !b.count) return 1;
  const miss = (p: Uint8Array, q: Uint8Array) => {
    let m = 0;
    const n = p.length;
    for (let i = 0; i < n; i++) {
      if (!p[i]) continue;
      if (
        q[i] ||
        (i > 0 && q[i - 1]) ||
        (i + 1 < n && q[i + 1]) ||
        (i >= width && q[i - width]) ||
        q[i + width]
      )
        continue;
      m++;
    }
    return m;
  };
  return (miss(a.bits, b.bits) + miss(b.bits, a.bits)) / (a.count + b.count);
}

/** Pixels set in at least `share` of `masks`, inside `boxes` (normalised, grown by 2 px). */
export function steadyMask(
  masks: TextMask[],
  boxes: Box[],
  width: number,
  height: number,
  share: number,
): TextMask {
  const inside = new Uint8Array(width * height);
  for (const b of boxes) {
    const x0 = Math.max(0, Math.floor(b.x * width) - 2);
    const x1 = Math.min(width, Math.ceil((b.x + b.w) * width) + 2);
    const y0 = Math.max(0, Math.floor(b.y * height) - 2);
    const y1 = Math.min(height, Math.ceil((b.y + b.h) * height) + 2);
    for (let y = y0; y < y1; y++) inside.fill(1, y * width + x0, y * width + x1);
  }
  const need = Math.max(1, Math.ceil(masks.length * share));
  const bits = new Uint8Array(width * height);
  let count = 0;
  for (let i = 0; i < bits.length; i++) {
    if (!inside[i]) continue;
    let n = 0;
    for (const m of masks) n += m.bits[i];
    if (n >= need) {
      bits[i] = 1;
      count++;
    }
  }
  return { bits, count };
}

/** Share 0..1 of `of`'s pixels that `frame` also has (at the same place or next to it). */
export function maskHits(of: TextMask, frame: TextMask, width: number): number {
  if (!of.count) return 0;
  const q = frame.bits;
  const n = q.length;
  let hits = 0;
  for (let i = 0; i < n; i++) {
    if (!of.bits[i]) continue;
    if (
      q[i] ||
      (i > 0 && q[i - 1]) ||
      (i + 1 < n && q[i + 1]) ||
      (i >= width && q[i - width]) ||
      q[i + width]
    )
      hits++;
  }
  return hits / of.count;
}
