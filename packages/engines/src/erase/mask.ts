import type { Rect } from './yuv.ts';

/**
 * The mask of the text itself inside a span's box. A subtitle's strokes are high-contrast edges that
 * stay put while the picture under them moves: a pixel is a candidate in one frame when it is bright
 * with a much darker pixel within 2 px (a stroke against its outline) or dark with a much brighter
 * one (the outline against a stroke), and hardly changed since the frame before; over the span's
 * frames the pixels that are candidates in at least half of them are the text, and the mask is that grown by a few pixels to cover the outline,
 * the shadow and the anti-aliased fringe.
 */

const BRIGHT = 150;
const DARK = 100;
const CONTRAST = 70;
const REACH = 2;
/** Share of a span's frames a pixel must be a candidate in. */
const VOTE = 0.5;
/** Pixels added around the voted strokes. */
export const MASK_GROWTH = 3;

/** Change from the frame before (0..255) up to which a pixel counts as still. */
const STILL = 16;

/**
 * Candidate text pixels of `box` (in the planes' coordinates) added to `votes` (box-sized);
 * `previous` is the frame before, if any.
 */
export function voteCandidates(
  plane: Uint8Array,
  previous: Uint8Array | undefined,
  stride: number,
  box: Rect,
  votes: Uint16Array,
): void {
  for (let j = 0; j < box.h; j++) {
    const y = box.y + j;
    for (let i = 0; i < box.w; i++) {
      const x = box.x + i;
      const v = plane[y * stride + x];
      const bright = v >= BRIGHT;
      if (!bright && v > DARK) continue;
      if (previous && Math.abs(previous[y * stride + x] - v) > STILL) continue;
      let hit = false;
      for (let d = 1; d <= REACH && !hit; d++) {
        for (const [dx, dy] of [
          [d, 0],
          [-d, 0],
          [0, d],
          [0, -d],
        ]) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < box.x || yy < box.y || xx >= box.x + box.w || yy >= box.y + box.h) continue;
          const n = plane[yy * stride + xx];
          if (bright ? n <= v - CONTRAST : n >= v + CONTRAST) {
            hit = true;
            break;
          }
        }
      }
      if (hit) votes[j * box.w + i]++;
    }
  }
}

/** The span's mask (box-sized, 1 = text) from its votes over `frames` frames. */
export function maskFromVotes(votes: Uint16Array, w: number, h: number, frames: number): Uint8Array {
  const need = Math.max(1, Math.ceil(frames * VOTE));
  const core = new Uint8Array(w * h);
  for (let i = 0; i < core.length; i++) core[i] = votes[i] >= need ? 1 : 0;
  return dilate(core, w, h, MASK_GROWTH);
}

/** Square dilation by `r` pixels: rows, then columns, each by the distance to the nearest set pixel. */
export function dilate(mask: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const line = (get: (i: number) => number, set: (i: number) => void, n: number) => {
    let next = Number.POSITIVE_INFINITY;
    const ahead = new Float64Array(n);
    for (let i = n - 1; i >= 0; i--) {
      if (get(i)) next = i;
      ahead[i] = next;
    }
    let prev = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      if (get(i)) prev = i;
      if (i - prev <= r || ahead[i] - i <= r) set(i);
    }
  };
  const rows = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    line(
      (x) => mask[y * w + x],
      (x) => {
        rows[y * w + x] = 1;
      },
      w,
    );
  }
  const out = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) {
    line(
      (y) => rows[y * w + x],
      (y) => {
        out[y * w + x] = 1;
      },
      h,
    );
  }
  return out;
}

/** The chroma mask of a luma mask: a chroma pixel is masked when any of its 2 × 2 luma pixels is. */
export function chromaMask(mask: Uint8Array, w: number, h: number): Uint8Array {
  const cw = Math.ceil(w / 2);
  const ch = Math.ceil(h / 2);
  const out = new Uint8Array(cw * ch);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) if (mask[y * w + x]) out[(y >> 1) * cw + (x >> 1)] = 1;
  }
  return out;
}
