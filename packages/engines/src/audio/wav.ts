import { endianness } from 'node:os';

/** 16-bit mono PCM: the one in-memory audio shape every engine and helper speaks. */
export interface Pcm {
  samples: Int16Array;
  sampleRate: number;
}

export const DEFAULT_SAMPLE_RATE = 44_100;
const HEADER_BYTES = 44;

export function durationMs(pcm: Pcm): number {
  return (pcm.samples.length / pcm.sampleRate) * 1000;
}

export function msToSamples(ms: number, sampleRate: number): number {
  return Math.max(0, Math.round((ms / 1000) * sampleRate));
}

export function silence(ms: number, sampleRate: number = DEFAULT_SAMPLE_RATE): Pcm {
  return { samples: new Int16Array(msToSamples(ms, sampleRate)), sampleRate };
}

export function concatPcm(parts: Pcm[], sampleRate = parts[0]?.sampleRate ?? DEFAULT_SAMPLE_RATE): Pcm {
  const mismatch = parts.find((p) => p.sampleRate !== sampleRate);
  if (mismatch) throw new Error(`cannot join ${mismatch.sampleRate} Hz audio with ${sampleRate} Hz audio`);
  const samples = new Int16Array(parts.reduce((n, p) => n + p.samples.length, 0));
  let at = 0;
  for (const p of parts) {
    samples.set(p.samples, at);
    at += p.samples.length;
  }
  return { samples, sampleRate };
}

/** Gain in dB on a copy; clips rather than wraps so that a loud gain stays listenable. */
export function applyGainDb(pcm: Pcm, db: number): Pcm {
  if (db === 0) return pcm;
  const factor = 10 ** (db / 20);
  const out = new Int16Array(pcm.samples.length);
  for (let i = 0; i < out.length; i++) {
    out[i] = Math.max(-32768, Math.min(32767, Math.round(pcm.samples[i] * factor)));
  }
  return { samples: out, sampleRate: pcm.sampleRate };
}

export function floatToPcm(samples: Float32Array, sampleRate: number): Pcm {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    out[i] = Math.max(-32768, Math.min(32767, Math.round(samples[i] * 32767)));
  }
  return { samples: out, sampleRate };
}

export function pcmToFloat(pcm: Pcm): Float32Array {
  const out = new Float32Array(pcm.samples.length);
  for (let i = 0; i < out.length; i++) out[i] = pcm.samples[i] / 32768;
  return out;
}

/** The canonical 44-byte RIFF header for 16-bit mono PCM of `dataBytes` bytes. */
export function wavHeader(dataBytes: number, sampleRate: number = DEFAULT_SAMPLE_RATE): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28); // byte rate
  h.writeUInt16LE(2, 32); // block align
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

// WAV and ffmpeg's s16le are little-endian; typed arrays use the machine's order (little on x64/arm64).
const LITTLE_ENDIAN = endianness() === 'LE';

export function pcmToBuffer(pcm: Pcm): Buffer {
  const { samples } = pcm;
  if (LITTLE_ENDIAN) return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const bytes = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) bytes.writeInt16LE(samples[i], i * 2);
  return bytes;
}

/** Little-endian 16-bit bytes → samples, copied so the result owns an aligned buffer. */
export function bufferToSamples(bytes: Buffer): Int16Array {
  const samples = new Int16Array(bytes.length >> 1);
  if (LITTLE_ENDIAN) new Uint8Array(samples.buffer).set(bytes.subarray(0, samples.length * 2));
  else for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}

export function encodeWav(pcm: Pcm): Buffer {
  return Buffer.concat([wavHeader(pcm.samples.length * 2, pcm.sampleRate), pcmToBuffer(pcm)]);
}

/** A silent 16-bit mono WAV of `ms` milliseconds, built without ffmpeg. */
export function silentWav(ms: number, sampleRate: number = DEFAULT_SAMPLE_RATE): Buffer {
  const dataBytes = msToSamples(ms, sampleRate) * 2;
  return Buffer.concat([wavHeader(dataBytes, sampleRate), Buffer.alloc(dataBytes)]);
}

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  format: number;
  dataOffset: number;
  dataBytes: number;
}

/** Walks the RIFF chunks (servers add LIST/fact chunks) to find fmt and data. */
export function readWavInfo(wav: Buffer): WavInfo {
  if (wav.length < 12 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes'> | undefined;
  let at = 12;
  while (at + 8 <= wav.length) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      fmt = {
        format: wav.readUInt16LE(body),
        channels: wav.readUInt16LE(body + 2),
        sampleRate: wav.readUInt32LE(body + 4),
        bitsPerSample: wav.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!fmt) throw new Error('WAV data chunk before fmt chunk');
      // Streaming servers write 0 or 0xFFFFFFFF as the data size: take what is there.
      const dataBytes = size === 0 || body + size > wav.length ? wav.length - body : size;
      return { ...fmt, dataOffset: body, dataBytes };
    }
    at = body + size + (size % 2);
  }
  throw new Error('WAV has no data chunk');
}

/** Decodes 16-bit PCM WAV (mono, or the first channel of several). */
export function decodeWav(wav: Buffer): Pcm {
  const info = readWavInfo(wav);
  if (info.format !== 1 || info.bitsPerSample !== 16) {
    throw new Error(`unsupported WAV encoding (format ${info.format}, ${info.bitsPerSample} bit)`);
  }
  const data = wav.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
  if (info.channels === 1) return { samples: bufferToSamples(data), sampleRate: info.sampleRate };
  const frames = Math.floor(info.dataBytes / (2 * info.channels));
  const samples = new Int16Array(frames);
  for (let i = 0; i < frames; i++) samples[i] = data.readInt16LE(i * 2 * info.channels);
  return { samples, sampleRate: info.sampleRate };
}
