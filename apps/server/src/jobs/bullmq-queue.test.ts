import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_REDIS_URL, TestClock } from '../../test/harness.ts';
import { AppError } from '../errors.ts';
import { createLogger } from '../logger.ts';
import { createJobQueue, defineJob, INTERRUPTED_MESSAGE, type JobQueue, jobsByName } from './index.ts';
import {
  createJobTestDatabase,
  type JobTestDatabase,
  kill,
  readJob,
  spawnWorkerUntilStarted,
  waitForJob,
} from './test-fixtures/harness.ts';
import { hangJob, hangOnceJob } from './test-fixtures/jobs.ts';

const log = createLogger('silent');
const LEASE_MS = 1_000;

const double = defineJob({
  name: 'bull.double',
  payload: z.object({ n: z.number() }),
  handler: async ({ n }, job) => {
    await job.progress(40);
    return { doubled: n * 2, attempt: job.attempt };
  },
});

const failuresBeforeSuccess = new Map<string, number>();
const flaky = defineJob({
  name: 'bull.flaky',
  payload: z.object({}),
  maxAttempts: 3,
  backoffMs: 50,
  handler: async (_payload, job) => {
    const left = failuresBeforeSuccess.get(job.id) ?? 0;
    failuresBeforeSuccess.set(job.id, left - 1);
    if (left > 0) throw new Error('engine crashed');
    return { attempt: job.attempt };
  },
});

const doomed = defineJob({
  name: 'bull.doomed',
  payload: z.object({}),
  maxAttempts: 2,
  backoffMs: 20,
  handler: async () => {
    throw AppError.named('err_system', '音频解码失败');
  },
});

const runs = new Map<string, number>();
const stubborn = defineJob({
  name: 'bull.stubborn',
  payload: z.object({}),
  handler: async (_payload, job) => {
    runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
    // Its first run only ends when the worker shuts down.
    if (runs.get(job.id) === 1) {
      await new Promise((_, reject) =>
        job.signal.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    }
    return { attempt: job.attempt };
  },
});

let t: JobTestDatabase;
let prefix: string;
let queues: JobQueue[];

function queue(): JobQueue {
  const q = createJobQueue({
    db: t.db,
    clock: new TestClock(),
    log,
    jobs: jobsByName([double, flaky, doomed, stubborn, hangJob, hangOnceJob]),
    redisUrl: TEST_REDIS_URL,
    prefix,
    leaseMs: LEASE_MS,
  });
  queues.push(q);
  return q;
}

beforeEach(async () => {
  t = await createJobTestDatabase();
  // Each test its own keys, so parallel runs on one Redis never see each other's jobs.
  prefix = `vwtest-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  queues = [];
});

afterEach(async () => {
  for (const q of queues) await q.close({ timeoutMs: 1_000 });
  const redis = new Redis(TEST_REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  await t.close();
});

describe('BullMQ job queue', () => {
  it('runs a job to success, writing progress and result to the job row', async () => {
    const q = queue();
    expect(q.backend).toBe('bullmq');
    await q.startWorker({ concurrency: 2 });
    const job = await q.enqueue(double, { n: 21 }, { ownerId: 'usr_a' });
    const done = await waitForJob(t.db, job.id, (j) => j.status === 'succeeded');
    expect(JSON.parse(done.result!)).toEqual({ doubled: 42, attempt: 1 });
    expect(done).toMatchObject({ progress: 100, attempts: 1, error: null, locked_by: null });
    expect((await q.getJobForOwner(job.id, 'usr_a')).status).toBe('succeeded');
  });

  it('enqueues once per idempotency key', async () => {
    const q = queue();
    const a = await q.enqueue(double, { n: 1 }, { ownerId: 'usr_a', idempotencyKey: 'k1' });
    const b = await q.enqueue(double, { n: 1 }, { ownerId: 'usr_a', idempotencyKey: 'k1' });
    expect(b.id).toBe(a.id);
    await q.startWorker({ concurrency: 1 });
    await waitForJob(t.db, a.id, (j) => j.status === 'succeeded');
    expect((await readJob(t.db, a.id)).attempts).toBe(1);
  });

  it('retries with backoff until the job succeeds', async () => {
    const q = queue();
    await q.startWorker({ concurrency: 1 });
    const job = await q.enqueue(flaky, {});
    failuresBeforeSuccess.set(job.id, 2);
    const done = await waitForJob(t.db, job.id, (j) => j.status === 'succeeded');
    expect(JSON.parse(done.result!)).toEqual({ attempt: 3 });
    expect(done).toMatchObject({ attempts: 3, error: null });
  });

  it('fails a job for good after its last attempt', async () => {
    const q = queue();
    await q.startWorker({ concurrency: 1 });
    const job = await q.enqueue(doomed, {});
    const failed = await waitForJob(t.db, job.id, (j) => j.status === 'failed');
    expect(failed).toMatchObject({ attempts: 2, error: '音频解码失败', locked_by: null });
  });

  it('hands a running job back on shutdown, and another worker runs it without a spent attempt', async () => {
    const first = queue();
    await first.startWorker({ concurrency: 1 });
    const job = await first.enqueue(stubborn, {});
    await waitForJob(t.db, job.id, (j) => j.status === 'running');
    await first.close({ timeoutMs: 50 });
    expect(await readJob(t.db, job.id)).toMatchObject({ status: 'queued', attempts: 0 });

    await queue().startWorker({ concurrency: 1 });
    const done = await waitForJob(t.db, job.id, (j) => j.status === 'succeeded');
    expect(JSON.parse(done.result!)).toEqual({ attempt: 1 });
  });

  it('hands the jobs of a killed worker process to another worker after the stall interval', async () => {
    const resumable = await queue().enqueue(hangJob, { hangAttempts: 1 });
    const exhausted = await queue().enqueue(hangOnceJob, { hangAttempts: 1 });
    const childEnv = {
      JOB_TEST_DB: t.target,
      JOB_TEST_REDIS_URL: TEST_REDIS_URL,
      JOB_TEST_PREFIX: prefix,
      JOB_TEST_LEASE_MS: String(LEASE_MS),
    };
    await kill(await spawnWorkerUntilStarted(childEnv, [resumable.id, exhausted.id]));
    expect(await readJob(t.db, resumable.id)).toMatchObject({ status: 'running', attempts: 1 });

    await queue().startWorker({ concurrency: 1 });
    const done = await waitForJob(t.db, resumable.id, (j) => j.status === 'succeeded');
    expect(JSON.parse(done.result!)).toEqual({ resumedOnAttempt: 2 });
    // The other was on its only attempt: it fails cleanly instead of running again.
    const failed = await waitForJob(t.db, exhausted.id, (j) => j.status === 'failed');
    expect(failed).toMatchObject({ error: INTERRUPTED_MESSAGE, attempts: 2, locked_by: null });
  });
});
