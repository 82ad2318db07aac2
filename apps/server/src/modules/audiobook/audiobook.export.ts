import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import type { ComplianceEntry, LoudnessPreset } from '@vw/contract';
import { speechCues, subtitleRulesFor, toSrt } from '@vw/contract';
import { runFfmpeg, spawnMedia } from '@vw/engines';
import { Zip, ZipPassThrough } from 'fflate';
import type { AppContext } from '../../context.ts';
import { planSentences, spokenWords } from '../voices/voices.text.ts';
import { BOOK_SAMPLE_RATE, escapeMarkup } from './audiobook.synth.ts';

/** Rate of everything exported (ACX asks for 44.1 kHz). */
export const EXPORT_SAMPLE_RATE = 44_100;
/** M4B keeps the speech's own rate (AAC at 22.05 kHz: half the encoding work, nothing lost). */
export const M4B_SAMPLE_RATE = 22_050;

/** ACX: RMS −23…−18 dB, peak ≤ −3 dB, noise floor ≤ −60 dB, room tone at head and tail. */
export const ACX = {
  rmsMin: -23,
  rmsMax: -18,
  peakMax: -3,
  noiseFloorMax: -60,
  targetRms: -20,
  /** Limiter ceiling with a margin for the MP3 encoder's overshoot. */
  limitDb: -6,
  headMs: 750,
  tailMs: 2000,
  /** Room tone: white noise this far below full scale (RMS), under the whole chapter. */
  roomToneDb: -72,
  bitrateKbps: 192,
} as const;
export const ONLINE = { lufs: -16, truePeak: -1.5, headMs: 500, tailMs: 1000 } as const;

export interface LaidParagraph {
  key: string;
  text: string;
  /** Where its audio starts and ends in the chapter file. */
  start_ms: number;
  end_ms: number;
}

export interface ChapterPlan {
  chapterId: string;
  title: string;
  paragraphs: Array<{ key: string; text: string; pause_before_ms: number; pause_after_ms: number }>;
}

/** What a chapter pass writes: raw PCM (joined later), or the delivery codec directly. */
export type ChapterEncoding = 'pcm' | 'aac' | 'mp3';

export interface BuiltChapter {
  chapterId: string;
  title: string;
  /** The pass's output: s16le mono at `rate` (pcm), an ADTS AAC stream (aac) or a CBR MP3 (mp3). */
  file: string;
  encoding: ChapterEncoding;
  rate: number;
  /** Measured by ffmpeg: PCM in the pass that made it, encoded chapters decoded from the file. */
  levels: Levels;
  /** Length of the output (for AAC: whole frames, priming included, as the M4B plays it). */
  duration_ms: number;
  cues: LaidParagraph[];
}

const msToSamples = (ms: number, rate = BOOK_SAMPLE_RATE) => Math.round((ms / 1000) * rate);

/** The data chunk of one of our WAVs (16-bit mono). */
function wavSamples(wav: Buffer): Int16Array {
  let at = 12;
  while (at + 8 <= wav.length) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'data') {
      const end = Math.min(wav.length, at + 8 + size);
      const bytes = Buffer.from(wav.subarray(at + 8, end));
      return new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 2));
    }
    at += 8 + size + (size % 2);
  }
  return new Int16Array(0);
}

/** AAC at 64 kbps with the fast coder (about twice the default's speed at speech quality). */
const AAC_ARGS = ['-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '64k'];
export const AAC_FRAME = 1024;

function encodingArgs(encoding: ChapterEncoding, rate: number, out: string): string[] {
  if (encoding === 'aac') return [...AAC_ARGS, '-ar', String(rate), '-ac', '1', '-f', 'adts', '-y', out];
  if (encoding === 'mp3')
    return [
      '-c:a',
      'libmp3lame',
      '-b:a',
      `${ACX.bitrateKbps}k`,
      '-ar',
      String(rate),
      '-ac',
      '1',
      '-f',
      'mp3',
      '-y',
      out,
    ];
  return ['-f', 's16le', '-ac', '1', '-y', out];
}

/** Frames in an ADTS stream (each 1024 samples): the exact length the M4B will play. */
export async function adtsFrames(file: string): Promise<number> {
  const data = await readFile(file);
  let frames = 0;
  let at = 0;
  while (at + 7 <= data.length) {
    if (data[at] !== 0xff || (data[at + 1] & 0xf0) !== 0xf0) throw new Error(`not an ADTS stream at ${at}`);
    const length = ((data[at + 3] & 0x03) << 11) | (data[at + 4] << 3) | (data[at + 5] >> 5);
    if (length < 7) throw new Error('broken ADTS frame');
    frames += (data[at + 6] & 0x03) + 1;
    at += length;
  }
  return frames;
}

/**
 * One chapter: head room tone, paragraphs with their pauses, tail room tone, then the preset's
 * loudness (ACX: gain to an RMS of −20 dB, a limiter below −3 dB and a room-tone bed at −72 dB;
 * online: EBU R128 to −16 LUFS), resampled and — in the same ffmpeg pass — encoded and measured.
 * The float samples are piped into ffmpeg (no temporary file); memory holds one chapter's speech.
 */
export async function buildChapter(
  ctx: AppContext,
  plan: ChapterPlan,
  preset: LoudnessPreset,
  dir: string,
  index: number,
  rate: number,
  encoding: ChapterEncoding,
  signal?: AbortSignal,
): Promise<BuiltChapter> {
  const head = preset === 'acx' ? ACX.headMs : ONLINE.headMs;
  const tail = preset === 'acx' ? ACX.tailMs : ONLINE.tailMs;
  const pieces: Array<Int16Array | number> = [msToSamples(head)];
  const cues: LaidParagraph[] = [];
  let at = msToSamples(head);
  let energy = 0;
  for (const p of plan.paragraphs) {
    const samples = wavSamples(await buffer(await ctx.storage.read(p.key)));
    const before = msToSamples(p.pause_before_ms);
    pieces.push(before);
    at += before;
    for (let i = 0; i < samples.length; i++) energy += (samples[i] / 32768) ** 2;
    cues.push({
      key: p.key,
      text: p.text,
      start_ms: Math.round((at / BOOK_SAMPLE_RATE) * 1000),
      end_ms: Math.round(((at + samples.length) / BOOK_SAMPLE_RATE) * 1000),
    });
    pieces.push(samples);
    at += samples.length;
    const after = msToSamples(p.pause_after_ms);
    pieces.push(after);
    at += after;
  }
  const tailSamples = msToSamples(tail);
  pieces.push(tailSamples);
  const total = at + tailSamples;

  // Float samples so the gain never clips before the limiter.
  const rms = Math.sqrt(energy / Math.max(1, total));
  const gain = preset === 'acx' && rms > 0 ? 10 ** (ACX.targetRms / 20) / rms : 1;
  const floatScale = preset === 'acx' ? gain / 32768 : 1 / 32768;
  const noiseAmp = preset === 'acx' ? 10 ** (ACX.roomToneDb / 20) * Math.sqrt(3) : 0;
  let seed = 0x9e3779b9 ^ index;
  const noise = () => {
    // xorshift32: the same room tone for the same chapter, so exports are repeatable.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return ((seed >>> 0) / 0xffffffff) * 2 - 1;
  };

  const ext = encoding === 'pcm' ? 's16' : encoding;
  const file = path.join(dir, `chapter-${index}.${ext}`);
  const levelsFile = path.join(dir, `chapter-${index}.levels.txt`);
  const shape =
    preset === 'acx'
      ? `alimiter=limit=${(10 ** (ACX.limitDb / 20)).toFixed(4)}:attack=5:release=50:level=disabled`
      : `loudnorm=I=${ONLINE.lufs}:TP=${ONLINE.truePeak}:LRA=11`;
  // One pass: shape, resample and encode (PCM: and measure, the meter on a branch of the graph).
  const meter =
    encoding === 'pcm'
      ? `asplit=2[out][m];[m]${meterChain(rate, levelsFile, preset === 'online')},anullsink`
      : 'anull[out]';
  const proc = spawnMedia(
    'ffmpeg',
    [
      '-f',
      'f32le',
      '-ar',
      String(BOOK_SAMPLE_RATE),
      '-ac',
      '1',
      '-i',
      'pipe:0',
      '-filter_complex',
      `[0:a]${shape},aresample=${rate},${meter}`,
      '-map',
      '[out]',
      ...encodingArgs(encoding, rate, file),
    ],
    { stdin: 'pipe', signal, timeoutMs: 30 * 60_000 },
  );
  proc.child.stdout.resume();
  const stdin = proc.child.stdin!;
  const ended = proc.done.then(
    () => {
      throw new Error('ffmpeg ended before its input');
    },
    (err) => {
      throw err;
    },
  );
  ended.catch(() => {});
  const feeding = (async () => {
    const CHUNK = 65_536;
    for (const piece of pieces) {
      const length = typeof piece === 'number' ? piece : piece.length;
      for (let from = 0; from < length; from += CHUNK) {
        const n = Math.min(CHUNK, length - from);
        const f = new Float32Array(n);
        for (let i = 0; i < n; i++) {
          const s = typeof piece === 'number' ? 0 : piece[from + i] * floatScale;
          f[i] = s + (noiseAmp ? noise() * noiseAmp : 0);
        }
        if (!stdin.write(Buffer.from(f.buffer, f.byteOffset, f.byteLength)))
          await Promise.race([once(stdin, 'drain'), ended]);
      }
    }
    stdin.end();
  })();
  feeding.catch(() => proc.kill());
  await Promise.all([proc.done, feeding]);

  // An encoded chapter is measured as delivered: decoded again (AAC overshoots its input's peaks by
  // about 0.6 dB). Decoding and metering cost ~0.03 s of CPU per minute of audio.
  const levels =
    encoding === 'pcm'
      ? parseLevels(await readFile(levelsFile, 'utf8'))
      : await measureLoudness(
          file,
          encoding === 'aac' ? ['-f', 'aac'] : ['-f', 'mp3'],
          preset === 'online',
          signal,
        );
  let duration_ms: number;
  if (encoding === 'pcm') duration_ms = Math.round(((await stat(file)).size / 2 / rate) * 1000);
  else if (encoding === 'aac')
    duration_ms = Math.round((((await adtsFrames(file)) * AAC_FRAME) / rate) * 1000);
  else duration_ms = Math.round((total / BOOK_SAMPLE_RATE) * 1000);
  return { chapterId: plan.chapterId, title: plan.title, file, encoding, rate, levels, duration_ms, cues };
}

/**
 * The whole file's figures from its chapters' (each measured by ffmpeg over 0.5 s windows): RMS is the
 * time-weighted power mean, the peak the highest, the noise floor (quietest window) the lowest; LUFS
 * the time-weighted power mean of the chapters' integrated loudness (each normalised on its own).
 */
export function combineLevels(parts: Array<{ levels: Levels; duration_ms: number }>): Levels {
  const total = parts.reduce((n, p) => n + p.duration_ms, 0) || 1;
  const powerMean = (db: (l: Levels) => number) =>
    10 * Math.log10(parts.reduce((n, p) => n + 10 ** (db(p.levels) / 10) * p.duration_ms, 0) / total);
  const round = (v: number) => Math.max(-120, Math.round(v * 100) / 100);
  return {
    rms_db: round(powerMean((l) => l.rms_db)),
    peak_db: round(Math.max(...parts.map((p) => p.levels.peak_db))),
    noise_floor_db: round(Math.min(...parts.map((p) => p.levels.noise_floor_db))),
    lufs: parts.every((p) => p.levels.lufs !== null) ? round(powerMean((l) => l.lufs!)) : null,
  };
}

export interface Levels {
  rms_db: number;
  peak_db: number;
  noise_floor_db: number;
  /** EBU R128 integrated loudness (measured for the online preset; null for ACX, which does not use it). */
  lufs: number | null;
}

/** astats over 0.5 s windows (RMS, peak, RMS trough = noise floor) and optionally EBU R128, printed to a file. */
function meterChain(rate: number, file: string, lufs: boolean): string {
  const escaped = file.replace(/([\\:'])/g, '\\$1');
  return `asetnsamples=n=${rate},astats=metadata=1:reset=0:length=0.5${lufs ? ',ebur128=metadata=1' : ''},ametadata=mode=print:file=${escaped}`;
}

function parseLevels(text: string): Levels {
  const last = (key: string): number | null => {
    const re = new RegExp(`${key.replaceAll('.', '\\.')}=(-?[0-9.]+|-?inf)`, 'g');
    let value: number | null = null;
    for (const m of text.matchAll(re)) value = m[1].endsWith('inf') ? Number.NEGATIVE_INFINITY : Number(m[1]);
    return value === null ? null : Math.max(-120, Math.round(value * 100) / 100);
  };
  return {
    rms_db: last('lavfi.astats.Overall.RMS_level') ?? -120,
    peak_db: last('lavfi.astats.Overall.Peak_level') ?? -120,
    noise_floor_db: last('lavfi.astats.Overall.RMS_trough') ?? -120,
    lufs: last('lavfi.r128.I'),
  };
}

const pcmIn = (rate: number) => ['-f', 's16le', '-ar', String(rate), '-ac', '1'];

/** 192 kbps CBR 44.1 kHz mono MP3 (ACX's delivery format) of one or more processed chapters. */
export async function encodeMp3(pcmFiles: string[], out: string, signal?: AbortSignal): Promise<void> {
  await encodeFromPipe(
    pcmFiles,
    pcmIn(EXPORT_SAMPLE_RATE),
    [
      '-c:a',
      'libmp3lame',
      '-b:a',
      `${ACX.bitrateKbps}k`,
      '-ar',
      String(EXPORT_SAMPLE_RATE),
      '-ac',
      '1',
      '-f',
      'mp3',
      '-y',
      out,
    ],
    [],
    signal,
  );
}

export interface BookMeta {
  title: string;
  author: string;
  narrator: string;
  description: string;
  cover?: { file: string; mime: string };
}

function ffmetaEscape(value: string): string {
  return value.replace(/[=;#\\\n]/g, (c) => (c === '\n' ? '\\\n' : `\\${c}`));
}

/** ffmetadata with the book's tags and one chapter mark per chapter (ms). */
export function ffmetadata(meta: BookMeta, chapters: Array<{ title: string; duration_ms: number }>): string {
  const lines = [
    ';FFMETADATA1',
    `title=${ffmetaEscape(meta.title)}`,
    `album=${ffmetaEscape(meta.title)}`,
    `artist=${ffmetaEscape(meta.author)}`,
    `album_artist=${ffmetaEscape(meta.author)}`,
    `composer=${ffmetaEscape(meta.narrator)}`,
    `comment=${ffmetaEscape(meta.description)}`,
    `description=${ffmetaEscape(meta.description)}`,
    'genre=Audiobook',
  ];
  let start = 0;
  for (const c of chapters) {
    lines.push(
      '[CHAPTER]',
      'TIMEBASE=1/1000',
      `START=${start}`,
      `END=${start + c.duration_ms}`,
      `title=${ffmetaEscape(c.title)}`,
    );
    start += c.duration_ms;
  }
  return `${lines.join('\n')}\n`;
}

/**
 * M4B: the chapters' AAC streams (encoded in parallel, one pass each) joined without re-encoding —
 * ADTS frames back to back, remuxed with `-c copy` — with chapter marks, title, author, narrator,
 * description and the cover as attached picture.
 */
export async function encodeM4b(
  chapters: BuiltChapter[],
  meta: BookMeta,
  out: string,
  dir: string,
  signal?: AbortSignal,
): Promise<void> {
  const metaFile = path.join(dir, 'book.ffmeta');
  await writeFile(metaFile, ffmetadata(meta, chapters));
  const extraInputs = ['-f', 'ffmetadata', '-i', metaFile];
  const maps = ['-map', '0:a', '-map_metadata', '1', '-map_chapters', '1'];
  if (meta.cover) {
    extraInputs.push('-f', meta.cover.mime === 'image/png' ? 'png_pipe' : 'jpeg_pipe', '-i', meta.cover.file);
    maps.push('-map', '2:v', '-c:v', 'copy', '-disposition:v:0', 'attached_pic');
  }
  await encodeFromPipe(
    chapters.map((c) => c.file),
    // A deep input queue: AAC packets are small, and ffmpeg naps 10 ms whenever its queue (8 by
    // default with several inputs) runs dry — that made the join crawl at ~0.6 MB/s.
    ['-thread_queue_size', '4096', '-f', 'aac'],
    [...maps, '-c:a', 'copy', '-f', 'mp4', '-movflags', '+faststart', '-y', out],
    extraInputs,
    signal,
  );
}

/**
 * Streams processed chapters one after another into one ffmpeg (stdin), so a many-hour book is never
 * in memory and needs no concat list. Inputs after the pipe are our own files (metadata, cover),
 * each opened with the demuxer named for it.
 */
async function encodeFromPipe(
  pcmFiles: string[],
  inputFormat: string[],
  outputArgs: string[],
  extraInputs: string[],
  signal?: AbortSignal,
): Promise<void> {
  const proc = spawnMedia('ffmpeg', [...inputFormat, '-i', 'pipe:0', ...extraInputs, ...outputArgs], {
    stdin: 'pipe',
    signal,
    timeoutMs: 60 * 60_000,
    restrictDemuxers: false,
  });
  proc.child.stdout.resume();
  const stdin = proc.child.stdin!;
  const ended = proc.done.then(
    () => {
      throw new Error('ffmpeg ended before its input');
    },
    (err) => {
      throw err;
    },
  );
  ended.catch(() => {});
  const feeding = (async () => {
    for (const file of pcmFiles) {
      for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
        if (!stdin.write(chunk)) await Promise.race([once(stdin, 'drain'), ended]);
      }
    }
    stdin.end();
  })();
  feeding.catch(() => proc.kill());
  await Promise.all([proc.done, feeding.catch(() => {})]);
}

/** Loudness figures of an encoded file as ffmpeg measures them (see meterChain). */
export async function measureLoudness(
  file: string,
  inputFormat: string[],
  withLufs: boolean,
  signal?: AbortSignal,
): Promise<Levels> {
  const report = `${file}.levels.txt`;
  await runFfmpeg(
    [
      ...inputFormat,
      '-i',
      file,
      '-map',
      '0:a',
      '-af',
      meterChain(EXPORT_SAMPLE_RATE, report, withLufs),
      '-f',
      'null',
      '-',
    ],
    { signal, timeoutMs: 30 * 60_000 },
  );
  const levels = parseLevels(await readFile(report, 'utf8'));
  await writeFile(report, '').catch(() => {});
  return levels;
}

/** One report entry: measured figures, the encoding read back, and the preset's verdict. */
export function verdict(
  name: string,
  m: Levels,
  preset: LoudnessPreset,
  encoded: { bitrate_kbps: number; sample_rate: number; duration_ms: number },
): ComplianceEntry {
  const problems: string[] = [];
  if (preset === 'acx') {
    if (m.rms_db < ACX.rmsMin || m.rms_db > ACX.rmsMax)
      problems.push(`RMS ${m.rms_db} dB 不在 ${ACX.rmsMin}…${ACX.rmsMax} dB 之间`);
    if (m.peak_db > ACX.peakMax) problems.push(`峰值 ${m.peak_db} dB 高于 ${ACX.peakMax} dB`);
    if (m.noise_floor_db > ACX.noiseFloorMax)
      problems.push(`底噪 ${m.noise_floor_db} dB 高于 ${ACX.noiseFloorMax} dB`);
    // ACX takes only its delivery format: a file in another one is not ACX-compliant, however loud.
    const mp3 = name.toLowerCase().endsWith('.mp3');
    if (!mp3 || encoded.bitrate_kbps < ACX.bitrateKbps || encoded.sample_rate !== EXPORT_SAMPLE_RATE) {
      const kind = mp3 ? 'MP3' : (name.split('.').pop() ?? '').toUpperCase();
      problems.push(
        `ACX 要求 ${ACX.bitrateKbps} kbps CBR ${EXPORT_SAMPLE_RATE / 1000} kHz MP3，此文件为 ${kind} ${encoded.bitrate_kbps} kbps · ${encoded.sample_rate / 1000} kHz`,
      );
    }
  } else if (m.lufs === null || Math.abs(m.lufs - ONLINE.lufs) > 1.5) {
    problems.push(`响度 ${m.lufs ?? '未知'} LUFS 偏离 ${ONLINE.lufs} LUFS`);
  }
  return { file: name, ...m, ...encoded, passed: problems.length === 0, problems };
}

export function toLrc(cues: Array<{ start_ms: number; text: string }>, title: string): string {
  const t = (ms: number) => {
    const cs = Math.floor(ms / 10);
    const m = Math.floor(cs / 6000);
    const s = Math.floor((cs % 6000) / 100);
    return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
  };
  return (
    [`[ti:${title}]`, ...cues.map((c) => `[${t(c.start_ms)}]${c.text.replace(/\s+/g, ' ')}`)].join('\n') +
    '\n'
  );
}

/**
 * Read-along subtitles of a chapter by the subtitle rules: each paragraph's measured time shared out
 * by what is said for its text (numbers by their syllables), cut at clauses and between words.
 */
export function toChapterSrt(cues: LaidParagraph[]): string {
  const words = cues.flatMap((c) => {
    const chinese = /\p{Script=Han}/u.test(c.text);
    const units = planSentences(escapeMarkup(c.text), false, { language: chinese ? 'zh' : 'en' });
    return spokenWords([{ pieces: units.flatMap((u) => u.pieces) }], [c]);
  });
  const chinese = cues.some((c) => /\p{Script=Han}/u.test(c.text));
  return toSrt(speechCues(words, subtitleRulesFor(chinese ? 'zh' : 'en')));
}

/** A ZIP of files on disk, stored (MP3 is compressed already), streamed to `out`. */
export async function zipFiles(entries: Array<{ name: string; file: string }>, out: string): Promise<void> {
  const sink = createWriteStream(out);
  const zip = new Zip();
  const finished = new Promise<void>((resolve, reject) => {
    zip.ondata = (err, chunk, final) => {
      if (err) return reject(err);
      sink.write(chunk);
      if (final) sink.end(() => resolve());
    };
  });
  for (const e of entries) {
    const entry = new ZipPassThrough(e.name);
    zip.add(entry);
    const handle = await open(e.file, 'r');
    try {
      for (;;) {
        // A fresh buffer per chunk: the file stream keeps a reference until it is written.
        const buf = Buffer.alloc(1024 * 1024);
        const { bytesRead } = await handle.read(buf, 0, buf.length);
        if (bytesRead === 0) break;
        entry.push(new Uint8Array(buf.subarray(0, bytesRead)));
        // Let the file stream drain between chunks.
        if (sink.writableNeedDrain) await new Promise<void>((r) => sink.once('drain', () => r()));
      }
      entry.push(new Uint8Array(0), true);
    } finally {
      await handle.close();
    }
  }
  zip.end();
  await finished;
}
