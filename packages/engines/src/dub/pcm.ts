import { open, readFile, writeFile } from 'node:fs/promises';
import { resamplePcm } from '../audio/ffmpeg.ts';
import { bufferToSamples, decodeWav, encodeWav, type Pcm, readWavInfo } from '../audio/wav.ts';
import { runFfmpeg } from '../media/run.ts';

/** Every dub file is 48 kHz mono 16-bit: the rate of video audio, so placement never resamples. */
export const DUB_RATE = 48_000;

/**
 * Reads any audio file as 48 kHz mono PCM: 16-bit mono WAVs (ours and the TTS engines') directly,
 * resampled in-process when their rate differs; the rest through ffmpeg.
 */
export async function readPcm(file: string, signal?: AbortSignal, sampleRate = DUB_RATE): Promise<Pcm> {
  const head = Buffer.alloc(12);
  const fh = await open(file, 'r');
  try {
    await fh.read(head, 0, 12, 0);
  } finally {
    await fh.close();
  }
  if (head.toString('ascii', 0, 4) === 'RIFF' && head.toString('ascii', 8, 12) === 'WAVE') {
    const bytes = await readFile(file);
    const info = readWavInfo(bytes);
    // 16-bit mono WAV (every TTS engine's output) is resampled in-process: no ffmpeg start per line.
    if (info.format === 1 && info.bitsPerSample === 16 && info.channels === 1) {
      return resamplePcm(decodeWav(bytes), sampleRate);
    }
  }
  const raw = await runFfmpeg(
    ['-i', file, '-vn', '-ac', '1', '-ar', String(sampleRate), '-f', 's16le', 'pipe:1'],
    { signal },
  );
  return { samples: bufferToSamples(raw), sampleRate };
}

export const writePcm = (file: string, pcm: Pcm) => writeFile(file, encodeWav(pcm));

export const pcmMs = (pcm: Pcm) => (pcm.samples.length / pcm.sampleRate) * 1000;

/**
 * Cuts leading and trailing silence (TTS engines pad both ends, and that padding counts toward the
 * line's length): everything quieter than `thresholdDb` dBFS, keeping `marginMs` around the speech so
 * an attack or a breath tail is not clipped. Returns the cut amounts too.
 */
export function trimSilence(
  pcm: Pcm,
  { thresholdDb = -42, marginMs = 15 }: { thresholdDb?: number; marginMs?: number } = {},
): { pcm: Pcm; leadMs: number; tailMs: number } {
  const { samples, sampleRate } = pcm;
  const limit = Math.round(32768 * 10 ** (thresholdDb / 20));
  let first = 0;
  while (first < samples.length && Math.abs(samples[first]) <= limit) first++;
  if (first === samples.length)
    return { pcm: { samples: new Int16Array(0), sampleRate }, leadMs: pcmMs(pcm), tailMs: 0 };
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last]) <= limit) last--;
  const margin = Math.round((marginMs / 1000) * sampleRate);
  const from = Math.max(0, first - margin);
  const to = Math.min(samples.length, last + 1 + margin);
  return {
    pcm: { samples: samples.slice(from, to), sampleRate },
    leadMs: (from / sampleRate) * 1000,
    tailMs: ((samples.length - to) / sampleRate) * 1000,
  };
}
