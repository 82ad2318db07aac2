/**
 * bench:api — authenticated get_user_info on the embedded default (SQLite, local files) over
 * loopback at 64 connections, next to a bare Fastify route measured in the same run.
 * Targets (issue 2): at least half the bare route's requests/s, p99 under 20 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { demoHeaders, measureRoute, startProcess, waitFor } from './support.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-bench-'));
const apiPort = 18901;
const barePort = 18902;
const api = startProcess('apps/server/src/main.ts', {
  NODE_ENV: 'development',
  PORT: String(apiPort),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  ENGINES: 'none',
});
const bare = startProcess('apps/server/bench/bare-server.ts', { PORT: String(barePort) });

try {
  await waitFor(`http://127.0.0.1:${apiPort}/openapi.json`);
  await waitFor(`http://127.0.0.1:${barePort}/bare`, { method: 'POST' });
  const headers = await demoHeaders(`http://127.0.0.1:${apiPort}`);

  const bareRow = await measureRoute(
    'bare Fastify route',
    `http://127.0.0.1:${barePort}/bare`,
    {},
    bare,
    DURATION,
  );
  const apiRow = await measureRoute(
    'get_user_info (authenticated, SQLite)',
    `http://127.0.0.1:${apiPort}/v1/user/get_user_info`,
    headers,
    api,
    DURATION,
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
