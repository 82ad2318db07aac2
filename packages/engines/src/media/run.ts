import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { EngineError } from '../errors.ts';

/**
 * ffmpeg and ffprobe on files, never on media held in memory. Every run:
 * - reads only files and our own pipes (`-protocol_whitelist file,pipe` before every input), so a
 *   crafted playlist cannot reach the network or another protocol;
 * - never reads the terminal (`-nostdin`);
 * - has a time limit and follows an AbortSignal: SIGTERM first (ffmpeg finishes its file), SIGKILL
 *   after a short grace, so a cancelled task stops within about a second;
 * - fails with an EngineError carrying the tail of stderr.
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
const STDERR_TAIL_BYTES = 4096;

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

/** Niceness of media processes: below request handling, as the worker units' `Nice=`. */
const MEDIA_NICE = 10;

/**
 * Lowers a media process's CPU priority to MEDIA_NICE (a process already that low keeps its own).
 * An API process probes uploads with ffmpeg; on a busy machine that work waits, not the requests.
 */
export function deprioritize(pid: number | undefined): void {
  if (!pid) return;
  try {
    if (getPriority(pid) < MEDIA_NICE) setPriority(pid, MEDIA_NICE);
  } catch {
    // Already gone: nothing to lower.
  }
}

export interface MediaProcess {
  child: ChildProcessByStdio<Writable | null, Readable, Readable>;
  /** Settles once: resolved on exit 0, else an EngineError (timeout, aborted, media_failed). */
  done: Promise<void>;
  /** Asks the process to stop (SIGTERM, then SIGKILL after the grace). */
  kill(): void;
  stderrTail(): string;
}

export function spawnMedia(
  bin: MediaBinary,
  args: readonly string[],
  options: MediaRunOptions & { stdin?: 'pipe' | 'ignore' } = {},
): MediaProcess {
  const { signal, timeoutMs = DEFAULT_TIMEOUT_MS, killGraceMs = 1000 } = options;
  const fullArgs = safeArgs(bin, args, options.restrictDemuxers ?? true);
  const child = spawn(bin, fullArgs, {
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
  deprioritize(child.pid);
  let tail = Buffer.alloc(0);
  child.stderr.on('data', (c: Buffer) => {
    tail = Buffer.concat([tail, c]);
    if (tail.length > STDERR_TAIL_BYTES) tail = tail.subarray(tail.length - STDERR_TAIL_BYTES);
  });
  child.stdin?.on('error', () => {});
  const stderrTail = () => tail.toString('utf8').trim().split('\n').slice(-5).join(' | ');

  let reason: 'timeout' | 'aborted' | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    killTimer ??= setTimeout(() => child.kill('SIGKILL'), killGraceMs);
    killTimer.unref();
  };
  const timer = setTimeout(() => {
    reason = 'timeout';
    kill();
  }, timeoutMs);
  timer.unref();
  const onAbort = () => {
    reason ??= 'aborted';
    kill();
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  const done = new Promise<void>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      cleanup();
      if (e.code === 'ENOENT') {
        reject(
          new EngineError(
            'engine_unavailable',
            '媒体处理组件不可用，请联系管理员',
            `${bin} not found: install ffmpeg (apt-get install ffmpeg)`,
          ),
        );
      } else reject(e);
    });
    child.on('close', (code, sig) => {
      cleanup();
      if (reason === 'aborted') {
        return reject(new EngineError('aborted', '媒体处理已取消', `${bin} stopped: aborted`));
      }
      if (reason === 'timeout') {
        return reject(
          new EngineError('timeout', '媒体处理超时', `${bin} killed after ${timeoutMs} ms: ${stderrTail()}`),
        );
      }
      if (code === 0) return resolve();
      const t = stderrTail();
      reject(
        new EngineError('media_failed', `媒体处理失败：${t}`, `${bin} exited with ${code ?? sig}: ${t}`),
      );
    });
  });
  return { child, done, kill, stderrTail };
}

/** Runs to completion and returns stdout (for small outputs: probe JSON, a few KB). */
export async function runMedia(
  bin: MediaBinary,
  args: readonly string[],
  options: MediaRunOptions = {},
): Promise<Buffer> {
  const proc = spawnMedia(bin, args, options);
  const out: Buffer[] = [];
  proc.child.stdout.on('data', (c: Buffer) => out.push(c));
  await proc.done;
  return Buffer.concat(out);
}

export function runFfmpeg(args: readonly string[], options: MediaRunOptions = {}): Promise<Buffer> {
  return runMedia('ffmpeg', args, options);
}

export function runFfprobe(args: readonly string[], options: MediaRunOptions = {}): Promise<Buffer> {
  return runMedia('ffprobe', args, options);
}
