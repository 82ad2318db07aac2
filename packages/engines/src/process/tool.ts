import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { EngineError } from '../errors.ts';

/**
 * The one place the engines start a program (ffmpeg, ffprobe, rubberband). Every run:
 * - runs below request handling (niceness 10 unless asked otherwise), as the worker units' `Nice=`;
 * - follows an AbortSignal and an optional time limit: SIGTERM first (ffmpeg finishes its file),
 *   SIGKILL after a short grace, so a cancelled task stops within about a second;
 * - keeps the tail of stderr and settles `done` once, with the caller's own EngineError for a
 *   missing program, a cancel, a timeout or a failed exit.
 */

/** The errors of one program, in the words of the feature that runs it. */
export interface ToolErrors {
  /** The program is not installed. */
  missing(): EngineError;
  aborted(): EngineError;
  /** Exited with a code other than 0 (or by a signal); `stderr` is the kept tail, untrimmed. */
  failed(exit: number | string, stderr: string): EngineError;
  /** Killed at the time limit; default a plain `timeout` error naming the program. */
  timedOut?(ms: number, stderr: string): EngineError;
}

export interface ToolOptions {
  errors: ToolErrors;
  signal?: AbortSignal;
  /** No limit unless given. */
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL; default 1 s. */
  killGraceMs?: number;
  /** Niceness of the process (a process already lower keeps its own); default 10. */
  nice?: number;
  /** 'pipe' to feed the program; default 'ignore'. */
  stdin?: 'pipe' | 'ignore';
  /** 'ignore' drops what the program prints; default 'pipe' (read `child.stdout`, or the run stalls). */
  stdout?: 'pipe' | 'ignore';
  /** Bytes of stderr kept for errors and `stderr()`; default 4 KiB. */
  stderrBytes?: number;
}

export interface ToolProcess {
  child: ChildProcessByStdio<Writable | null, Readable, Readable>;
  /** Settles once: resolved on exit 0, else the ToolErrors error (or the spawn error as it is). */
  done: Promise<void>;
  /** Asks the process to stop (SIGTERM, then SIGKILL after the grace). */
  kill(): void;
  /** The kept tail of stderr. */
  stderr(): string;
}

/** Niceness of media and tool processes: below request handling. */
export const TOOL_NICE = 10;

/** Lowers a process's CPU priority to `nice`; a process already that low keeps its own. */
export function deprioritize(pid: number | undefined, nice = TOOL_NICE): void {
  if (!pid) return;
  try {
    if (getPriority(pid) < nice) setPriority(pid, nice);
  } catch {
    // Already gone: nothing to lower.
  }
}

/** The last `count` non-empty lines of a log, joined for one error sentence. */
export const lastLines = (text: string, count: number) => text.trim().split('\n').slice(-count).join(' | ');

export function runTool(bin: string, args: readonly string[], options: ToolOptions): ToolProcess {
  const { errors, signal, timeoutMs, killGraceMs = 1000, stderrBytes = 4096 } = options;
  const child = spawn(bin, args, {
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
  deprioritize(child.pid, options.nice);
  if (options.stdout === 'ignore') child.stdout.resume();
  let tail = Buffer.alloc(0);
  child.stderr.on('data', (c: Buffer) => {
    tail = Buffer.concat([tail, c]);
    if (tail.length > stderrBytes) tail = tail.subarray(tail.length - stderrBytes);
  });
  // EPIPE when the program quits early is reported through 'close' with its own message.
  child.stdin?.on('error', () => {});
  const stderr = () => tail.toString('utf8');

  let reason: 'timeout' | 'aborted' | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    killTimer ??= setTimeout(() => child.kill('SIGKILL'), killGraceMs);
    killTimer.unref();
  };
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          reason = 'timeout';
          kill();
        }, timeoutMs);
  timer?.unref();
  const onAbort = () => {
    reason ??= 'aborted';
    kill();
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  const done = new Promise<void>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      cleanup();
      reject(e.code === 'ENOENT' ? errors.missing() : e);
    });
    child.on('close', (code, sig) => {
      cleanup();
      if (reason === 'aborted') return reject(errors.aborted());
      if (reason === 'timeout') {
        return reject(
          errors.timedOut?.(timeoutMs as number, stderr()) ??
            new EngineError('timeout', '处理超时', `${bin} killed after ${timeoutMs} ms`),
        );
      }
      if (code === 0) return resolve();
      reject(errors.failed(code ?? (sig as string), stderr()));
    });
  });
  return { child, done, kill, stderr };
}

/** Runs to completion, feeding `input` when given, and returns stdout (for outputs that fit in memory). */
export async function toolOutput(
  bin: string,
  args: readonly string[],
  options: ToolOptions & { input?: Buffer },
): Promise<Buffer> {
  const { input, ...rest } = options;
  const proc = runTool(bin, args, { ...rest, stdin: input ? 'pipe' : rest.stdin });
  const out: Buffer[] = [];
  proc.child.stdout.on('data', (c: Buffer) => out.push(c));
  proc.child.stdin?.end(input);
  await proc.done;
  return Buffer.concat(out);
}
