/**
 * Speaker embeddings of windows of audio files in their own process (clone/speakers.ts starts one per
 * check): sherpa's SpeakerEmbeddingExtractor constructor is synchronous and aborts the process on a
 * corrupt model, and the computation blocks its thread.
 */
import { readMonoFloat } from '../audio/levels.ts';
import { EngineError } from '../errors.ts';
import { serveHelper } from '../process/serve.ts';
import { loadSherpa } from '../sherpa/module.ts';
import type { FileEmbeddings, VoicedSpan } from './speakers.ts';

export interface SpeakerJob {
  model: string;
  numThreads: number;
  packageName?: string;
  files: Array<{ name: string; path: string; windows: VoicedSpan[] }>;
}

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

async function embed(job: SpeakerJob): Promise<FileEmbeddings[]> {
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
  return out;
}

export const speakerOperations = {
  async embed(job: SpeakerJob) {
    try {
      return await embed(job);
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw new EngineError(
        'media_failed',
        `说话人向量计算失败：${String(err)}`,
        `speaker embedding failed: ${String(err)}`,
      );
    }
  },
};

serveHelper(speakerOperations);
