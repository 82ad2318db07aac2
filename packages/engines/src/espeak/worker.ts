/**
 * One espeak-ng synthesis process of the pool (process-pool.ts). libespeak-ng keeps global state,
 * so a process synthesises one text at a time; several processes use several cores, and the
 * server's event loop never waits on a synthesis.
 */
import { EngineError } from '../errors.ts';
import { type EspeakParams, loadEspeak } from './library.ts';

interface Job {
  id: number;
  ssml: string;
  params: EspeakParams;
}

const send = (message: unknown) => {
  if (process.connected) process.send?.(message);
};

try {
  const lib = loadEspeak(process.argv[2] || undefined);
  send({ type: 'ready', sampleRate: lib.sampleRate, version: lib.version });
  process.on('message', (job: Job) => {
    try {
      const out = lib.synth(job.ssml, job.params);
      send({ type: 'done', id: job.id, out });
    } catch (err) {
      const e =
        err instanceof EngineError ? err : new EngineError('media_failed', '标准引擎合成失败', String(err));
      send({ type: 'failed', id: job.id, error: { code: e.code, zh: e.zh, en: e.en } });
    }
  });
} catch (err) {
  send({ type: 'unavailable', error: String((err as Error).message ?? err) });
  process.exit(1);
}
// The parent went away: nothing left to do.
process.on('disconnect', () => process.exit(0));
