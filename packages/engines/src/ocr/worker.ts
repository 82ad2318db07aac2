/**
 * One OCR helper process of the pool (pool.ts): PP-OCRv4 (ppocr.ts, onnxruntime-node's bundled CPU
 * build), one intra-op thread so a pool of N helpers uses N cores.
 */
import sharp from 'sharp';
import { serveHelper } from '../process/serve.ts';
import { createPpOcr, type PixelBox, type ReadLine, type RgbaImage } from './ppocr.ts';
import type { Box, OcrLine } from './types.ts';

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

/** Recognition only, of known line boxes (fractions of the image) — no detection. */
async function recognizeBoxes({ image, boxes }: { image: string; boxes: Box[] }): Promise<OcrLine[]> {
  const [ocr, img] = await Promise.all([ready, open(image)]);
  const pixels: PixelBox[] = boxes.map((b) => ({
    x: b.x * img.width,
    y: b.y * img.height,
    w: b.w * img.width,
    h: b.h * img.height,
  }));
  return normalised(await ocr.readBoxes(img, pixels), img);
}

export const ocrOperations = { recognize, recognizeBoxes };

serveHelper(ocrOperations);
