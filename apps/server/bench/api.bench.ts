/**
 * bench:api — authenticated get_user_info on the embedded default (SQLite, local files) over
 * loopback at 64 connections, next to a bare Fastify route measured in the same run.
 * Targets (issue 2): at least half the bare route's requests/s, p99 under 20 ms.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { demoHeaders, startProcess, waitFor } from './support.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;

/** CPU time (ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 100 Hz ticks
  } catch {
    return null;
  }
}

async function measure(title: string, url: string, headers: Record<string, string>, server: ChildProcess) {
  // A short warm-up so JIT and caches are in the same state for both targets.
  await autocannon({ url, method: 'POST', headers, connections: CONNECTIONS, duration: 5 });
  const cpuBefore = cpuMs(server.pid);
  const result = await autocannon({
    url,
    method: 'POST',
    headers,
    connections: CONNECTIONS,
    duration: DURATION,
  });
  const cpuAfter = cpuMs(server.pid);
  const row = {
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
  return row;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-bench-'));
const apiPort = 18901;
const barePort = 18902;
const api = startProcess('apps/server/src/main.ts', {
  NODE_ENV: 'development',
  PORT: String(apiPort),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
});
const bare = startProcess('apps/server/bench/bare-server.ts', { PORT: String(barePort) });

try {
  await waitFor(`http://127.0.0.1:${apiPort}/openapi.json`);
  await waitFor(`http://127.0.0.1:${barePort}/bare`, { method: 'POST' });
  const headers = await demoHeaders(`http://127.0.0.1:${apiPort}`);

  const bareRow = await measure('bare Fastify route', `http://127.0.0.1:${barePort}/bare`, {}, bare);
  const apiRow = await measure(
    'get_user_info (authenticated, SQLite)',
    `http://127.0.0.1:${apiPort}/v1/user/get_user_info`,
    headers,
    api,
  );
  console.table([bareRow, apiRow]);
  const ratio = apiRow['requests/s'] / bareRow['requests/s'];
  console.log(
    `get_user_info / bare = ${(ratio * 100).toFixed(1)}% (target ≥ 50%); p99 = ${apiRow['p99 ms']} ms (target < 20 ms)`,
  );
  if (bareRow['server CPU µs/req'] && apiRow['server CPU µs/req']) {
    const cpuRatio = bareRow['server CPU µs/req'] / apiRow['server CPU µs/req'];
    console.log(`server CPU per request, bare / get_user_info = ${(cpuRatio * 100).toFixed(1)}%`);
  }
} finally {
  api.kill();
  bare.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
