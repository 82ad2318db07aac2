/**
 * bench:load — simulated users through nginx in front of two API and two worker processes on a
 * private PostgreSQL, Redis and s3rver (ports 18920–18932), for LOAD_SECONDS (default 600) with
 * LOAD_USERS (default 100) arriving over LOAD_RAMP_SECONDS (default 60), while faults hit the
 * cluster (LOAD_FAULTS: comma-separated, `none`, or all by default). Prints calls/s, p50/p99 per
 * kind, reads per minute, errors, queue waits, peak memory and CPU per process, and per fault the
 * recovery times and the invariant check. Exits 1 on a violation or a wrong answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startCluster } from './load/cluster.ts';
import { FAULTS, type FaultName, formatReport, runLoad } from './load/harness.ts';

const users = Number(process.env.LOAD_USERS ?? 100);
const seconds = Number(process.env.LOAD_SECONDS ?? 600);
const faultList = process.env.LOAD_FAULTS ?? FAULTS.join(',');
const faults = (faultList === 'none' ? [] : faultList.split(',')) as FaultName[];
for (const f of faults)
  if (!FAULTS.includes(f)) throw new Error(`unknown fault ${f}; known: ${FAULTS.join(', ')}`);
const dir = mkdtempSync(path.join(tmpdir(), 'vw-load-'));
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

const cluster = await startCluster({
  basePort: Number(process.env.LOAD_PORT ?? 18920),
  dir,
  log,
  // Stream holds of a killed API process are swept sooner than the 60 s default, so the run settles.
  env: { HOLD_LEASE_MS: '20000', LOG_LEVEL: 'warn' },
});
let code = 0;
try {
  log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (2 cores, shared)`,
  );
  const report = await runLoad(cluster, {
    users,
    seconds,
    faults,
    s3DownSeconds: Number(process.env.LOAD_S3_DOWN_SECONDS ?? 30),
    rampSeconds: Number(process.env.LOAD_RAMP_SECONDS ?? 60),
    thinkMs: [Number(process.env.LOAD_THINK_MIN_MS ?? 500), Number(process.env.LOAD_THINK_MAX_MS ?? 3000)],
    log,
  });
  console.log(`\n${formatReport(report, users)}`);
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const wrong = Object.values(report.kinds).reduce((s, k) => s + k.wrong, 0);
  const violations =
    report.final.violations.length + report.faults.reduce((s, f) => s + f.invariants.violations.length, 0);
  if (wrong > 0 || violations > 0) code = 1;
} finally {
  await cluster.close();
  if (code === 0) rmSync(dir, { recursive: true, force: true });
  else console.log(`logs kept in ${dir}/logs`);
}
process.exit(code);
