import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { EngineError } from '../errors.ts';
import type { OcrEngine, OcrLine, OcrPoolOptions, OcrRecognizeOptions } from './types.ts';

export const PPOCR_ID = 'ppocr-v4';
export const PPOCR_LABEL = 'PP-OCRv4 (离线)';

/** Never more than 2 workers: the box has 2 cores and other tasks run too. */
export const MAX_OCR_WORKERS = 2;

interface Job {
  id: number;
  image: string;
  resolve: (lines: OcrLine[]) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

const aborted = () => new EngineError('aborted', '文字识别已取消', 'OCR aborted');

/**
 * A bounded pool of worker threads running PP-OCRv4, so recognition never blocks the event loop.
 * Workers start on first use; a cancelled call is answered at once (a running frame finishes in its
 * worker and its result is dropped).
 */
export function createOcrPool(opts: OcrPoolOptions = {}): OcrEngine {
  const size = Math.max(1, Math.min(MAX_OCR_WORKERS, opts.size ?? availableParallelism()));
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  const settle = (job: Job) => {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
  };

  const startWorker = (): Slot => {
    const worker = new Worker(new URL('./worker.ts', import.meta.url));
    worker.unref();
    const slot: Slot = { worker, job: null };
    worker.on('message', (msg: { id: number; lines?: OcrLine[]; error?: string }) => {
      const job = slot.job;
      slot.job = null;
      if (job && job.id === msg.id) {
        settle(job);
        if (msg.error !== undefined) {
          job.reject(
            new EngineError(
              'engine_unavailable',
              `文字识别失败：${msg.error}`,
              `PP-OCRv4 failed: ${msg.error}`,
            ),
          );
        } else job.resolve(msg.lines ?? []);
      }
      pump();
    });
    worker.on('error', (e) => {
      const job = slot.job;
      slot.job = null;
      slots.splice(slots.indexOf(slot), 1);
      if (job) {
        settle(job);
        job.reject(
          new EngineError('engine_unavailable', `文字识别进程出错：${e.message}`, `OCR worker: ${e.message}`),
        );
      }
      pump();
    });
    return slot;
  };

  function pump() {
    while (queue.length && !closed) {
      let slot = slots.find((s) => !s.job);
      if (!slot && slots.length < size) {
        slot = startWorker();
        slots.push(slot);
      }
      if (!slot) return;
      const job = queue.shift() as Job;
      slot.job = job;
      slot.worker.postMessage({ id: job.id, image: job.image });
    }
  }

  return {
    id: PPOCR_ID,
    label: PPOCR_LABEL,
    recognize(image: string, options: OcrRecognizeOptions = {}) {
      const { signal } = options;
      if (closed) return Promise.reject(new EngineError('aborted', '文字识别已关闭', 'OCR pool closed'));
      if (signal?.aborted) return Promise.reject(aborted());
      return new Promise<OcrLine[]>((resolve, reject) => {
        const job: Job = { id: nextId++, image, resolve, reject, signal };
        if (signal) {
          job.onAbort = () => {
            const i = queue.indexOf(job);
            if (i >= 0) queue.splice(i, 1);
            // A running job: its answer will find no waiting job (ids differ) and is dropped.
            const slot = slots.find((s) => s.job === job);
            if (slot) slot.job = { ...job, id: -1, resolve: () => {}, reject: () => {} };
            reject(aborted());
          };
          signal.addEventListener('abort', job.onAbort, { once: true });
        }
        queue.push(job);
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) {
        settle(job);
        job.reject(new EngineError('aborted', '文字识别已关闭', 'OCR pool closed'));
      }
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}
