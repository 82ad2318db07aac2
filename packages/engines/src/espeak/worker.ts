/**
 * One espeak-ng synthesis process of the pool (process-pool.ts). libespeak-ng keeps global state,
 * so a process synthesises one text at a time; several processes use several cores, and the
 * server's event loop never waits on a synthesis.
 */
import { EngineError } from '../errors.ts';
import { refuseHelper, serveHelper } from '../process/serve.ts';
import { type EspeakLibrary, type EspeakParams, loadEspeak } from './library.ts';

let lib: EspeakLibrary;
try {
  lib = loadEspeak(process.argv[2] || undefined);
} catch (err) {
  refuseHelper(String((err as Error).message ?? err));
}

export const espeakOperations = {
  synth({ ssml, params }: { ssml: string; params: EspeakParams }) {
    try {
      return lib.synth(ssml, params);
    } catch (err) {
      throw err instanceof EngineError
        ? err
        : new EngineError('media_failed', '标准引擎合成失败', String(err));
    }
  },
};

serveHelper(espeakOperations);
