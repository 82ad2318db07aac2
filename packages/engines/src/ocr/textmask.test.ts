import { describe, expect, it } from 'vitest';
import { maskHits, steadyMask, textMask } from './textmask.ts';

const W = 60;
const H = 16;
const whole = [{ x: 0, y: 0, w: 1, h: 1 }];

/** Letter pixels: a few thick strokes in rows 4..11, columns 10..49. */
const LETTER = (() => {
  const px: number[] = [];
  for (let y = 4; y < 12; y++) for (let x = 10; x < 50; x++) if (x % 6 < 2 || y === 7) px.push(y * W + x);
  return px;
})();

/**
 * A gray frame: a light picture (luma 185–199) under heavy grain (±30, different in every frame),
 * with the letter drawn at luma 210 when `shown` — no pixel next to it is 80 darker, so the stroke
 * mask cannot see it. `grain` 0 makes the picture hold still.
 */
function frame(n: number, shown: boolean, grain = 30): Uint8Array {
  const g = new Uint8Array(W * H);
  for (let i = 0; i < g.length; i++) {
    // A hash of (frame, pixel): grain independent from frame to frame.
    let h = Math.imul(i ^ Math.imul(n + 1, 0x9e3779b1), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h = (h ^ (h >>> 16)) >>> 0;
    g[i] = 185 + ((i % W) % 15) + (grain ? (h % (2 * grain + 1)) - grain : 0);
  }
  if (shown) for (const p of LETTER) g[p] = 210;
  return g;
}

describe('text pixels of a cue over a light, grainy picture', () => {
  it('finds the letters by their held value where the stroke mask sees none, and tells frames with them from frames without', () => {
    const masks = Array.from({ length: 48 }, (_, n) => textMask(frame(n, n < 24), W, H));
    // Light letters on a light picture: no stroke pixels at all.
    expect(masks.slice(0, 24).every((m) => m.count === 0)).toBe(true);
    const cue = steadyMask(
      Array.from({ length: 12 }, (_, k) => masks[2 * k]),
      whole,
      W,
      H,
      0.6,
    );
    // The held pixels are (nearly) the letter's, hardly any grain.
    const letter = new Set(LETTER);
    let onLetter = 0;
    cue.bits.forEach((b, i) => {
      if (b && letter.has(i)) onLetter++;
    });
    expect(cue.count).toBeGreaterThan(LETTER.length * 0.9);
    expect(onLetter / cue.count).toBeGreaterThan(0.95);
    // Frames of the cue (sampled or not) hit it; frames after it do not.
    for (let j = 0; j < 24; j++) expect(maskHits(cue, masks[j], W)).toBeGreaterThan(0.9);
    for (let j = 24; j < 48; j++) expect(maskHits(cue, masks[j], W)).toBeLessThan(0.5);
  });

  it('keeps no held pixels where the picture itself holds still (holding proves nothing there)', () => {
    const masks = Array.from({ length: 12 }, (_, n) => textMask(frame(n, true, 0), W, H));
    const cue = steadyMask(
      [0, 3, 6, 9].map((j) => masks[j]),
      whole,
      W,
      H,
      0.6,
    );
    expect(cue.held).toBeUndefined();
    expect(cue.count).toBe(0);
  });

  it('needs three frames with their gray pixels to call a pixel held', () => {
    const masks = Array.from({ length: 4 }, (_, n) => textMask(frame(n, true), W, H));
    expect(steadyMask([masks[0], masks[2]], whole, W, H, 0.6).count).toBe(0);
  });

  it('judges holding on every frame a cue covers, so a cue read in one sample has held pixels too', () => {
    const masks = Array.from({ length: 12 }, (_, n) => textMask(frame(n, true), W, H));
    const cue = steadyMask([masks[6]], whole, W, H, 0.6, masks.slice(4, 9));
    const letter = new Set(LETTER);
    expect(cue.count).toBeGreaterThan(LETTER.length * 0.9);
    // Five frames leave a little chance grain in (all five must hold), far less than the letter.
    expect(
      [...cue.bits.keys()].filter((i) => cue.bits[i] && letter.has(i)).length / cue.count,
    ).toBeGreaterThan(0.85);
  });
});
