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
  /** The frame's gray pixels (a frame's mask): what held pixels are compared with. */
  gray?: Uint8Array;
  /**
   * A cue's mask only: for pixels that held their gray value through the cue while the picture
   * behind changed (`steadyMask`), that value; -1 elsewhere.
   */
  held?: Int16Array;
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
  return { bits, count, gray };
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

/**
 * A held pixel's gray value stays within this of its median through the cue. Grain over a busy
 * picture moves a pixel by more than this most of the time, the letters' own pixels hardly at all.
 */
const HOLD = 8;
/**
 * … in this share of the cue's frames (grain reaches into the thin strokes of a small band: on tuning
 * seed 5 a letter pixel holds in 0.75–1 of its frames, a picture pixel in about 0.2).
 */
const HELD_SHARE = 0.75;
/** Held pixels are bright (letters, not a dark box) … */
const HELD_BRIGHT = 150;
/** … and only mean something where most of the boxes' pixels did not hold (a moving picture). */
const MAX_HELD_SHARE = 0.3;
/** Fewer frames than this cannot tell a held pixel from chance. */
const MIN_HELD_FRAMES = 3;
/**
 * A pixel held in at least this many frames (all of them when fewer): in 4 of 5 grainy frames a
 * picture pixel holds by chance often enough to flood a one-sample cue's mask.
 */
const MIN_HELD_AGREE = 5;

/** Pixels inside `boxes` (normalised, grown by 2 px). */
function boxPixels(boxes: Box[], width: number, height: number): Uint8Array {
  const inside = new Uint8Array(width * height);
  for (const b of boxes) {
    const x0 = Math.max(0, Math.floor(b.x * width) - 2);
    const x1 = Math.min(width, Math.ceil((b.x + b.w) * width) + 2);
    const y0 = Math.max(0, Math.floor(b.y * height) - 2);
    const y1 = Math.min(height, Math.ceil((b.y + b.h) * height) + 2);
    for (let y = y0; y < y1; y++) inside.fill(1, y * width + x0, y * width + x1);
  }
  return inside;
}

/**
 * Bright pixels inside `inside` whose gray value held (within HOLD of its median) in at least
 * `share` of the frames, with that value; null when too few frames come with their gray pixels or when
 * the picture itself held still (then holding proves nothing). This sees yellow letters over a light
 * picture, where the stroke mask finds no dark edge next to them.
 */
function heldPixels(masks: TextMask[], inside: Uint8Array, share: number): Int16Array | null {
  // A frame with next to no stroke pixels may come without its gray pixels (an empty band).
  const frames = masks.flatMap((m) => (m.gray ? [m.gray] : []));
  if (frames.length < MIN_HELD_FRAMES) return null;
  const held = new Int16Array(inside.length).fill(-1);
  const need = Math.max(Math.ceil(frames.length * share), Math.min(frames.length, MIN_HELD_AGREE));
  const v = new Array<number>(frames.length);
  let box = 0;
  let still = 0;
  for (let i = 0; i < inside.length; i++) {
    if (!inside[i]) continue;
    box++;
    for (let f = 0; f < frames.length; f++) v[f] = frames[f][i];
    v.sort((a, b) => a - b);
    const median = v[v.length >> 1];
    let n = 0;
    for (const x of v) if (Math.abs(x - median) <= HOLD) n++;
    if (n < need) continue;
    still++;
    if (median >= HELD_BRIGHT) held[i] = median;
  }
  return box && still <= box * MAX_HELD_SHARE ? held : null;
}

/** Frames a held pixel is judged on at most (evenly spread): more add cost, not evidence. */
const MAX_HELD_FRAMES = 24;

/**
 * A cue's own pixels inside `boxes` (normalised, grown by 2 px): those set in at least `share` of
 * `masks` (its samples), plus (on a moving picture) the bright ones whose gray value held in
 * HELD_SHARE of `shown` (every frame the cue covers, default its samples) — `held` keeps the value of
 * those found only so. Judging holding on every frame, not only the samples, gives a cue OCR read in
 * one or two samples its held pixels too.
 */
export function steadyMask(
  masks: TextMask[],
  boxes: Box[],
  width: number,
  height: number,
  share: number,
  shown: TextMask[] = masks,
): TextMask {
  const inside = boxPixels(boxes, width, height);
  const need = Math.max(1, Math.ceil(masks.length * share));
  const stride = Math.ceil(shown.length / MAX_HELD_FRAMES);
  const held = heldPixels(
    shown.filter((_, f) => f % stride === 0),
    inside,
    HELD_SHARE,
  );
  const bits = new Uint8Array(width * height);
  let count = 0;
  for (let i = 0; i < bits.length; i++) {
    if (!inside[i]) continue;
    let n = 0;
    for (const m of masks) n += m.bits[i];
    if (n >= need && held) held[i] = -1;
    if (n >= need || (held && held[i] >= 0)) {
      bits[i] = 1;
      count++;
    }
  }
  return held ? { bits, count, held } : { bits, count };
}

/** The gray value `m` shows at pixel `i`: the frame's own, or the value a cue's pixel held; -1 = none. */
function grayAt(m: TextMask, i: number): number {
  if (m.gray) return m.gray[i];
  return m.held ? m.held[i] : -1;
}

/**
 * Share 0..1 of `of`'s pixels that `frame` also has: set at the same place or next to it, or (for a
 * pixel `of` holds at a gray value) showing that value there.
 */
export function maskHits(of: TextMask, frame: TextMask, width: number): number {
  if (!of.count) return 0;
  const q = frame.bits;
  const n = q.length;
  const held = of.held;
  let hits = 0;
  for (let i = 0; i < n; i++) {
    if (!of.bits[i]) continue;
    const g = held && held[i] >= 0 ? grayAt(frame, i) : -1;
    if (g >= 0) {
      // Grain near a held pixel makes stroke-like edges in any frame: only its value counts.
      if (Math.abs(g - (held as Int16Array)[i]) <= HOLD) hits++;
      continue;
    }
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
