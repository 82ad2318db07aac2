import { createRequire } from 'node:module';
import { EngineError } from '../errors.ts';

/** The parts of sherpa-onnx-node we use (the package ships no TypeScript types). */
export interface SherpaOfflineTts {
  readonly numSpeakers: number;
  readonly sampleRate: number;
  generateAsync(request: { text: string; sid: number; speed: number }): Promise<{
    samples: Float32Array;
    sampleRate: number;
  }>;
}

export interface SherpaVad {
  acceptWaveform(samples: Float32Array): void;
  isEmpty(): boolean;
  front(enableExternalBuffer?: boolean): { start: number; samples: Float32Array };
  pop(): void;
  flush(): void;
}

/** What an offline recognizer says about one stream (fields vary by model; times in seconds). */
export interface SherpaRecognitionResult {
  text: string;
  /** sense_voice: '<|zh|>'. */
  lang?: string;
  tokens?: string[];
  timestamps?: number[];
  durations?: number[];
}

export interface SherpaOfflineStream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
}

export interface SherpaOfflineRecognizer {
  createStream(): SherpaOfflineStream;
  decodeAsync(stream: SherpaOfflineStream): Promise<SherpaRecognitionResult>;
}

export interface SherpaPunctuation {
  addPunct(text: string): string;
}

export interface SherpaDiarization {
  readonly sampleRate: number;
  process(samples: Float32Array): Array<{ start: number; end: number; speaker: number }>;
}

/**
 * Only OfflineTts and OfflineRecognizer have async factories that reject on a corrupt model; the
 * synchronous constructors (Vad, OfflinePunctuation, OfflineSpeakerDiarization) abort the process.
 */
export interface SherpaModule {
  OfflineTts: { createAsync(config: object): Promise<SherpaOfflineTts> };
  OfflineRecognizer: { createAsync(config: object): Promise<SherpaOfflineRecognizer> };
  Vad: new (config: object, bufferSizeInSeconds: number) => SherpaVad;
  OfflinePunctuation: new (config: object) => SherpaPunctuation;
  OfflineSpeakerDiarization: new (config: object) => SherpaDiarization;
}

const require = createRequire(import.meta.url);
const cache = new Map<string, SherpaModule>();

/** Loads the native package lazily, so machines without it still run every other engine. */
export function loadSherpa(packageName = 'sherpa-onnx-node'): SherpaModule {
  const hit = cache.get(packageName);
  if (hit) return hit;
  try {
    const mod = require(packageName) as SherpaModule;
    cache.set(packageName, mod);
    return mod;
  } catch (err) {
    throw new EngineError(
      'engine_unavailable',
      '本地神经网络语音暂不可用，请联系管理员',
      `${packageName} is not installed: local neural speech is unavailable (npm install ${packageName})`,
      { cause: err },
    );
  }
}
