import { availableParallelism } from 'node:os';
import { EngineError } from '../errors.ts';
import { createHelperPool, type HelperPool } from '../process/helpers.ts';
import { type EspeakOutput, type EspeakParams, espeakMissing } from './library.ts';
import type { espeakOperations } from './worker.ts';

/** Processes by default: one per core, at most four (espeak is CPU-bound and light on memory). */
export function defaultEspeakProcesses(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * espeak-ng synthesis in child processes (worker.ts): calls run in parallel, one per process, queued
 * in order when all are busy. A process that dies fails its call and is replaced; one that cannot
 * load the library means espeak-ng is missing, and every call says so.
 */
export class EspeakProcessPool {
  private readonly helpers: HelperPool<typeof espeakOperations>;

  constructor(size: number, libraryPath?: string) {
    this.helpers = createHelperPool({
      script: new URL('./worker.ts', import.meta.url),
      args: libraryPath ? [libraryPath] : [],
      size,
      startAll: true,
      errors: {
        crashed: ({ exit }) =>
          new EngineError(
            'media_failed',
            '标准引擎进程意外退出，请重试',
            `espeak worker exited with ${exit}`,
          ),
        closed: () => new EngineError('aborted', '合成已取消', 'the engine is closed'),
        unavailable: (reason) => espeakMissing(new Error(reason)),
      },
    });
  }

  /** Resolves once every process has loaded the library; rejects when espeak-ng is missing. */
  ready(): Promise<void> {
    return this.helpers.ready();
  }

  synth(ssml: string, params: EspeakParams): Promise<EspeakOutput> {
    return this.helpers.call('synth', { ssml, params });
  }

  close(): Promise<void> {
    return this.helpers.close();
  }
}
