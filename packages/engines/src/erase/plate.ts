import type { Shift } from './motion.ts';
import { chromaSize, newPlanes, type Planes, type Rect } from './yuv.ts';

/**
 * A background plate: the region's picture as last seen without text, carried along the picture's
 * motion. Each pixel has an age — frames since it was seen (−1: never, or no longer valid). Run
 * forwards it holds what was visible before a cue appeared; run backwards, what is visible after it
 * ends. A tile whose visible pixels no longer match the carried plate (a cut, something moving on its
 * own) drops the carried pixels there: better inpainted than pasted from another scene.
 */

const TILE = 32;
/** Mean luma difference (0..255) above which a tile's carried pixels are dropped. */
const STALE = 12;
const AGE_MAX = 32_000;

export interface Plate {
  planes: Planes;
  ageY: Int16Array;
  ageC: Int16Array;
}

export function newPlate(r: Rect): Plate {
  const c = chromaSize(r.w) * chromaSize(r.h);
  return { planes: newPlanes(r), ageY: new Int16Array(r.w * r.h).fill(-1), ageC: new Int16Array(c).fill(-1) };
}

/** out[p] = from[p − s] (age −1 where p − s is outside). */
function shiftPlane(
  from: Uint8Array,
  age: Int16Array,
  to: Uint8Array,
  toAge: Int16Array,
  w: number,
  h: number,
  dx: number,
  dy: number,
) {
  if (dx === 0 && dy === 0) {
    to.set(from);
    toAge.set(age);
    return;
  }
  toAge.fill(-1);
  for (let y = Math.max(0, dy); y < Math.min(h, h + dy); y++) {
    const src = (y - dy) * w;
    const x0 = Math.max(0, dx);
    const x1 = Math.min(w, w + dx);
    to.set(from.subarray(src + x0 - dx, src + x1 - dx), y * w + x0);
    toAge.set(age.subarray(src + x0 - dx, src + x1 - dx), y * w + x0);
  }
}

/**
 * Moves the plate to the next frame (in either direction): carried by `shift`, checked tile by tile
 * against the frame's visible pixels, then the visible pixels taken from the frame (age 0) and the
 * masked ones aged by one.
 */
export function advancePlate(
  plate: Plate,
  scratch: Plate,
  frame: Planes,
  maskY: Uint8Array,
  maskC: Uint8Array,
  r: Rect,
  shift: Shift,
): void {
  const { w, h } = r;
  const cw = chromaSize(w);
  const ch = chromaSize(h);
  const cdx = Math.round(shift.dx / 2);
  const cdy = Math.round(shift.dy / 2);
  shiftPlane(plate.planes.y, plate.ageY, scratch.planes.y, scratch.ageY, w, h, shift.dx, shift.dy);
  shiftPlane(plate.planes.u, plate.ageC, scratch.planes.u, scratch.ageC, cw, ch, cdx, cdy);
  // V shares U's ages: shifted into place with the same ages again.
  shiftPlane(plate.planes.v, plate.ageC, scratch.planes.v, scratch.ageC, cw, ch, cdx, cdy);

  const py = scratch.planes.y;
  for (let ty = 0; ty < h; ty += TILE) {
    for (let tx = 0; tx < w; tx += TILE) {
      let masked = 0;
      let diff = 0;
      let n = 0;
      for (let y = ty; y < Math.min(h, ty + TILE); y++) {
        for (let x = tx; x < Math.min(w, tx + TILE); x++) {
          const i = y * w + x;
          if (maskY[i]) masked++;
          else if (scratch.ageY[i] >= 0) {
            diff += Math.abs(py[i] - frame.y[i]);
            n++;
          }
        }
      }
      if (!masked || n < 32 || diff / n <= STALE) continue;
      for (let y = ty; y < Math.min(h, ty + TILE); y++) {
        for (let x = tx; x < Math.min(w, tx + TILE); x++) scratch.ageY[y * w + x] = -1;
      }
      for (let y = ty >> 1; y < Math.min(ch, (ty + TILE) >> 1); y++) {
        for (let x = tx >> 1; x < Math.min(cw, (tx + TILE) >> 1); x++) scratch.ageC[y * cw + x] = -1;
      }
    }
  }

  const { y: sy, u: su, v: sv } = scratch.planes;
  for (let i = 0; i < maskY.length; i++) {
    if (!maskY[i]) {
      sy[i] = frame.y[i];
      scratch.ageY[i] = 0;
    } else if (scratch.ageY[i] >= 0 && scratch.ageY[i] < AGE_MAX) scratch.ageY[i]++;
  }
  for (let i = 0; i < maskC.length; i++) {
    if (!maskC[i]) {
      su[i] = frame.u[i];
      sv[i] = frame.v[i];
      scratch.ageC[i] = 0;
    } else if (scratch.ageC[i] >= 0 && scratch.ageC[i] < AGE_MAX) scratch.ageC[i]++;
  }
  // The plate becomes the scratch and the other way round.
  [plate.planes, scratch.planes] = [scratch.planes, plate.planes];
  [plate.ageY, scratch.ageY] = [scratch.ageY, plate.ageY];
  [plate.ageC, scratch.ageC] = [scratch.ageC, plate.ageC];
}
