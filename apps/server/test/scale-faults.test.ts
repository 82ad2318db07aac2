import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCluster } from '../bench/load/cluster.ts';
import { FAULTS, formatReport, runLoad } from '../bench/load/harness.ts';
import { TEST_DB } from './harness.ts';

/**
 * The CI-sized `bench:load`: the same cluster and harness (nginx, two API and two worker processes,
 * a private PostgreSQL, Redis and s3rver on ports 18935–18947, so restarting them disturbs no other
 * test), a few users for a short while, every fault once, and the invariants asserted.
 */
describe.skipIf(TEST_DB !== 'postgres')('scale-out under load and faults (CI size)', () => {
  it('keeps every invariant through worker and API kills, Redis/PostgreSQL restarts, S3 down and a drain', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vw-scale-test-'));
    // Progress goes to the test output as it happens (a stuck fault shows where it stuck).
    const log = (line: string) => console.log(line);
    const cluster = await startCluster({ basePort: 18935, dir, log, env: { HOLD_LEASE_MS: '20000' } });
    try {
      const report = await runLoad(cluster, {
        users: 4,
        seconds: 60,
        faults: FAULTS,
        s3DownSeconds: 10,
        rampSeconds: 2,
        thinkMs: [300, 1500],
        log,
      });
      const text = formatReport(report, 4);
      // The figures go to the test output: timing is printed, never asserted.
      console.log(text);

      expect(report.faults.map((f) => f.fault)).toEqual([...FAULTS]);
      for (const fault of report.faults) {
        expect(fault.invariants.violations, fault.fault).toEqual([]);
        expect(fault.serviceRecoveryMs, `${fault.fault}: the cluster came back`).not.toBeNull();
        expect(fault.tasksSettledMs, `${fault.fault}: the tasks it caught settled`).not.toBeNull();
      }
      // None lost, stuck or done twice; credits settled; ledgers add up; uploads completed or resumable.
      expect(report.final.violations).toEqual([]);
      expect(report.final.tasks.open).toBe(0);
      expect(report.final.tasks.tracked).toBeGreaterThan(0);
      expect(report.final.tasks.succeeded).toBeGreaterThan(0);
      expect(report.final.holds.openPastOwner).toBe(0);
      // Clients saw successes, retries or clear errors: never a wrong answer.
      const wrong = Object.entries(report.kinds).filter(([, k]) => k.wrong > 0);
      expect(wrong).toEqual([]);
      for (const kind of ['sign in', 'voice changer task', 'long tts task', 'short tts', 'upload complete']) {
        expect(report.kinds[kind]?.ok ?? 0, `${kind} succeeded at least once`).toBeGreaterThan(0);
      }
    } finally {
      await cluster.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
