import type { KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestClock } from '../../test/harness.ts';
import type { Db } from '../db/database.ts';
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

/** Holds `test.double` mid-handler until a test opens it. */
let gate: { promise: Promise<void>; resolve: () => void };
function newGate() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
const double = defineJob({
  name: 'test.double',
  payload: z.object({ n: z.number() }),
  handler: async ({ n }, job) => {
    await job.progress(40);
    await gate.promise;
    return { doubled: n * 2, ownerId: job.ownerId, attempt: job.attempt };
  },
});

const failuresBeforeSuccess = new Map<string, number>();
const flaky = defineJob({
  name: 'test.flaky',
  payload: z.object({}),
  maxAttempts: 3,
  backoffMs: 1_000,
  handler: async (_payload, job) => {
    const left = failuresBeforeSuccess.get(job.id) ?? 0;
    failuresBeforeSuccess.set(job.id, left - 1);
    if (left > 0) throw new Error('engine crashed');
    return { attempt: job.attempt };
  },
});

const doomed = defineJob({
  name: 'test.doomed',
  payload: z.object({}),
  maxAttempts: 2,
  backoffMs: 10,
  handler: async () => {
    throw AppError.named('err_system', '音频解码失败');
  },
});

const executions = new Map<string, number>();
const counted = defineJob({
  name: 'test.counted',
  payload: z.object({ i: z.number() }),
  handler: async (_payload, job) => {
    executions.set(job.id, (executions.get(job.id) ?? 0) + 1);
    await new Promise((r) => setTimeout(r, Math.random() * 5));
    return null;
  },
});

let t: JobTestDatabase;
let clock: TestClock;
let queues: JobQueue[];

function queue(db: Db = t.db, c: TestClock = clock): JobQueue {
  const jobs = jobsByName([double, flaky, doomed, counted, hangJob, hangOnceJob]);
  const q = createJobQueue({ db, clock: c, log, jobs, leaseMs: LEASE_MS, pollIntervalMs: 20 });
  queues.push(q);
  return q;
}

/**
 * A queue whose statements are counted, so a test that expects the worker to leave a job alone can
 * wait for the worker to have looked (a whole poll pass begun after the call) instead of sleeping.
 * Only for moments when no job runs: then every statement is the poll's (two reclaim updates and
 * one claim per pass), and 2 × 3 statements after the call contain one whole pass begun after it.
 */
function watchedQueue(c: TestClock = clock): { q: JobQueue; pollPass: () => Promise<void> } {
  let finished = 0;
  const counter: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      finished++;
      return args.result;
    },
  };
  const q = queue(t.db.withPlugin(counter), c);
  const pollPass = async () => {
    const from = finished;
    for (let i = 0; finished < from + 6; i++) {
      if (i > 500) throw new Error('the worker did not poll');
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { q, pollPass };
}

beforeEach(async () => {
  t = await createJobTestDatabase();
  clock = new TestClock();
  queues = [];
  gate = newGate();
});

afterEach(async () => {
  gate.resolve();
  for (const q of queues) await q.close({ timeoutMs: 1_000 });
  await t.close();
});

describe('database job queue', () => {
  it('runs a job to success with its result, and shows progress to its owner while it runs', async () => {
    const q = queue();
    await q.startWorker({ concurrency: 2 });
    const job = await q.enqueue(double, { n: 21 }, { ownerId: 'usr_a' });
    expect(job).toMatchObject({ status: 'queued', owner_id: 'usr_a', attempts: 0, progress: 0 });

    const running = await waitForJob(t.db, job.id, (j) => j.progress === 40);
    expect(running.status).toBe('running');
    expect((await q.getJobForOwner(job.id, 'usr_a')).progress).toBe(40);

    gate.resolve();
    const done = await waitForJob(t.db, job.id, (j) => j.status === 'succeeded');
    expect(JSON.parse(done.result!)).toEqual({ doubled: 42, ownerId: 'usr_a', attempt: 1 });
    expect(done).toMatchObject({
      progress: 100,
      attempts: 1,
      error: null,
      locked_by: null,
      locked_until: null,
    });
  });

  it('rejects a payload its schema refuses', async () => {
    const err = await queue()
      .enqueue(double, { n: 'x' } as never)
      .catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.detailType).toBe('err_invalid_param');
  });

  it('runs a delayed job only once its time has come', async () => {
    const { q, pollPass } = watchedQueue();
    await q.startWorker({ concurrency: 1 });
    gate.resolve();
    const job = await q.enqueue(double, { n: 1 }, { delayMs: 5_000 });
    await pollPass();
    expect((await readJob(t.db, job.id)).status).toBe('queued');
    clock.advance(5_000);
    await waitForJob(t.db, job.id, (j) => j.status === 'succeeded');
  });

  it('retries a failing job with exponential backoff until it succeeds', async () => {
    const { q, pollPass } = watchedQueue();
    await q.startWorker({ concurrency: 1 });
    const job = await q.enqueue(flaky, {});
    failuresBeforeSuccess.set(job.id, 2);

    const first = await waitForJob(t.db, job.id, (j) => j.attempts === 1 && j.status === 'queued');
    expect(first.run_at).toBe(clock.now() + 1_000);
    expect(first.error).toBe('系统错误，请稍后再试');
    clock.advance(999);
    await pollPass();
    expect((await readJob(t.db, job.id)).attempts).toBe(1);

    clock.advance(1);
    const second = await waitForJob(t.db, job.id, (j) => j.attempts === 2 && j.status === 'queued');
    expect(second.run_at).toBe(clock.now() + 2_000);

    clock.advance(2_000);
    const done = await waitForJob(t.db, job.id, (j) => j.status === 'succeeded');
    expect(JSON.parse(done.result!)).toEqual({ attempt: 3 });
    expect(done.error).toBeNull();
  });

  it('fails a job for good after its last attempt, keeping the error for its owner', async () => {
    const { q, pollPass } = watchedQueue();
    await q.startWorker({ concurrency: 1 });
    const job = await q.enqueue(doomed, {}, { ownerId: 'usr_a' });
    await waitForJob(t.db, job.id, (j) => j.attempts === 1 && j.status === 'queued');
    clock.advance(10);
    const failed = await waitForJob(t.db, job.id, (j) => j.status === 'failed');
    expect(failed).toMatchObject({ attempts: 2, error: '音频解码失败', locked_by: null });
    clock.advance(60_000); // long past any backoff
    await pollPass();
    expect((await readJob(t.db, job.id)).attempts).toBe(2);
  });

  it('returns the existing job for a repeated idempotency key', async () => {
    const q = queue();
    const a = await q.enqueue(double, { n: 1 }, { ownerId: 'usr_a', idempotencyKey: 'export:usr_a:1' });
    const b = await q.enqueue(double, { n: 1 }, { ownerId: 'usr_a', idempotencyKey: 'export:usr_a:1' });
    const [c, d] = await Promise.all([
      q.enqueue(double, { n: 2 }, { ownerId: 'usr_a', idempotencyKey: 'export:usr_a:2' }),
      q.enqueue(double, { n: 2 }, { ownerId: 'usr_a', idempotencyKey: 'export:usr_a:2' }),
    ]);
    expect(b.id).toBe(a.id);
    expect(d.id).toBe(c.id);
    const { count } = await t.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(2);
    // Someone else's key never hands out their job.
    const err = await q
      .enqueue(double, { n: 1 }, { ownerId: 'usr_b', idempotencyKey: 'export:usr_a:1' })
      .catch((e) => e);
    expect(err.detailType).toBe('err_invalid_param');
  });

  it('shows a job only to its owner', async () => {
    const q = queue();
    const job = await q.enqueue(double, { n: 1 }, { ownerId: 'usr_a' });
    expect((await q.getJobForOwner(job.id, 'usr_a')).id).toBe(job.id);
    for (const [id, owner] of [
      [job.id, 'usr_b'],
      ['job_missing', 'usr_a'],
    ]) {
      const err = await q.getJobForOwner(id, owner).catch((e) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err.detailType).toBe('err_not_found');
    }
  });

  it('never runs a job twice when two workers on separate connections compete', async () => {
    const producer = queue();
    const ids = await Promise.all(Array.from({ length: 60 }, (_, i) => producer.enqueue(counted, { i })));
    await Promise.all([queue(t.open()), queue(t.open())].map((w) => w.startWorker({ concurrency: 4 })));
    for (const { id } of ids) await waitForJob(t.db, id, (j) => j.status === 'succeeded');
    expect(ids.map(({ id }) => executions.get(id))).toEqual(ids.map(() => 1));
    const attempts = await t.db.selectFrom('jobs').select('attempts').distinct().execute();
    expect(attempts).toEqual([{ attempts: 1 }]);
  });

  it('hands running jobs back on shutdown without spending an attempt', async () => {
    const q = queue();
    await q.startWorker({ concurrency: 1 });
    const job = await q.enqueue(double, { n: 1 });
    await waitForJob(t.db, job.id, (j) => j.status === 'running');
    await q.close({ timeoutMs: 50 });
    expect(await readJob(t.db, job.id)).toMatchObject({ status: 'queued', attempts: 0, locked_by: null });
  });

  it('takes over the jobs of a killed worker once its lease runs out: resumed, or failed on its last attempt', async () => {
    const resumable = await queue().enqueue(hangJob, { hangAttempts: 1 });
    const exhausted = await queue().enqueue(hangOnceJob, { hangAttempts: 1 });
    // The dead worker's lease; the new worker's clock is moved past it.
    const childLeaseMs = 10_000;
    const child = await spawnWorkerUntilStarted(
      { JOB_TEST_DB: t.target, JOB_TEST_LEASE_MS: String(childLeaseMs) },
      [resumable.id, exhausted.id],
    );
    await kill(child);
    expect(await readJob(t.db, resumable.id)).toMatchObject({ status: 'running', attempts: 1 });

    // Still leased: a new worker leaves the jobs alone.
    const later = new TestClock(Date.now());
    const { q, pollPass } = watchedQueue(later);
    await q.startWorker({ concurrency: 1 });
    await pollPass();
    expect((await readJob(t.db, resumable.id)).status).toBe('running');

    later.advance(childLeaseMs + 1);
    const done = await waitForJob(t.db, resumable.id, (j) => j.status === 'succeeded');
    expect(JSON.parse(done.result!)).toEqual({ resumedOnAttempt: 2 });
    const failed = await waitForJob(t.db, exhausted.id, (j) => j.status === 'failed');
    expect(failed).toMatchObject({
      error: INTERRUPTED_MESSAGE,
      attempts: 1,
      locked_by: null,
      locked_until: null,
    });
  });
});
