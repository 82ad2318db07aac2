import { EngineError } from '../errors.ts';
import { lastLines, runTool, type ToolErrors, type ToolProcess, toolOutput } from '../process/tool.ts';

/**
 * ffmpeg and ffprobe on files, never on media held in memory. Every run:
 * - reads only files and our own pipes (`-protocol_whitelist file,pipe` before every input), so a
 *   crafted playlist cannot reach the network or another protocol;
 * - never reads the terminal (`-nostdin`);
 * - has a time limit (10 minutes unless given) and follows an AbortSignal, runs at niceness 10 and
 *   fails with an EngineError carrying the tail of stderr (process/tool.ts).
 */

export const SAFE_PROTOCOLS = 'file,pipe';

/** Demuxers a user's file may be read with. Playlists (hls, concat, ffconcat), image2 sequences and
 * anything else that can name other files or URLs are not on it. */
export const ALLOWED_DEMUXERS = [
  'mov',
  'mp4',
  'm4a',
  '3gp',
  '3g2',
  'mj2',
  'matroska',
  'webm',
  'mp3',
  'wav',
  'flac',
  'ogg',
  'aac',
  'amr',
  'avi',
  'mpegts',
  'flv',
  // Our own pipes of raw PCM.
  's16le',
  'f32le',
] as const;

export interface MediaRunOptions {
  signal?: AbortSignal;
  /** Default 10 minutes; a stuck process is killed then. */
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL; default 1 s. */
  killGraceMs?: number;
  /** Restrict demuxers of every input to ALLOWED_DEMUXERS (default true: inputs are users' files). */
  restrictDemuxers?: boolean;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

export type MediaBinary = 'ffmpeg' | 'ffprobe';

/** Inserts the safety options before every `-i` (each input has its own whitelist). */
export function safeArgs(bin: MediaBinary, args: readonly string[], restrictDemuxers = true): string[] {
  const guard = ['-protocol_whitelist', SAFE_PROTOCOLS];
  if (restrictDemuxers) guard.push('-format_whitelist', ALLOWED_DEMUXERS.join(','));
  if (bin === 'ffprobe') return ['-hide_banner', ...guard, ...args];
  const out = ['-hide_banner', '-nostdin', '-loglevel', 'error'];
  for (const arg of args) {
    if (arg === '-i') out.push(...guard);
    out.push(arg);
  }
  return out;
}

/** ffmpeg's and ffprobe's errors in the media tools' words; `lines` of stderr go into a failure. */
export function mediaErrors(bin: MediaBinary, lines = 5): ToolErrors {
  return {
    missing: () =>
      new EngineError(
        'engine_unavailable',
        '媒体处理组件不可用，请联系管理员',
        `${bin} not found: install ffmpeg (apt-get install ffmpeg)`,
      ),
    aborted: () => new EngineError('aborted', '媒体处理已取消', `${bin} stopped: aborted`),
    timedOut: (ms, stderr) =>
      new EngineError('timeout', '媒体处理超时', `${bin} killed after ${ms} ms: ${lastLines(stderr, lines)}`),
    failed: (exit, stderr) => {
      const tail = lastLines(stderr, lines);
      return new EngineError('media_failed', `媒体处理失败：${tail}`, `${bin} exited with ${exit}: ${tail}`);
    },
  };
}

/** The safe arguments and the run options of a media run. */
function asTool(
  bin: MediaBinary,
  args: readonly string[],
  {
    restrictDemuxers = true,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    ...run
  }: MediaRunOptions & { stdin?: 'pipe' | 'ignore' },
) {
  return [safeArgs(bin, args, restrictDemuxers), { ...run, timeoutMs, errors: mediaErrors(bin) }] as const;
}

export function spawnMedia(
  bin: MediaBinary,
  args: readonly string[],
  options: MediaRunOptions & { stdin?: 'pipe' | 'ignore' } = {},
): ToolProcess {
  return runTool(bin, ...asTool(bin, args, options));
}

/** Runs to completion and returns stdout (for small outputs: probe JSON, a few KB). */
export function runFfmpeg(args: readonly string[], options: MediaRunOptions = {}): Promise<Buffer> {
  return toolOutput('ffmpeg', ...asTool('ffmpeg', args, options));
}

export function runFfprobe(args: readonly string[], options: MediaRunOptions = {}): Promise<Buffer> {
  return toolOutput('ffprobe', ...asTool('ffprobe', args, options));
}
