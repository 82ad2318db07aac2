/**
 * One OCR helper process of the pool (pool.ts): PP-OCRv4 (ppocr.ts, onnxruntime-node's bundled CPU
 * build), one intra-op thread so a pool of N helpers uses N cores.
 */
import sharp from 'sharp';
import { serveHelper } from '../process/serve.ts';
import { createPpOcr, type ReadLine, type RgbaImage } from './ppocr.ts';
import type { OcrLine } from './types.ts';

const ready = createPpOcr(1);
// Reported per request; keep the rejection from crashing the process.
ready.catch(() => {});

async function open(image: string): Promise<RgbaImage> {
  const { data, info } = await sharp(image).ensureAlpha(1).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Pixel lines → lines with boxes as fractions of the picture. */
const normalised = (lines: ReadLine[], img: RgbaImage): OcrLine[] =>
  lines.map((l) => ({
    text: l.text,
    score: l.score,
    box: { x: l.box.x / img.width, y: l.box.y / img.height, w: l.box.w / img.width, h: l.box.h / img.height },
  }));

/** The text lines of an image file, boxes as fractions of the image. */
async function recognize(image: string): Promise<OcrLine[]> {
  const [ocr, img] = await Promise.all([ready, open(image)]);
  return normalised(await ocr.read(img), img);
}

export const ocrOperations = { recognize };

serveHelper(ocrOperations);
