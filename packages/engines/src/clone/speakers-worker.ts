/**
 * Speaker embeddings of windows of audio files in their own process (clone/speakers.ts forks it per
 * check): sherpa's SpeakerEmbeddingExtractor constructor is synchronous and aborts the process on a
 * corrupt model, and the computation blocks its thread.
 */
import { readMonoFloat } from '../audio/levels.ts';
import { EngineError } from '../errors.ts';
import { loadSherpa } from '../sherpa/module.ts';
import type { FileEmbeddings, VoicedSpan } from './speakers.ts';

export interface SpeakerJob {
  model: string;
  numThreads: number;
  packageName?: string;
  files: Array<{ name: string; path: string; windows: VoicedSpan[] }>;
}

export type SpeakerReply =
  | { type: 'done'; files: FileEmbeddings[] }
  | { type: 'failed'; error: { code: EngineError['code']; zh: string; en: string } };

interface Stream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface Extractor {
  readonly dim: number;
  createStream(): Stream;
  isReady(stream: Stream): boolean;
  compute(stream: Stream, enableExternalBuffer?: boolean): Float32Array;
}

const RATE = 16_000;

const send = (m: SpeakerReply) => {
  if (process.connected) process.send?.(m);
};

async function run(job: SpeakerJob) {
  const sherpa = loadSherpa(job.packageName) as unknown as {
    SpeakerEmbeddingExtractor: new (config: object) => Extractor;
  };
  const extractor = new sherpa.SpeakerEmbeddingExtractor({
    model: job.model,
    numThreads: job.numThreads,
    debug: 0,
  });
  const out: FileEmbeddings[] = [];
  for (const f of job.files) {
    const samples = f.windows.length ? await readMonoFloat(f.path, RATE) : new Float32Array(0);
    const windows: FileEmbeddings['windows'] = [];
    for (const w of f.windows) {
      const part = samples.subarray(
        Math.floor((w.start_ms * RATE) / 1000),
        Math.ceil((w.end_ms * RATE) / 1000),
      );
      if (!part.length) continue;
      const stream = extractor.createStream();
      stream.acceptWaveform({ samples: part, sampleRate: RATE });
      stream.inputFinished();
      if (!extractor.isReady(stream)) continue;
      windows.push({ ...w, embedding: Array.from(extractor.compute(stream, false)) });
    }
    out.push({ name: f.name, windows });
  }
  send({ type: 'done', files: out });
}

process.once('message', (job: SpeakerJob) => {
  run(job)
    .catch((err) => {
      const e =
        err instanceof EngineError
          ? err
          : new EngineError(
              'media_failed',
              `说话人向量计算失败：${String(err)}`,
              `speaker embedding failed: ${String(err)}`,
            );
      send({ type: 'failed', error: { code: e.code, zh: e.zh, en: e.en } });
    })
    .finally(() => process.disconnect?.());
});
process.on('disconnect', () => process.exit(0));
