import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../errors.ts';
import type { InspectorCall, InspectorOperation, InspectorReply } from './inspector-process.ts';
import type { MediaProbe } from './probe.ts';
import { deprioritize } from './run.ts';
import type { WaveformPeaks } from './tools.ts';

const HELPER = fileURLToPath(new URL('./inspector-process.ts', import.meta.url));

/**
 * probeFile, waveformPeaks and thumbnail run in a small helper process, started on first use. A
 * server process is large (~550 MB): each ffmpeg it forks copies its page tables and holds its event
 * loop until the child has exec'ed, which under load took tens of milliseconds per upload from every
 * request in flight. The helper forks cheaply, runs at niceness 10 with its children, and does the
 * peaks arithmetic off the server's main thread. A helper that dies fails its calls with
 * `engine_unavailable` (not the file's fault: an S3 upload stays resumable) and is restarted.
 */
export interface MediaInspector {
  probeFile(path: string, options?: { format?: string; timeoutMs?: number }): Promise<MediaProbe>;
  waveformPeaks(
    path: string,
    bucketsPerSecond: number,
    options?: { timeoutMs?: number },
  ): Promise<WaveformPeaks>;
  thumbnail(
    path: string,
    out: string,
    atSeconds: number,
    options?: { timeoutMs?: number; width?: number },
  ): Promise<void>;
  close(): Promise<void>;
}

interface Pending {
  child: ChildProcess;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

const helperGone = () =>
  new EngineError('engine_unavailable', '媒体检查进程意外退出，请重试', 'the media inspector process exited');

export function createMediaInspector(): MediaInspector {
  const pending = new Map<number, Pending>();
  let child: ChildProcess | null = null;
  let nextId = 1;

  // The IPC channel keeps the parent alive only while calls are out.
  const holdOpen = (c: ChildProcess) =>
    [...pending.values()].some((p) => p.child === c) ? c.channel?.ref() : c.channel?.unref();

  const start = () => {
    const c = fork(HELPER, [], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    deprioritize(c.pid);
    c.unref();
    c.on('message', (reply: InspectorReply) => {
      const call = pending.get(reply.id);
      if (!call) return;
      pending.delete(reply.id);
      holdOpen(c);
      if ('value' in reply) call.resolve(reply.value);
      else {
        const { code, zh, en, message } = reply.error;
        call.reject(code ? new EngineError(code, zh ?? message, en ?? message) : new Error(message));
      }
    });
    const gone = () => {
      if (child === c) child = null;
      for (const [id, call] of pending) {
        if (call.child !== c) continue;
        pending.delete(id);
        call.reject(helperGone());
      }
    };
    c.once('exit', gone);
    c.once('error', () => {
      c.kill();
      gone();
    });
    return c;
  };

  const call = <T>(op: InspectorOperation, args: unknown[]) => {
    child ??= start();
    const c = child;
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { child: c, resolve: resolve as (v: unknown) => void, reject });
      holdOpen(c);
      c.send({ id, op, args } satisfies InspectorCall, (error) => {
        if (!error || !pending.delete(id)) return;
        holdOpen(c);
        reject(helperGone());
      });
    });
  };

  return {
    probeFile: (path, options = {}) => call('probeFile', [path, options]),
    waveformPeaks: (path, bucketsPerSecond, options = {}) =>
      call('waveformPeaks', [path, bucketsPerSecond, options]),
    thumbnail: (path, out, atSeconds, options = {}) => call('thumbnail', [path, out, atSeconds, options]),
    async close() {
      const c = child;
      child = null;
      if (c && c.exitCode === null && c.signalCode === null) {
        const exited = new Promise((resolve) => c.once('exit', resolve));
        c.kill();
        await exited;
      }
    },
  };
}
