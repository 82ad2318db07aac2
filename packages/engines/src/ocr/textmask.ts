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
