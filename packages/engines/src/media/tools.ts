import { PassThrough, type Readable } from 'node:stream';
import { EngineError } from '../errors.ts';
import { type MediaRunOptions, runFfmpeg, spawnMedia } from './run.ts';

export interface WaveformPeaks {
  bucketsPerSecond: number;
  durationMs: number;
  /** [min0, max0, min1, max1, …], −1…1 rounded to 3 decimals. */
  peaks: number[];
}

/** Samples per second the peaks are taken from: enough for speech, cheap to decode. */
const PEAK_RATE = 8000;

/**
 * Min/max per bucket of the first audio stream mixed to mono. ffmpeg streams 16-bit PCM through a
 * pipe and only the running bucket is held, so a two-hour file costs the same memory as a minute.
 */
export async function waveformPeaks(
  path: string,
  bucketsPerSecond: number,
  options: MediaRunOptions = {},
): Promise<WaveformPeaks> {
  if (!(bucketsPerSecond > 0 && bucketsPerSecond <= PEAK_RATE)) {
    throw new EngineError('invalid_request', '波形精度无效', `bad bucketsPerSecond ${bucketsPerSecond}`);
  }
  const perBucket = PEAK_RATE / bucketsPerSecond;
  const proc = spawnMedia(
    'ffmpeg',
    [
      '-i',
      path,
      '-map',
      '0:a:0',
      '-vn',
      '-sn',
      '-dn',
      '-ac',
      '1',
      '-ar',
      String(PEAK_RATE),
      '-f',
      's16le',
      'pipe:1',
    ],
    options,
  );
  const peaks: number[] = [];
  let min = 0;
  let max = 0;
  let inBucket = 0;
  // Fractional bucket boundaries (e.g. 8000 / 3) are kept exact by counting against the next edge.
  let edge = perBucket;
  let sampleIndex = 0;
  let carry: number | null = null;
  const round = (v: number) => Math.round((v / 32768) * 1000) / 1000;
  const push = (v: number) => {
    if (inBucket === 0) {
      min = v;
      max = v;
    } else if (v < min) min = v;
    else if (v > max) max = v;
    inBucket++;
    sampleIndex++;
    if (sampleIndex >= edge) {
      peaks.push(round(min), round(max));
      inBucket = 0;
      edge += perBucket;
    }
  };
  proc.child.stdout.on('data', (chunk: Buffer) => {
    let i = 0;
    if (carry !== null) {
      push((((chunk[0] << 8) | carry) << 16) >> 16);
      carry = null;
      i = 1;
    }
    for (; i + 1 < chunk.length; i += 2) push(chunk.readInt16LE(i));
    if (i < chunk.length) carry = chunk[i];
  });
  await proc.done;
  if (inBucket > 0) peaks.push(round(min), round(max));
  return { bucketsPerSecond, durationMs: Math.round((sampleIndex / PEAK_RATE) * 1000), peaks };
}

/** One JPEG frame at `atSeconds` (fast seek before the input), scaled to `width` (default 320). */
export async function thumbnail(
  path: string,
  out: string,
  atSeconds: number,
  options: MediaRunOptions & { width?: number } = {},
): Promise<void> {
  const width = options.width ?? 320;
  await runFfmpeg(
    [
      '-ss',
      Math.max(0, atSeconds).toFixed(3),
      '-i',
      path,
      '-map',
      '0:v:0',
      '-frames:v',
      '1',
      '-vf',
      `scale=${width}:-2`,
      '-q:v',
      '4',
      '-f',
      'image2',
      '-update',
      '1',
      '-y',
      out,
    ],
    { timeoutMs: 60_000, ...options },
  );
}

export type ExtractFormat = 'wav' | 'flac' | 'mp3' | 'ogg' | 's16le';

const extractCodec: Record<ExtractFormat, string[]> = {
  wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
  s16le: ['-c:a', 'pcm_s16le', '-f', 's16le'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
  mp3: ['-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3'],
  ogg: ['-c:a', 'libopus', '-b:a', '64k', '-f', 'ogg'],
};

/** The first audio stream as a file (e.g. 16 kHz mono WAV for speech recognition). */
export async function extractAudio(
  path: string,
  out: string,
  opts: { rate?: number; channels?: number; format?: ExtractFormat } & MediaRunOptions = {},
): Promise<void> {
  const { rate = 16000, channels = 1, format = 'wav', ...run } = opts;
  await runFfmpeg(
    [
      '-i',
      path,
      '-map',
      '0:a:0',
      '-vn',
      '-ac',
      String(channels),
      '-ar',
      String(rate),
      ...extractCodec[format],
      '-y',
      out,
    ],
    run,
  );
}

export type TranscodeFormat = 'wav' | 'mp3' | 'ogg' | 'flac';

/**
 * The file's audio re-encoded as ffmpeg produces it, for piping into a response or storage.
 * A consumer that stops reading (destroys the stream) stops ffmpeg; an ffmpeg failure errors the
 * stream. A piped WAV carries "unknown length" sizes in its header, as streamed WAV does.
 */
export function transcodeStream(
  path: string,
  format: TranscodeFormat,
  options: MediaRunOptions & { rate?: number; channels?: number } = {},
): Readable {
  const { rate, channels, ...run } = options;
  const codec: Record<TranscodeFormat, string[]> = {
    wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
    mp3: ['-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3'],
    ogg: ['-c:a', 'libopus', '-b:a', '64k', '-f', 'ogg'],
    flac: ['-c:a', 'flac', '-f', 'flac'],
  };
  const proc = spawnMedia(
    'ffmpeg',
    [
      '-i',
      path,
      '-map',
      '0:a:0',
      '-vn',
      ...(rate ? ['-ar', String(rate)] : []),
      ...(channels ? ['-ac', String(channels)] : []),
      ...codec[format],
      'pipe:1',
    ],
    run,
  );
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  proc.child.stdout.pipe(out, { end: false });
  proc.done.then(
    () => {
      // Let the pipe deliver what is left before ending.
      if (proc.child.stdout.readableEnded) out.end();
      else proc.child.stdout.once('end', () => out.end());
    },
    (error) => out.destroy(error),
  );
  out.on('close', () => {
    if (!out.writableFinished) proc.kill();
  });
  return out;
}
