/**
 * Test media for the dub engines with known truth: Chinese lines spoken by the embedded espeak-ng
 * engine (through pinyin), tones built sample by sample, SRT-like cue lists.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { encodeWav, type Pcm } from '../audio/wav.ts';
import { createEspeakEngine } from '../espeak/engine.ts';
import type { TtsEngine } from '../tts/types.ts';

export const run = promisify(execFile);

let engine: TtsEngine | undefined;

/** A synthesise callback for fitLine: espeak-ng Mandarin, one WAV per call in `dir`. */
export function espeakSynth(dir: string, { speed = 1 }: { speed?: number } = {}) {
  engine ??= createEspeakEngine({ processes: 2 });
  let n = 0;
  const calls: string[] = [];
  const synthesize = async (text: string) => {
    calls.push(text);
    const out = await (engine as TtsEngine).synthesize({
      segments: [{ text }],
      voice: { engine: 'espeak', voice: 'cmn-latn-pinyin' },
      speed,
    });
    const file = join(dir, `tts-${n++}-${Math.random().toString(36).slice(2, 8)}.wav`);
    await writeFile(file, encodeWav(out));
    return file;
  };
  return { synthesize, calls };
}

/** A sine tone with a 0-sample onset (loud from its first sample), for onset measurements. */
export function tone(ms: number, hz = 440, sampleRate = 48_000, amplitude = 12_000): Pcm {
  const n = Math.round((ms / 1000) * sampleRate);
  const samples = new Int16Array(n);
  // Start at a peak (cos) so the very first sample is loud.
  for (let i = 0; i < n; i++)
    samples[i] = Math.round(amplitude * Math.cos((2 * Math.PI * hz * i) / sampleRate));
  return { samples, sampleRate };
}

export const writeTone = (file: string, ms: number, hz?: number, sampleRate?: number) =>
  writeFile(file, encodeWav(tone(ms, hz, sampleRate)));

/** Decoded mono s16 samples of any file at a rate. */
export async function decodeSamples(file: string, sampleRate = 48_000): Promise<Int16Array> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-ac', '1', '-ar', String(sampleRate), '-f', 's16le', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 },
  );
  const buf = stdout as Buffer;
  const out = new Int16Array(buf.length >> 1);
  new Uint8Array(out.buffer).set(buf.subarray(0, out.length * 2));
  return out;
}

/** RMS in dBFS of samples [from, to). */
export function rmsDb(samples: Int16Array, from: number, to: number): number {
  let sum = 0;
  const a = Math.max(0, from);
  const b = Math.min(samples.length, to);
  for (let i = a; i < b; i++) sum += samples[i] * samples[i];
  return 10 * Math.log10(sum / Math.max(1, b - a) / 32768 ** 2 + 1e-12);
}
