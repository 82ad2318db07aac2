/**
 * One sherpa-onnx transcription in its own process (asr/sherpa.ts starts one per call). sherpa's
 * synchronous constructors (VAD, punctuation, diarization) abort the whole process on a corrupt
 * model, and diarization blocks its thread for the length of the file: here that costs this process,
 * never the server. Killing the process is how a transcription is cancelled.
 */
import { probeAudio, streamPcmFloat } from '../audio/ffmpeg.ts';
import { EngineError } from '../errors.ts';
import { serveHelper } from '../process/serve.ts';
import { loadSherpa, type SherpaOfflineRecognizer } from '../sherpa/module.ts';
import { createVoiceActivityDetector, type VadOptions } from '../sherpa/vad.ts';
import { transcribeChunks } from './pipeline.ts';
import type { SpeakerTurn } from './timing.ts';

export interface SherpaAsrJob {
  file: string;
  packageName?: string;
  /** sherpa-onnx OfflineRecognizer config. */
  recognizer: object;
  vad: VadOptions;
  /** OfflinePunctuation config: applied to chunk texts that came back without punctuation. */
  punctuation?: object;
  /** OfflineSpeakerDiarization config. */
  diarization?: object;
}

const HAS_PUNCTUATION = /[\p{P}]/u;

async function transcribe(job: SherpaAsrJob, progress: (fraction: number) => void) {
  const { durationMs } = await probeAudio(job.file);
  const sherpa = loadSherpa(job.packageName);
  // Every model is loaded before any work, so a broken one fails the call at once, not after an hour.
  const vad = await createVoiceActivityDetector(job.vad);
  const punctuation = job.punctuation ? new sherpa.OfflinePunctuation(job.punctuation) : undefined;
  const diarizer = job.diarization ? new sherpa.OfflineSpeakerDiarization(job.diarization) : undefined;
  const recognizer = await sherpa.OfflineRecognizer.createAsync(job.recognizer).catch((err: Error) => {
    throw new EngineError(
      'model_invalid',
      `识别模型加载失败：${err.message}`,
      `recognition model failed to load: ${err.message}`,
      { cause: err },
    );
  });
  // Recognition is most of the work; diarization, when asked for, the rest.
  const share = job.diarization ? 0.7 : 1;
  const result = await transcribeChunks(job.file, {
    vad,
    durationMs,
    onProgress: (f) => progress(f * share),
    recognize: async (chunk) => {
      const stream = recognizer.createStream();
      stream.acceptWaveform({ samples: chunk.samples, sampleRate: 16_000 });
      return recognizer.decodeAsync(stream);
    },
  });
  if (punctuation) {
    for (const s of result.segments) if (!HAS_PUNCTUATION.test(s.text)) s.text = punctuation.addPunct(s.text);
  }
  let turns: SpeakerTurn[] | undefined;
  if (diarizer) {
    // Clustering needs the whole recording at once: 64 KB per second of audio, in this process only.
    let total = new Float32Array(Math.ceil((durationMs / 1000 + 1) * diarizer.sampleRate));
    let at = 0;
    for await (const block of streamPcmFloat(job.file, { sampleRate: diarizer.sampleRate })) {
      if (at + block.length > total.length) {
        const grown = new Float32Array(Math.max(total.length * 2, at + block.length));
        grown.set(total.subarray(0, at));
        total = grown;
      }
      total.set(block, at);
      at += block.length;
    }
    turns = diarizer.process(total.subarray(0, at)).map((t) => ({
      startMs: Math.round(t.start * 1000),
      endMs: Math.round(t.end * 1000),
      speaker: t.speaker,
    }));
  }
  progress(1);
  return { ...result, ...(turns ? { turns } : {}) };
}

/** A short clip already in memory (16 kHz mono float), for the speech self-check of one sentence. */
export interface SherpaClipJob {
  packageName?: string;
  recognizer: object;
  samples: Float32Array;
}

// A long-lived clip helper keeps its recognizers loaded: loading one costs far more than a sentence.
const clipRecognizers = new Map<string, Promise<SherpaOfflineRecognizer>>();

async function recognizeClip(job: SherpaClipJob) {
  const key = JSON.stringify([job.packageName, job.recognizer]);
  let recognizer = clipRecognizers.get(key);
  if (!recognizer) {
    recognizer = loadSherpa(job.packageName).OfflineRecognizer.createAsync(job.recognizer);
    recognizer.catch(() => clipRecognizers.delete(key));
    clipRecognizers.set(key, recognizer);
  }
  const loaded = await recognizer.catch((err: Error) => {
    throw new EngineError(
      'model_invalid',
      `识别模型加载失败：${err.message}`,
      `recognition model failed to load: ${err.message}`,
      { cause: err },
    );
  });
  const stream = loaded.createStream();
  stream.acceptWaveform({ samples: job.samples, sampleRate: 16_000 });
  const result = await loaded.decodeAsync(stream);
  return { text: result.text.trim(), lang: result.lang };
}

export const sherpaAsrOperations = {
  async recognizeClip(job: SherpaClipJob) {
    try {
      return await recognizeClip(job);
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw new EngineError(
        'media_failed',
        `语音识别失败：${String(err)}`,
        `recognition failed: ${String(err)}`,
      );
    }
  },
  async transcribe(job: SherpaAsrJob, progress: (fraction: number) => void) {
    try {
      return await transcribe(job, progress);
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw new EngineError(
        'media_failed',
        `语音识别失败：${String(err)}`,
        `transcription failed: ${String(err)}`,
      );
    }
  },
};

serveHelper(sherpaAsrOperations);
