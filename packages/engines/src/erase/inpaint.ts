import { openCv } from '../media/opencv.ts';
import { type Lama, lamaFill, startLama } from './lama.ts';
import { chromaSize, type Planes } from './yuv.ts';

/**
 * Spatial inpainting of what no frame shows: LaMa (a neural inpainter, lama.ts) when the model
 * catalogue's LaMa model is installed, else OpenCV's Telea method (@techstark/opencv-js, the
 * WebAssembly build installed with the OCR engine; loaded on first use, about a second). Only the
 * bounding box of the pixels to fill (plus the radius) is handed to OpenCV.
 */

interface CvMat {
  data: Uint8Array;
  delete(): void;
}

interface Cv {
  Mat: { new (): CvMat; new (rows: number, cols: number, type: number): CvMat };
  CV_8UC1: number;
  INPAINT_TELEA: number;
  inpaint(src: CvMat, mask: CvMat, dst: CvMat, radius: number, flags: number): void;
}

const opencv = () => openCv<Cv>();

/** Which inpainter filled what the temporal fill could not (the erase result names it). */
export type InpaintMethod = 'lama' | 'telea';

export interface InpaintOptions {
  /** The LaMa model file (an installed `inpaint` model); without it, or when it cannot run, Telea. */
  lamaModel?: string | null;
}

export interface Inpainter {
  readonly method: InpaintMethod;
  /** Fills a region's holes (luma and chroma resolution; null: none) in place. */
  fill(
    crop: Planes,
    holesY: Uint8Array | null,
    holesC: Uint8Array | null,
    w: number,
    h: number,
  ): Promise<void>;
  /** Ends what the inpainter started (LaMa's helper process). */
  close(): Promise<void>;
}

const telea: Inpainter = {
  method: 'telea',
  async fill(crop, holesY, holesC, w, h) {
    if (holesY) await inpaintPlane(crop.y, holesY, w, h);
    if (holesC) {
      const cw = chromaSize(w);
      const ch = chromaSize(h);
      await inpaintPlane(crop.u, holesC, cw, ch);
      await inpaintPlane(crop.v, holesC, cw, ch);
    }
  },
  close: async () => {},
};

/**
 * The inpainter of one erase, ready to use: LaMa with its model open when `lamaModel` is given
 * and opens, else Telea with OpenCV loaded (the fill starts this before it needs it).
 */
export async function loadInpainter(options: InpaintOptions = {}): Promise<Inpainter> {
  if (options.lamaModel) {
    let lama: Lama | undefined;
    try {
      lama = await startLama(options.lamaModel);
    } catch {
      // A model that does not open here (damaged, wrong export): the classic method, named as such.
    }
    if (lama) {
      const running = lama;
      return {
        method: 'lama',
        fill: (crop, holesY, holesC, w, h) => lamaFill(running, crop, holesY, holesC, w, h),
        close: () => running.close(),
      };
    }
  }
  await opencv();
  return telea;
}

const RADIUS = 4;

/** Fills `plane`'s pixels where `holes` is 1 from their surroundings (Telea), in place. */
export async function inpaintPlane(
  plane: Uint8Array,
  holes: Uint8Array,
  w: number,
  h: number,
): Promise<void> {
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!holes[y * w + x]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  if (x1 < 0) return;
  x0 = Math.max(0, x0 - RADIUS - 1);
  y0 = Math.max(0, y0 - RADIUS - 1);
  x1 = Math.min(w - 1, x1 + RADIUS + 1);
  y1 = Math.min(h - 1, y1 + RADIUS + 1);
  const cw = x1 - x0 + 1;
  const ch = y1 - y0 + 1;
  const { cv } = await opencv();
  const src = new cv.Mat(ch, cw, cv.CV_8UC1);
  const mask = new cv.Mat(ch, cw, cv.CV_8UC1);
  const dst = new cv.Mat();
  try {
    for (let y = 0; y < ch; y++) {
      const row = (y0 + y) * w + x0;
      src.data.set(plane.subarray(row, row + cw), y * cw);
      for (let x = 0; x < cw; x++) mask.data[y * cw + x] = holes[row + x] ? 255 : 0;
    }
    cv.inpaint(src, mask, dst, RADIUS, cv.INPAINT_TELEA);
    for (let y = 0; y < ch; y++) {
      const row = (y0 + y) * w + x0;
      for (let x = 0; x < cw; x++) if (holes[row + x]) plane[row + x] = dst.data[y * cw + x];
    }
  } finally {
    src.delete();
    mask.delete();
    dst.delete();
  }
}
