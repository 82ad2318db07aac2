import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_REDIS_URL } from '../../test/harness.ts';
import { systemClock } from '../clock.ts';
import { newId } from '../ids.ts';
import { createLogger } from '../logger.ts';
import { createJobQueue, defineJob, type JobQueue, jobsByName } from './index.ts';
import { createJobTestDatabase, type JobTestDatabase, waitForJob } from './test-fixtures/harness.ts';

const log = createLogger('silent');

/** Jobs of each lane running right now, and the most seen at once. */
const running = { heavy: 0, light: 0 };
const peak = { heavy: 0, light: 0 };
let gate: { promise: Promise<void>; open: () => void };
function newGate() {
  let open = () => {};
  const promise = new Promise<void>((r) => {
    open = r;
  });
  return { promise, open };
}

function laneJob(lane: 'heavy' | 'light') {
  return defineJob({
    name: `lanes.${lane}`,
    lane,
    payload: z.object({}),
    handler: async () => {
      running[lane]++;
      peak[lane] = Math.max(peak[lane], running[lane]);
      try {
        // Heavy jobs hold their slot until the test opens the gate; light ones finish at once.
        if (lane === 'heavy') await gate.promise;
        else await new Promise((r) => setTimeout(r, 20));
      } finally {
        running[lane]--;
      }
      return null;
    },
  });
}
const heavy = laneJob('heavy');
const light = laneJob('light');

async function waitForCondition(check: () => Promise<boolean>) {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

let t: JobTestDatabase;
let queues: JobQueue[];
let prefix: string;

beforeEach(async () => {
  t = await createJobTestDatabase();
  queues = [];
  prefix = `vwlanes-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  running.heavy = running.light = peak.heavy = peak.light = 0;
  gate = newGate();
});

afterEach(async () => {
  gate.open();
  for (const q of queues) await q.close({ timeoutMs: 1_000 });
  const redis = new Redis(TEST_REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  await t.close();
});

describe.each(['database', 'bullmq'] as const)('job lanes (%s backend)', (backend) => {
  const queue = () => {
    const q = createJobQueue({
      db: t.db,
      clock: systemClock,
      log,
      jobs: jobsByName([heavy, light]),
      leaseMs: 2_000,
      pollIntervalMs: 20,
      redisUrl: backend === 'bullmq' ? TEST_REDIS_URL : undefined,
      prefix,
    });
    queues.push(q);
    return q;
  };

  it('runs each lane with its own concurrency: light work passes heavy work that fills its lane', async () => {
    const q = queue();
    await q.startWorker({ concurrency: 3, heavyConcurrency: 1 });
    const heavies = await Promise.all([1, 2, 3].map(() => q.enqueue(heavy, {})));
    // Jobs enqueued at the same moment run in any order: wait for the lane to be taken by one.
    await waitForCondition(async () => {
      const rows = await Promise.all(heavies.map((h) => waitForJob(t.db, h.id, () => true)));
      return rows.some((r) => r.status === 'running');
    });
    const lights = await Promise.all([1, 2, 3, 4].map(() => q.enqueue(light, {})));
    // All light jobs finish while the heavy lane is still held by its first job.
    for (const j of lights) await waitForJob(t.db, j.id, (r) => r.status === 'succeeded');
    const states = await Promise.all(heavies.map((h) => waitForJob(t.db, h.id, () => true)));
    expect(states.filter((s) => s.status === 'running')).toHaveLength(1);
    expect(states.filter((s) => s.status === 'queued')).toHaveLength(2);
    gate.open();
    for (const h of heavies) await waitForJob(t.db, h.id, (r) => r.status === 'succeeded');
    expect(peak.heavy).toBe(1);
    expect(peak.light).toBeGreaterThan(1);
    expect(peak.light).toBeLessThanOrEqual(3);
  });

  it('refuses to start a worker while a queued job has no definition', async () => {
    const now = Date.now();
    await t.db
      .insertInto('jobs')
      .values({
        id: newId('job'),
        name: 'nobody.defines.this',
        owner_id: null,
        idempotency_key: null,
        payload: '{}',
        status: 'queued',
        progress: 0,
        result: null,
        error: null,
        attempts: 0,
        max_attempts: 3,
        run_at: now,
        locked_by: null,
        locked_until: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await expect(queue().startWorker({ concurrency: 1 })).rejects.toThrow(/nobody\.defines\.this/);
  });
});
