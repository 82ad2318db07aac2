import { availableParallelism } from 'node:os';
import { EngineError, isEngineError } from '../errors.ts';
import { createHelperPool } from '../process/helpers.ts';
import type { OcrEngine, OcrPoolOptions, OcrRecognizeOptions } from './types.ts';
import type { ocrOperations } from './worker.ts';

export const PPOCR_ID = 'ppocr-v4';
export const PPOCR_LABEL = 'PP-OCRv4 (离线)';

/** Never more than 2 helpers: the box has 2 cores and other tasks run too. */
export const MAX_OCR_WORKERS = 2;

/**
 * A bounded pool of helper processes running PP-OCRv4 (worker.ts), so recognition never blocks the
 * event loop. Helpers start on first use; a cancelled call is answered at once (a running frame
 * finishes in its helper and its result is dropped).
 */
export function createOcrPool(opts: OcrPoolOptions = {}): OcrEngine {
  const helpers = createHelperPool<typeof ocrOperations>({
    script: new URL('./worker.ts', import.meta.url),
    size: Math.max(1, Math.min(MAX_OCR_WORKERS, opts.size ?? availableParallelism())),
    errors: {
      crashed: ({ exit }) =>
        new EngineError(
          'engine_unavailable',
          `文字识别进程出错：exited with ${exit}`,
          `OCR worker: exited with ${exit}`,
        ),
      aborted: () => new EngineError('aborted', '文字识别已取消', 'OCR aborted'),
      closed: () => new EngineError('aborted', '文字识别已关闭', 'OCR pool closed'),
    },
  });
  const failed = (e: Error) => {
    if (isEngineError(e)) throw e;
    throw new EngineError(
      'engine_unavailable',
      `文字识别失败：${e.message}`,
      `PP-OCRv4 failed: ${e.message}`,
    );
  };
  return {
    id: PPOCR_ID,
    label: PPOCR_LABEL,
    recognize: (image: string, { signal }: OcrRecognizeOptions = {}) =>
      helpers.call('recognize', image, { signal }).catch(failed),
    close: () => helpers.close(),
  };
}
