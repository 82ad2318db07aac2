/**
 * bench:public-api — cached text to speech at 64 connections, through the workbench API (access
 * token, POST /v1/tts/generate) and through the public API (API key, POST /api/v1/tts: key look-up,
 * per-key and per-account rate windows, a concurrency slot, usage metering), against one server
 * process on the embedded default (SQLite, local files, espeak-ng). Runs alternate to even out noise.
 * Target (issue 8): the public call keeps at least 90 % of the workbench call's throughput.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { createLogger } from '../src/logger.ts';
import { authenticateApiKey } from '../src/modules/apikeys/apikeys.service.ts';
import { createMemoryLimiter } from '../src/modules/apikeys/limits.ts';
import { UsageMeter } from '../src/modules/apikeys/metering.ts';
import { demoHeaders, startProcess, waitFor } from './support.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECTIONS = 64;
const PORT = Number(process.env.BENCH_PORT ?? 18811);
const base = `http://127.0.0.1:${PORT}`;
const TEXT = '今天上午九点，我们在公司会议室讨论新产品的发布计划。';

function startServer(dataDir: string): ChildProcess {
  return startProcess('apps/server/src/main.ts', {
    NODE_ENV: 'development',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Room for the load itself: the limits are still checked on every request, just not reached.
    PUBLIC_API_KEY_RPM: '100000000',
    PUBLIC_API_ACCOUNT_RPM: '100000000',
    PUBLIC_API_CONCURRENCY: String(CONNECTIONS * 2),
  });
}

async function measure(url: string, headers: Record<string, string>, body: string, seconds: number) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers,
    body,
    connections: CONNECTIONS,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-bench-public-'));
const server = startServer(dataDir);
try {
  await waitFor(`${base}/openapi.json`);
  const workbenchHeaders = await demoHeaders(base);
  const created = await fetch(`${base}/v1/api_keys/create`, {
    method: 'POST',
    headers: workbenchHeaders,
    body: JSON.stringify({ name: 'bench' }),
  }).then((r) => r.json());
  if (created.code !== 0) throw new Error(JSON.stringify(created));
  const publicHeaders = {
    'content-type': 'application/json',
    'x-api-key': created.data.secret_key as string,
  };
  const body = JSON.stringify({ text: TEXT, voice_id: 'espeak-zh-xiaowen', speed: 1 });

  // Synthesise once (the one charged call), then both routes answer from the cache.
  const first = await fetch(`${base}/api/v1/tts`, { method: 'POST', headers: publicHeaders, body });
  if (first.headers.get('content-type') !== 'audio/mpeg') throw new Error(await first.text());
  await first.arrayBuffer();
  for (const [url, headers] of [
    [`${base}/v1/tts/generate`, workbenchHeaders],
    [`${base}/api/v1/tts`, publicHeaders],
  ] as const) {
    const res = await fetch(url, { method: 'POST', headers, body });
    if (res.headers.get('x-cache-hit') !== '1') throw new Error(`${url}: expected a cache hit`);
    await res.arrayBuffer();
  }

  // Warm-up of both routes (JIT), then alternating measured runs.
  await measure(`${base}/v1/tts/generate`, workbenchHeaders, body, 3);
  await measure(`${base}/api/v1/tts`, publicHeaders, body, 3);
  const runs: Record<'workbench' | 'public', Array<Awaited<ReturnType<typeof measure>>>> = {
    workbench: [],
    public: [],
  };
  for (let i = 0; i < ROUNDS; i++) {
    runs.workbench.push(await measure(`${base}/v1/tts/generate`, workbenchHeaders, body, DURATION));
    runs.public.push(await measure(`${base}/api/v1/tts`, publicHeaders, body, DURATION));
  }
  const summary = (name: string, rs: typeof runs.workbench) => ({
    target: name,
    'requests/s': Math.round(rs.reduce((s, r) => s + r.rps, 0) / rs.length),
    'p50 ms': Math.max(...rs.map((r) => r.p50)),
    'p99 ms': Math.max(...rs.map((r) => r.p99)),
    errors: rs.reduce((s, r) => s + r.errors, 0),
  });
  const w = summary('workbench POST /v1/tts/generate (access token)', runs.workbench);
  const p = summary('public POST /api/v1/tts (API key, limits, metering)', runs.public);
  console.log(`cached TTS, ${CONNECTIONS} connections, ${ROUNDS} × ${DURATION} s per route`);
  console.table([w, p]);
  const ratio = p['requests/s'] / w['requests/s'];
  // Each round's pair ran back to back, so its ratio is the least disturbed by other load on the machine.
  const pairs = runs.public.map((r, i) => r.rps / runs.workbench[i].rps).sort((a, b) => a - b);
  const median = pairs[Math.floor(pairs.length / 2)];
  console.log(`per-round public / workbench: ${pairs.map((x) => `${(x * 100).toFixed(1)}%`).join(', ')}`);
  console.log(
    `public / workbench = ${(ratio * 100).toFixed(1)}% of the throughput (median of rounds ${(median * 100).toFixed(1)}%; target ≥ 90%: key authentication and metering cost ≤ 10%)`,
  );
  // The metered requests reach the usage counters (written once a second).
  await new Promise((r) => setTimeout(r, 1500));
  const usage = await fetch(`${base}/v1/api_keys/list`, { headers: workbenchHeaders }).then((r) => r.json());
  console.log(`requests metered on the key: ${usage.data.keys[0].requests}`);

  // The same per-request work measured alone (no HTTP): key look-up on the server's SQLite file, both
  // rate windows, a concurrency slot, the usage count. Less disturbed by other load than the runs above.
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  const database = openDatabase(config.database);
  const ctx = { db: database.db, clock: systemClock, log: createLogger('warn') };
  const limiter = createMemoryLimiter();
  const meter = new UsageMeter(ctx, 3_600_000);
  const key = publicHeaders['x-api-key'];
  const N = 20_000;
  const pipeline = async () => {
    const k = await authenticateApiKey(ctx as never, key);
    await limiter.hit(`key:${k.id}`, 1e9, 60_000);
    await limiter.hit(`acct:${k.userId}`, 1e9, 60_000);
    await limiter.acquire(`acct:${k.userId}`, 1e9);
    await limiter.release(`acct:${k.userId}`);
    meter.record(k.id, k.userId, 26);
  };
  for (let i = 0; i < 2000; i++) await pipeline();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await pipeline();
  const us = ((performance.now() - t0) * 1000) / N;
  await database.close();
  const share = (us * w['requests/s']) / 1e6;
  console.log(
    `key authentication + limits + metering alone: ${us.toFixed(1)} µs per request; at the workbench's ${w['requests/s']} requests/s that is ${(share * 100).toFixed(1)}% of one event loop, i.e. an expected ≈ ${(100 / (1 + share)).toFixed(1)}% of its throughput`,
  );
} finally {
  server.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
