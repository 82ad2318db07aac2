/**
 * One OCR worker thread: PP-OCRv4 (detection + recognition, @gutenye/ocr-node on onnxruntime-node's
 * bundled CPU build), one intra-op thread so a pool of N workers uses N cores.
 * Protocol: { id, image } in → { id, lines } | { id, error } out. Only erasable TypeScript here:
 * Node runs this file directly (type stripping) in a worker thread.
 */
import { parentPort } from 'node:worker_threads';
import Ocr from '@gutenye/ocr-node';
import sharp from 'sharp';

interface Request {
  id: number;
  image: string;
}

interface RawLine {
  text: string;
  mean: number;
  box?: number[][];
}

const port = parentPort;
if (!port) throw new Error('ocr worker must run in a worker thread');

const ready = Ocr.create({ onnxOptions: { intraOpNumThreads: 1, interOpNumThreads: 1 } });
// Reported per request; keep the rejection from crashing the thread.
ready.catch(() => {});

port.on('message', async (msg: Request) => {
  try {
    const ocr = await ready;
    const [meta, raw] = await Promise.all([sharp(msg.image).metadata(), ocr.detect(msg.image)]);
    const width = meta.width ?? 1;
    const height = meta.height ?? 1;
    const lines = (raw as RawLine[]).map((l) => {
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
    port.postMessage({ id: msg.id, lines });
  } catch (e) {
    port.postMessage({ id: msg.id, error: e instanceof Error ? e.message : String(e) });
  }
});
