import { splitIntoLineImages } from '@gutenye/ocr-common/splitIntoLineImages';
// Registers the picture backend the library's function returns its crops in.
import '@gutenye/ocr-node';
import { describe, expect, it } from 'vitest';
import { openCv } from '../media/opencv.ts';
import { cutLines, type LineCv } from './lineboxes.ts';

const W = 320;
const H = 96;

/** A detection mask with a wide line, a short tilted one and a tall narrow one (turned upright). */
function mask(): Uint8Array {
  const m = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const wide = y >= 8 && y < 24 && x >= 20 && x < 200;
      const tilted = Math.abs(y - 50 - (x - 40) * 0.15) < 6 && x >= 40 && x < 140;
      const tall = y >= 30 && y < 90 && x >= 260 && x < 272;
      if (wide || tilted || tall) m[y * W + x] = 255;
    }
  }
  return m;
}

/** The picture the lines are cut from: twice the mask's size, every pixel different. */
const source = () => ({
  data: Uint8Array.from({ length: W * H * 16 }, (_, i) => (i % 4 === 3 ? 255 : (i * 37 + (i >> 9)) & 255)),
  width: W * 2,
  height: H * 2,
});

describe('line cutting for PP-OCR', () => {
  it('cuts the same boxes and pixels as the library, scaled to the picture, the tall line turned', async () => {
    const { cv } = await openCv<LineCv>();
    const m = mask();
    const src = source();
    const ours = cutLines(cv, m, W, H, src);
    const rgba = new Uint8Array(W * H * 4).fill(255);
    for (let i = 0; i < m.length; i++) rgba.fill(m[i], i * 4, i * 4 + 3);
    const theirs = (await splitIntoLineImages(
      { data: rgba, width: W, height: H } as never,
      src as never,
    )) as {
      box: number[][];
      image: { data: Uint8Array; width: number; height: number };
    }[];
    expect(ours).toHaveLength(3);
    expect(ours.map((l) => l.box)).toEqual(theirs.map((l) => l.box));
    ours.forEach((l, i) => {
      const t = theirs[i].image;
      expect([l.image.width, l.image.height]).toEqual([t.width, t.height]);
      expect(Buffer.compare(Buffer.from(l.image.data), Buffer.from(t.data))).toBe(0);
    });
    // Every crop is wider than tall (the 12 × 60 line was turned upright).
    expect(ours.every((l) => l.image.width > l.image.height)).toBe(true);
  });

  it("frees everything it puts in OpenCV's heap (the library kept every crop: a helper died at 1 GB)", async () => {
    const { cv } = await openCv<LineCv>();
    const m = mask();
    const src = source();
    // Where a fresh matrix lands after 1 and after 40 pictures: higher only if crops were left behind.
    const nextAllocation = () => {
      const probe = new cv.Mat(64, 64, cv.CV_8UC1);
      const at = probe.data.byteOffset;
      probe.delete();
      return at;
    };
    cutLines(cv, m, W, H, src);
    const before = nextAllocation();
    for (let i = 0; i < 40; i++) cutLines(cv, m, W, H, src);
    expect(nextAllocation()).toBe(before);
  });
});
