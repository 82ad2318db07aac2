import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError } from '../errors.ts';
import { type MediaBinary, mediaErrors } from '../media/run.ts';
import { lastLines, runTool, type ToolErrors, toolOutput } from '../process/tool.ts';
import { resampleInt16 } from './resample.ts';
import { bufferToSamples, concatPcm, type Pcm, pcmToBuffer, silence, silentWav } from './wav.ts';

export type AudioFormat = 'mp3' | 'wav' | 'ogg';

/**
 * Every input option list starts with this: a crafted playlist or concat list must not reach
 * other protocols (http, tcp, concat of /etc/…) — only files we wrote and our own pipes.
 */
const SAFE_INPUT = ['-protocol_whitelist', 'file,pipe'];

/** ffmpeg's errors in the words of audio processing. */
const audioErrors = (bin: MediaBinary): ToolErrors => ({
  ...mediaErrors(bin),
  aborted: () => new EngineError('aborted', '音频处理已取消', 'audio processing aborted'),
  failed: (exit, stderr) => {
    const tail = lastLines(stderr, 3);
    return new EngineError('media_failed', `音频处理失败：${tail}`, `${bin} exited with ${exit}: ${tail}`);
  },
});

/** Starts ffmpeg (no time limit: streams run for hours). */
const startFfmpeg = (args: string[], signal?: AbortSignal, stdin?: 'pipe') =>
  runTool('ffmpeg', args, { signal, stdin, errors: audioErrors('ffmpeg') });

const run = (bin: MediaBinary, args: string[], options: { input?: Buffer; signal?: AbortSignal } = {}) =>
  toolOutput(bin, args, { ...options, errors: audioErrors(bin) });

const FFMPEG_BASE = ['-hide_banner', '-nostdin', '-loglevel', 'error'];
const ffmpeg = (args: string[], opts?: { input?: Buffer; signal?: AbortSignal }) =>
  run('ffmpeg', [...FFMPEG_BASE, ...args], opts);

const rawInput = ({ sampleRate }: { sampleRate: number }) => [
  ...SAFE_INPUT,
  '-f',
  's16le',
  '-ar',
  String(sampleRate),
  '-ac',
  '1',
  '-i',
  'pipe:0',
];
const rawOutput = (sampleRate: number) => ['-f', 's16le', '-ac', '1', '-ar', String(sampleRate), 'pipe:1'];

const toPcm = (bytes: Buffer, sampleRate: number): Pcm => ({ samples: bufferToSamples(bytes), sampleRate });

async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'vw-media-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const codecArgs = (format: AudioFormat, bitrate?: string): string[] => {
  switch (format) {
    case 'mp3':
      // Quality 7: twice as fast as LAME's default and indistinguishable for speech.
      return ['-c:a', 'libmp3lame', '-b:a', bitrate ?? '64k', '-compression_level', '7', '-f', 'mp3'];
    case 'ogg':
      return ['-c:a', 'libopus', '-b:a', bitrate ?? '48k', '-f', 'ogg'];
    case 'wav':
      return ['-c:a', 'pcm_s16le', '-f', 'wav'];
  }
};

/**
 * A running ffmpeg MP3 encoder fed 16-bit mono PCM through its stdin: native LAME at quality 7,
 * several times the WebAssembly build's speed, for long streams (its ~60 ms start is nothing there).
 * createMp3Encoder is the way in.
 */
export function startMp3Process(sampleRate: number, signal?: AbortSignal) {
  return startFfmpeg(
    [...FFMPEG_BASE, ...rawInput({ sampleRate }), ...codecArgs('mp3'), '-flush_packets', '1', 'pipe:1'],
    signal,
    'pipe',
  );
}

export interface EncodeOptions {
  format: AudioFormat;
  /** e.g. '64k'; defaults suit speech (64k MP3, 48k Opus). */
  bitrate?: string;
  /** Output rate; Opus always works at 48 kHz internally, MP3 keeps the input rate by default. */
  sampleRate?: number;
  signal?: AbortSignal;
}

export function encodeAudio(
  pcm: Pcm,
  { format, bitrate, sampleRate, signal }: EncodeOptions,
): Promise<Buffer> {
  const rate = sampleRate ? ['-ar', String(sampleRate)] : [];
  return ffmpeg([...rawInput(pcm), ...rate, ...codecArgs(format, bitrate), 'pipe:1'], {
    input: pcmToBuffer(pcm),
    signal,
  });
}

/** Any audio file ffmpeg reads → 16-bit mono PCM. Goes through a temp file so MP4/M4A (index at the end) work. */
export function decodeAudio(bytes: Buffer, sampleRate?: number, signal?: AbortSignal): Promise<Pcm> {
  return withTempDir(async (dir) => {
    const file = join(dir, 'input');
    await writeFile(file, bytes);
    const rate = sampleRate ?? (await probeAudio(file)).sampleRate;
    return toPcm(await ffmpeg([...SAFE_INPUT, '-i', file, ...rawOutput(rate)], { signal }), rate);
  });
}

/**
 * Up to this much audio, resample.ts in-process beats ffmpeg: its start costs ~0.1 s of CPU (0.2–0.35 s
 * on some machines), about what the in-process filter spends on 10 s of audio; past it ffmpeg's SIMD
 * resampler (~0.6 ms per audio second) wins. Sentences and dub lines are a few seconds.
 */
const IN_PROCESS_RESAMPLE_SECONDS = 10;

/** PCM at another rate: short audio converted in-process (no ffmpeg start per call), long through ffmpeg. */
export async function resamplePcm(pcm: Pcm, sampleRate: number): Promise<Pcm> {
  if (pcm.sampleRate === sampleRate) return pcm;
  if (pcm.samples.length <= IN_PROCESS_RESAMPLE_SECONDS * pcm.sampleRate) {
    return { samples: await resampleInt16(pcm.samples, pcm.sampleRate, sampleRate), sampleRate };
  }
  const out = await ffmpeg([...rawInput(pcm), ...rawOutput(sampleRate)], { input: pcmToBuffer(pcm) });
  return toPcm(out, sampleRate);
}

export interface LoudnessOptions {
  /** Integrated loudness target in LUFS (−16 suits speech on phones and the web). */
  lufs?: number;
  truePeak?: number;
  lra?: number;
}

/** EBU R128 loudness normalisation (ffmpeg loudnorm, single pass, dynamic mode). */
export async function normalizeLoudness(
  pcm: Pcm,
  { lufs = -16, truePeak = -1.5, lra = 11 }: LoudnessOptions = {},
) {
  const filter = `loudnorm=I=${lufs}:TP=${truePeak}:LRA=${lra}`;
  // loudnorm resamples to 192 kHz internally; ask for the original rate back.
  const out = await ffmpeg([...rawInput(pcm), '-af', filter, ...rawOutput(pcm.sampleRate)], {
    input: pcmToBuffer(pcm),
  });
  return toPcm(out, pcm.sampleRate);
}

/** Pitch shift without changing duration (rubberband), for engines that cannot shift pitch themselves. */
export async function shiftPitch(pcm: Pcm, semitones: number): Promise<Pcm> {
  if (semitones === 0) return pcm;
  const ratio = 2 ** (semitones / 12);
  // rubberband drops its last ~70 ms: feed 200 ms of silence after the speech, then cut back to length.
  const padded = concatPcm([pcm, silence(200, pcm.sampleRate)]);
  const out = await ffmpeg(
    [...rawInput(pcm), '-af', `rubberband=pitch=${ratio}`, ...rawOutput(pcm.sampleRate)],
    {
      input: pcmToBuffer(padded),
    },
  );
  const samples = new Int16Array(pcm.samples.length);
  samples.set(toPcm(out, pcm.sampleRate).samples.subarray(0, samples.length));
  return { samples, sampleRate: pcm.sampleRate };
}

export interface AudioProbe {
  durationMs: number;
  sampleRate: number;
  channels: number;
  codec: string;
  format: string;
}

/** ffprobe of a file on disk. */
export async function probeAudio(path: string): Promise<AudioProbe> {
  const out = await run('ffprobe', [
    '-v',
    'error',
    ...SAFE_INPUT,
    '-select_streams',
    'a:0',
    '-show_entries',
    'format=duration,format_name:stream=codec_name,sample_rate,channels',
    '-of',
    'json',
    path,
  ]);
  const info = JSON.parse(out.toString('utf8')) as {
    format?: { duration?: string; format_name?: string };
    streams?: Array<{ codec_name?: string; sample_rate?: string; channels?: number }>;
  };
  const stream = info.streams?.[0];
  if (!stream) throw new EngineError('media_failed', '文件中没有音频', `no audio stream in ${path}`);
  return {
    durationMs: Math.round(Number(info.format?.duration ?? 0) * 1000),
    sampleRate: Number(stream.sample_rate ?? 0),
    channels: stream.channels ?? 0,
    codec: stream.codec_name ?? '',
    format: info.format?.format_name ?? '',
  };
}

export function probeAudioBuffer(bytes: Buffer): Promise<AudioProbe> {
  return withTempDir(async (dir) => {
    const file = join(dir, 'input');
    await writeFile(file, bytes);
    return probeAudio(file);
  });
}

export type ConcatPart = { path: string } | { pauseMs: number };

export interface ConcatOptions extends Omit<EncodeOptions, 'sampleRate'> {
  output: string;
}

/**
 * Joins audio files on disk with pauses between them into one encoded file, streaming through
 * ffmpeg's concat demuxer so a many-hour long-text job never sits in memory. Pauses are silent
 * WAVs at the rate of the first file (the demuxer needs one rate for all parts).
 */
export async function concatAudioFiles(
  parts: ConcatPart[],
  { output, format, bitrate, signal }: ConcatOptions,
) {
  const first = parts.find((p): p is { path: string } => 'path' in p);
  if (!first)
    throw new EngineError(
      'invalid_request',
      '没有可拼接的音频',
      'nothing to concatenate: no audio file given',
    );
  const { sampleRate } = await probeAudio(first.path);
  await withTempDir(async (dir) => {
    const lines: string[] = [];
    for (const [i, part] of parts.entries()) {
      let path: string;
      if ('path' in part) path = part.path;
      else {
        path = join(dir, `pause-${i}.wav`);
        await writeFile(path, silentWav(part.pauseMs, sampleRate));
      }
      lines.push(`file '${path.replaceAll("'", "'\\''")}'`);
    }
    const list = join(dir, 'list.txt');
    await writeFile(list, `${lines.join('\n')}\n`);
    await ffmpeg(
      [
        ...SAFE_INPUT,
        '-f',
        'concat',
        '-safe',
        '0',
        '-i',
        list,
        '-ac',
        '1',
        ...codecArgs(format, bitrate),
        '-y',
        output,
      ],
      { signal },
    );
  });
}

export interface PcmStreamOptions {
  /** Output rate; 16 kHz suits every recognizer and Silero VAD. */
  sampleRate?: number;
  signal?: AbortSignal;
}

/**
 * Decodes any audio or video file ffmpeg reads into mono float samples, yielded as ffmpeg produces
 * them (about 64 KiB at a time), so an hour of video never sits in memory. Reading pauses ffmpeg
 * (pipe backpressure); an abort or leaving the loop early kills it.
 */
export async function* streamPcmFloat(
  path: string,
  { sampleRate = 16_000, signal }: PcmStreamOptions = {},
): AsyncGenerator<Float32Array> {
  const args = [...SAFE_INPUT, '-i', path, '-vn', '-ac', '1', '-ar', String(sampleRate), '-f', 'f32le'];
  const { child, done, kill } = startFfmpeg([...FFMPEG_BASE, ...args, 'pipe:1'], signal);
  // Awaited after the output ends; until then a failure shows up as the output ending.
  done.catch(() => {});
  let rest: Buffer | undefined;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      const bytes = rest ? Buffer.concat([rest, chunk]) : chunk;
      const usable = bytes.length - (bytes.length % 4);
      rest = usable < bytes.length ? Buffer.from(bytes.subarray(usable)) : undefined;
      // A copy: Float32Array needs 4-byte alignment, which pooled Buffers do not promise.
      if (usable) yield new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + usable));
    }
    await done;
  } finally {
    kill();
  }
}

export interface TranscodeOptions {
  format: AudioFormat;
  sampleRate?: number;
  bitrate?: string;
  /** Cut a part: where to start and how long (ms). */
  startMs?: number;
  durationMs?: number;
  signal?: AbortSignal;
}

/** File in, mono audio file out (e.g. the audio track of a video as 16 kHz MP3 for an upload). */
export async function transcodeAudioFile(
  input: string,
  output: string,
  { format, sampleRate, bitrate, startMs, durationMs, signal }: TranscodeOptions,
): Promise<void> {
  const seek = startMs ? ['-ss', (startMs / 1000).toFixed(3)] : [];
  const length = durationMs !== undefined ? ['-t', (durationMs / 1000).toFixed(3)] : [];
  const rate = sampleRate ? ['-ar', String(sampleRate)] : [];
  await ffmpeg(
    [
      ...SAFE_INPUT,
      ...seek,
      '-i',
      input,
      ...length,
      '-vn',
      '-ac',
      '1',
      ...rate,
      ...codecArgs(format, bitrate),
      '-y',
      output,
    ],
    { signal },
  );
}

export interface Silence {
  startMs: number;
  endMs: number;
}

/**
 * Stretches of silence in a file (ffmpeg silencedetect), e.g. where to cut long audio without cutting
 * a word. ffmpeg 5 closes a silence that runs to the end of the file there; one left open is dropped.
 */
export async function detectSilences(
  path: string,
  {
    noiseDb = -35,
    minSilenceMs = 400,
    signal,
  }: { noiseDb?: number; minSilenceMs?: number; signal?: AbortSignal } = {},
): Promise<Silence[]> {
  // silencedetect reports at the info level, on stderr; -nostats keeps the progress lines out.
  const args = [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    '-loglevel',
    'info',
    ...SAFE_INPUT,
    '-i',
    path,
    '-vn',
  ];
  const filter = `silencedetect=noise=${noiseDb}dB:d=${minSilenceMs / 1000}`;
  const { child, done } = startFfmpeg([...args, '-af', filter, '-f', 'null', '-'], signal);
  let log = '';
  child.stderr.on('data', (c: Buffer) => {
    log += c.toString('utf8');
  });
  await done;
  const silences: Silence[] = [];
  let open: number | undefined;
  for (const [, what, seconds] of log.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
    const ms = Math.max(0, Math.round(Number(seconds) * 1000));
    if (what === 'start') open = ms;
    else if (open !== undefined) {
      silences.push({ startMs: open, endMs: ms });
      open = undefined;
    }
  }
  return silences;
}
