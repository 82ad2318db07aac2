import { createOcrPool, type OcrEngine } from '@vw/engines';

/**
 * The process's one OCR pool (PP-OCRv4 worker threads, bounded), on `ctx.engines`. Its workers start
 * on the first recognition, so processes (and tests) that never read a frame pay nothing; `close`
 * stops them on shutdown.
 */
export function createLazyOcrPool(size?: number): OcrEngine {
  let pool: OcrEngine | null = null;
  const get = () => {
    pool ??= createOcrPool(size ? { size } : {});
    return pool;
  };
  return {
    id: 'ppocr-v4',
    label: 'PP-OCRv4 (离线)',
    recognize: (image, opts) => get().recognize(image, opts),
    async close() {
      const open = pool;
      pool = null;
      await open?.close();
    },
  };
}
