/** What the HTTP benchmarks share: a server in its own process, and a signed-in demo account. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import autocannon from 'autocannon';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Runs a server script (run by tsx from the repository root) with extra environment. */
export function startProcess(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Resolves once the URL answers at all (any status); gives up after 30 s. */
export async function waitFor(url: string, init?: RequestInit): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      await fetch(url, init);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`${url} did not answer`);
}

/** Signs in as the demo account (seeded outside production) and answers the workbench headers. */
export async function demoHeaders(base: string): Promise<Record<string, string>> {
  const signIn = await fetch(`${base}/accounts/v1/auth_with_password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: '13800000000', password: 'demo12345' }),
  }).then((r) => r.json());
  return {
    'content-type': 'application/json',
    authorization: `Bearer ${signIn.data.secure_tokens.access_token as string}`,
    'x-device-id': 'bench',
    'x-bundle-id': 'com.voiceworkbench.web',
  };
}

/** CPU time (ms) a process has used so far, from /proc (Linux); null elsewhere. */
export function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 100 Hz ticks
  } catch {
    return null;
  }
}

/**
 * Waits (up to 10 s) until the server uses under 5 % of a core over half a second: work left from its
 * start (seeds, helper threads compiling, the previous run's garbage) would otherwise be counted
 * against the first requests measured.
 */
async function settled(server: ChildProcess) {
  for (let i = 0; i < 20; i++) {
    const before = cpuMs(server.pid);
    await new Promise((r) => setTimeout(r, 500));
    const after = cpuMs(server.pid);
    if (before === null || after === null || after - before < 25) return;
  }
}

/**
 * POSTs to a route at 64 connections for `seconds` after a warm-up (so JIT and caches are in the
 * same state for every target): requests/s, latency, errors and the server process's CPU per request.
 */
export async function measureRoute(
  title: string,
  url: string,
  headers: Record<string, string>,
  server: ChildProcess,
  seconds: number,
  warmupSeconds = 5,
) {
  const connections = 64;
  await settled(server);
  await autocannon({ url, method: 'POST', headers, connections, duration: warmupSeconds });
  const cpuBefore = cpuMs(server.pid);
  const result = await autocannon({ url, method: 'POST', headers, connections, duration: seconds });
  const cpuAfter = cpuMs(server.pid);
  return {
    target: title,
    'requests/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    errors: result.errors + result.non2xx,
    // The server's own CPU per request: steadier than requests/s when other work shares the machine.
    'server CPU µs/req':
      cpuBefore === null || cpuAfter === null
        ? null
        : Math.round(((cpuAfter - cpuBefore) * 1000) / result.requests.total),
  };
}

/**
 * Streams file[start…] to a tus upload URL in one PATCH; `cutAfter` bytes break the connection
 * (answers -1). Answers the server's Upload-Offset.
 */
export function patchFile(
  url: string,
  file: string,
  start: number,
  auth: Record<string, string>,
  cutAfter?: number,
): Promise<number> {
  const size = statSync(file).size;
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'PATCH',
      headers: {
        ...auth,
        'upload-offset': String(start),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(size - start),
      },
    });
    let sent = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        sent += chunk.length;
        if (cutAfter !== undefined && sent >= cutAfter) {
          done(null, chunk);
          setImmediate(() => {
            req.destroy();
            resolve(-1);
          });
          return;
        }
        done(null, chunk);
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(Number(res.headers['upload-offset'])));
    });
    req.on('error', (e) => (cutAfter !== undefined ? resolve(-1) : reject(e)));
    pipeline(createReadStream(file, { start, highWaterMark: 4 * 1024 * 1024 }), counter, req).catch(() => {});
  });
}

const tick = Number(execFileSync('getconf', ['CLK_TCK']).toString());

/** CPU seconds used so far by this process's threads and its child processes, living or finished (Linux /proc). */
export function treeCpuSeconds(): number {
  // /proc/<pid>/stat after the name: state ppid … utime stime cutime cstime at 11–14.
  const fields = (pid: string) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const used = (f: string[]) => Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  let ticks = used(fields('self'));
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const f = fields(pid);
      if (Number(f[1]) === process.pid) ticks += used(f);
    } catch {} // ended meanwhile
  }
  return ticks / tick;
}

/** A TCP port free on loopback right now (for a server started next). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
