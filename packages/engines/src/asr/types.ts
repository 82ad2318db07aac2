import type { Pcm } from '../audio/wav.ts';

/** The speech-to-text port: a file path in, a timed transcript out. Providers know nothing of users. */

export interface TranscribeOptions {
  /** 'auto' (default) or an ISO 639-1 code such as 'zh', 'en'. */
  language?: string;
  /** Expected number of speakers; undefined lets diarization decide. */
  speakers?: number;
  /** Label speakers (only where the provider has `diarization`). */
  diarize?: boolean;
  /** Context for providers that take one (names, terms, the previous text). */
  prompt?: string;
  signal?: AbortSignal;
  /** 0…1 as the file is worked through. */
  onProgress?: (fraction: number) => void;
}

export interface AsrWord {
  text: string;
  startMs: number;
  endMs: number;
}

export interface AsrSegment {
  id: number;
  startMs: number;
  endMs: number;
  text: string;
  words: AsrWord[];
  /** 'S1', 'S2'… in order of first appearance, when diarization ran. */
  speaker?: string;
}

export interface Transcript {
  /** Given or detected language (ISO 639-1 where known; 'und' when neither the caller nor the engine said). */
  language: string;
  durationMs: number;
  segments: AsrSegment[];
  /** What made it: 'sherpa-onnx:<model id>' or 'openai-compatible:<model>'. */
  engine: string;
}

/** What a provider can do, for the UI (it offers only these). */
export interface AsrCapabilities {
  id: string;
  label: string;
  languages: string[] | 'any';
  diarization: boolean;
  /** True when word times come from the recognizer; false when they are spread over the segment. */
  wordTimes: boolean;
}

export interface AsrProvider extends AsrCapabilities {
  /** Any audio or video file ffmpeg reads. */
  transcribe(filePath: string, options?: TranscribeOptions): Promise<Transcript>;
  /**
   * 16 kHz mono PCM in memory, for providers that can take it without a file (the self-check of each
   * synthesised sentence); callers fall back to `transcribe` on a WAV without it.
   */
  transcribePcm?(pcm: Pcm, options?: TranscribeOptions): Promise<Transcript>;
  close(): Promise<void>;
}
