/**
 * One OCR helper process of the pool (pool.ts): PP-OCRv4 (detection + recognition, @gutenye/ocr-node
 * on onnxruntime-node's bundled CPU build), one intra-op thread so a pool of N helpers uses N cores.
 */
import Ocr from '@gutenye/ocr-node';
import sharp from 'sharp';
import { openCv } from '../media/opencv.ts';
import { serveHelper } from '../process/serve.ts';
import type { OcrLine } from './types.ts';

interface RawLine {
  text: string;
  mean: number;
  box?: number[][];
}

// PP-OCR cuts lines with OpenCV: no call before its runtime has started.
const ready = openCv().then(() =>
  Ocr.create({ onnxOptions: { intraOpNumThreads: 1, interOpNumThreads: 1 } }),
);
// Reported per request; keep the rejection from crashing the thread.
ready.catch(() => {});

/** The text lines of an image file, boxes as fractions of the image. */
async function recognize(image: string): Promise<OcrLine[]> {
  const ocr = await ready;
  const [meta, raw] = await Promise.all([sharp(image).metadata(), ocr.detect(image)]);
  const width = meta.width ?? 1;
  const height = meta.height ?? 1;
  return (raw as RawLine[]).map((l) => {
    const xs = (l.box ?? []).map((p) => p[0]);
    const ys = (l.box ?? []).map((p) => p[1]);
    const x0 = Math.max(0, Math.min(...xs));
    const y0 = Math.max(0, Math.min(...ys));
    const x1 = Math.min(width, Math.max(...xs));
    const y1 = Math.min(height, Math.max(...ys));
    return {
      text: l.text,
      score: l.mean,
      box: xs.length
        ? {
            x: x0 / width,
            y: y0 / height,
            w: Math.max(0, x1 - x0) / width,
            h: Math.max(0, y1 - y0) / height,
          }
        : { x: 0, y: 0, w: 1, h: 1 },
    };
  });
}

export const ocrOperations = { recognize };

serveHelper(ocrOperations);
