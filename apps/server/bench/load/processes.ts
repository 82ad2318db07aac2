/** Server processes (`main.ts api|worker`) and the services they need, started and stopped by pid. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');
/** The worker units' `Nice=` (deploy/systemd): media work waits for the CPU, requests do not. */
const WORKER_NICE = 10;

export interface Proc {
  name: string;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process is gone. */
  exited: Promise<number | string>;
  alive(): boolean;
}

/** Spawns a command whose output goes to `logFile` (appended: a restarted process keeps one log). */
export function spawnLogged(
  name: string,
  command: string,
  args: string[],
  options: { env?: Record<string, string>; logFile: string; cwd?: string },
): Proc {
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(options.logFile, { flags: 'a' });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  let gone = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      gone = true;
      log.end();
      resolve(code ?? signal ?? -1);
    });
  });
  return { name, child, exited, alive: () => !gone };
}

/** One server process in a role, run from the repository root as an operator would. */
export function spawnRole(
  name: string,
  role: 'api' | 'worker',
  env: Record<string, string>,
  logFile: string,
): Proc {
  const node = [process.execPath, '--import', 'tsx', MAIN, role];
  // Workers yield the CPU to API processes (and their engines inherit it), as the systemd unit's Nice=.
  const [command, ...args] = role === 'worker' ? ['nice', '-n', String(WORKER_NICE), ...node] : node;
  return spawnLogged(name, command, args, { env, logFile });
}

/** Polls `check` until it answers a value; fails naming `what` after `timeoutMs`. */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > until)
      throw new Error(`timed out waiting for ${what}${lastError ? `: ${lastError}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Resolves once GET `url` answers `status` (default 200). */
export function waitForHttp(url: string, status = 200, timeoutMs = 90_000): Promise<true> {
  return waitUntil(
    `${url} to answer ${status}`,
    async () => {
      const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
      await res.body?.cancel();
      return res.status === status;
    },
    timeoutMs,
    200,
  );
}

/** Signals a process and waits for it to go. */
export async function stop(proc: Proc, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string> {
  if (proc.alive()) proc.child.kill(signal);
  return proc.exited;
}
