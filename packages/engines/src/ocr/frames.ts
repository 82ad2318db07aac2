import { rm, stat } from 'node:fs/promises';
import { EngineError } from '../errors.ts';
import { probeFile } from '../media/probe.ts';
import { type MediaRunOptions, runFfmpeg, runFfprobe } from '../media/run.ts';
import type { Box } from './types.ts';

export interface VideoInfo {
  width: number;
  height: number;
  durationMs: number;
  /** Frames per second of the first video stream (avg_frame_rate, else r_frame_rate, else 25). */
  fps: number;
  bitRate: number;
  pixFmt: string;
  hasAudio: boolean;
}

const parseRate = (s: string | undefined) => {
  const [a, b] = (s ?? '').split('/').map(Number);
  const r = b ? a / b : a;
  return Number.isFinite(r) && r > 0 && r < 240 ? r : 0;
};

/** Probe of a video we are about to read frames of; no video stream → media_unsupported. */
export async function probeVideo(video: string, options: MediaRunOptions = {}): Promise<VideoInfo> {
  const p = await probeFile(video, options);
  if (!p.hasVideo || !p.width || !p.height) {
    throw new EngineError('media_unsupported', '该文件没有视频画面', `${video} has no video stream`);
  }
  const out = await runFfprobe(
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=avg_frame_rate,r_frame_rate,pix_fmt,bit_rate',
      '-of',
      'json',
      '-i',
      video,
    ],
    options,
  );
  const s = (JSON.parse(out.toString('utf8')).streams?.[0] ?? {}) as Record<string, string>;
  const fps = parseRate(s.avg_frame_rate) || parseRate(s.r_frame_rate) || 25;
  return {
    width: p.width,
    height: p.height,
    durationMs: p.durationMs,
    fps,
    bitRate: Number(s.bit_rate) || p.bitRate || 0,
    pixFmt: s.pix_fmt ?? 'yuv420p',
    hasAudio: p.hasAudio,
  };
}

const EPS = 1e-6;

/**
 * Normalised box checks shared by OCR and erasing: inside the frame (a hair of rounding allowed) and
 * at least 2 × 2 pixels. Throws invalid_request naming the box.
 */
export function assertBox(box: Box, width: number, height: number, what = 'box'): void {
  const bad = (why: string, en: string) =>
    new EngineError('invalid_request', `区域无效：${why}`, `${what} ${JSON.stringify(box)}: ${en}`);
  const vals = [box?.x, box?.y, box?.w, box?.h];
  if (vals.some((v) => typeof v !== 'number' || !Number.isFinite(v)))
    throw bad('坐标不是数字', 'not numbers');
  if (box.w * width < 2 || box.h * height < 2) throw bad('宽或高为零', 'zero or sub-pixel size');
  if (box.x < -EPS || box.y < -EPS || box.x + box.w > 1 + 1e-3 || box.y + box.h > 1 + 1e-3) {
    throw bad('超出画面范围', 'outside the frame');
  }
}

/** Box → even pixel crop inside the frame (ffmpeg crop of yuv420p wants even sizes). */
export function pixelBox(box: Box, width: number, height: number) {
  const x = Math.max(0, Math.floor((box.x * width) / 2) * 2);
  const y = Math.max(0, Math.floor((box.y * height) / 2) * 2);
  const x1 = Math.min(width, Math.ceil(((box.x + box.w) * width) / 2) * 2);
  const y1 = Math.min(height, Math.ceil(((box.y + box.h) * height) / 2) * 2);
  return { x, y, w: Math.max(2, x1 - x), h: Math.max(2, y1 - y) };
}

/** One frame at `atMs` as JPEG (preview frames, region detection), full size or at most `maxWidth`. */
export async function grabFrame(
  video: string,
  atMs: number,
  out: string,
  opts: { maxWidth?: number; signal?: AbortSignal } = {},
): Promise<void> {
  if (!Number.isFinite(atMs) || atMs < 0) {
    throw new EngineError('invalid_request', '时间点无效', `frame time ${atMs} is not a time`);
  }
  const scale = opts.maxWidth ? [`scale='min(iw,${opts.maxWidth})':-2`] : [];
  await runFfmpeg(
    [
      '-ss',
      (atMs / 1000).toFixed(3),
      '-i',
      video,
      '-frames:v',
      '1',
      ...(scale.length ? ['-vf', scale.join(',')] : []),
      '-q:v',
      '2',
      '-update',
      '1',
      '-y',
      out,
    ],
    // Generous: a seek decodes up to a keyframe interval, slow for a high-bitrate file on a busy box.
    { signal: opts.signal, timeoutMs: 5 * 60_000 },
  );
  // Past the end ffmpeg writes nothing (or an empty file) and still exits 0.
  const size = await stat(out).then(
    (s) => s.size,
    () => 0,
  );
  if (!size) {
    await rm(out, { force: true });
    throw new EngineError('invalid_request', '时间点超出视频长度', `no frame at ${atMs} ms (past the end?)`);
  }
}

/** Frames per ffmpeg run when picking single frames: ffmpeg's expression parser fails on long sums. */
const PICK_BATCH = 24;

/**
 * Single frames (by frame number) of an input as raw gray pictures, in batches: each batch seeks to
 * its first frame (`-copyts`, so filters see the original times) and selects by frame count.
 * `filters` run before the selection (e.g. subtitles rendering); `scale` sets the output size.
 */
export async function pickGrayFrames(
  input: string[],
  frames: number[],
  opts: {
    fps: number;
    width: number;
    height: number;
    filters?: string;
    restrictDemuxers?: boolean;
    signal?: AbortSignal;
  },
): Promise<Map<number, Buffer>> {
  const wanted = [...new Set(frames)].filter((n) => n >= 0).sort((a, b) => a - b);
  const out = new Map<number, Buffer>();
  const size = opts.width * opts.height;
  for (let i = 0; i < wanted.length; i += PICK_BATCH) {
    const batch = wanted.slice(i, i + PICK_BATCH);
    const first = batch[0];
    const select = batch.map((n) => `eq(n\\,${n - first})`).join('+');
    const chain = [
      opts.filters,
      `select='${select}'`,
      `scale=${opts.width}:${opts.height}`,
      'format=gray',
    ].filter(Boolean);
    const raw = await runFfmpeg(
      [
        '-ss',
        // Half a frame early: frame `first` is the first one kept whatever the rounding.
        (Math.max(0, first - 0.5) / opts.fps).toFixed(4),
        '-copyts',
        ...input,
        '-an',
        '-vf',
        chain.join(','),
        '-fps_mode',
        'passthrough',
        '-frames:v',
        String(batch.length),
        '-f',
        'rawvideo',
        'pipe:1',
      ],
      { signal: opts.signal, restrictDemuxers: opts.restrictDemuxers, timeoutMs: 30 * 60_000 },
    );
    batch.forEach((n, k) => {
      if ((k + 1) * size <= raw.length) out.set(n, raw.subarray(k * size, (k + 1) * size));
    });
  }
  return out;
}
