import { streamPcmFloat } from '../audio/ffmpeg.ts';
import { EngineError } from '../errors.ts';
import type { SherpaRecognitionResult } from '../sherpa/module.ts';
import { type SpeechChunk, VAD_SAMPLE_RATE, type VoiceActivityDetector } from '../sherpa/vad.ts';
import { spreadWords, wordsFromTokens } from './timing.ts';
import type { AsrSegment } from './types.ts';

export interface ChunkedTranscription {
  segments: AsrSegment[];
  durationMs: number;
  /** Languages the recognizer reported, one per recognised chunk. */
  languages: string[];
}

export interface ChunkPipelineOptions {
  vad: VoiceActivityDetector;
  /** Recognises one chunk of 16 kHz float samples (sherpa's OfflineRecognizer, or a stand-in in tests). */
  recognize(chunk: SpeechChunk): Promise<SherpaRecognitionResult>;
  /** The file's length, for progress. */
  durationMs?: number;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

/** '<|zh|>' (sense_voice), 'zh' or '' → 'zh' | undefined. */
export function parseRecognizerLanguage(lang: string | undefined): string | undefined {
  const code = lang?.match(/^<\|([\w-]+)\|>$/)?.[1] ?? lang;
  return code && /^[a-z]{2,3}(-[\w]+)?$/i.test(code) ? code.toLowerCase() : undefined;
}

export const aborted = () => new EngineError('aborted', '语音识别已取消', 'transcription aborted');

/**
 * The offline recognition spine: ffmpeg decodes the file to 16 kHz mono as a stream, Silero VAD cuts
 * it at speech boundaries, each chunk is recognised on its own and its times moved to file time.
 * Only the chunk being recognised is in memory. Word times come from the recognizer's token times,
 * else the chunk's time is shared by characters.
 */
export async function transcribeChunks(
  path: string,
  { vad, recognize, durationMs, signal, onProgress }: ChunkPipelineOptions,
): Promise<ChunkedTranscription> {
  const segments: AsrSegment[] = [];
  const languages: string[] = [];
  let samples = 0;
  async function* counted() {
    for await (const block of streamPcmFloat(path, { sampleRate: VAD_SAMPLE_RATE, signal })) {
      samples += block.length;
      yield block;
    }
  }
  for await (const chunk of vad.chunks(counted())) {
    if (signal?.aborted) throw aborted();
    const result = await recognize(chunk);
    const text = result.text.trim();
    const language = parseRecognizerLanguage(result.lang);
    if (language) languages.push(language);
    if (text) {
      const startMs = Math.round(chunk.startMs);
      const endMs = Math.round(chunk.endMs);
      const words =
        wordsFromTokens(
          { tokens: result.tokens ?? [], timestamps: result.timestamps ?? [], durations: result.durations },
          startMs,
          endMs,
        ) ?? spreadWords(text, startMs, endMs);
      segments.push({ id: segments.length, startMs, endMs, text, words });
    }
    if (durationMs) onProgress?.(Math.min(1, chunk.endMs / durationMs));
  }
  if (signal?.aborted) throw aborted();
  onProgress?.(1);
  return { segments, durationMs: Math.round((samples / VAD_SAMPLE_RATE) * 1000), languages };
}

/** The language said most often (ties: the first said), else undefined. */
export function mostFrequent(values: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  for (const [v, n] of counts) if (best === undefined || n > counts.get(best)!) best = v;
  return best;
}
