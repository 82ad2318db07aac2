import { type Job as BullJob, DelayedError, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Job } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { backoffDelay, JOB_LANES, type JobLane } from './define.ts';
import {
  abandonJob,
  assertJobsDefined,
  executeJob,
  finishJob,
  getJobForOwner,
  INTERRUPTED_MESSAGE,
  insertJob,
  type JobQueue,
  type JobQueueDeps,
  releaseJob,
} from './queue.ts';

export const BULLMQ_QUEUE_NAME = 'vw-jobs';
/** One BullMQ queue (and worker) per lane, so each lane has its own concurrency. */
const queueName = (lane: JobLane) => (lane === 'light' ? BULLMQ_QUEUE_NAME : `${BULLMQ_QUEUE_NAME}-${lane}`);
/** After the shutdown timeout, how long aborted handlers get to return before the worker is forced down. */
const ABORT_GRACE_MS = 2_000;

/**
 * Marks the job's row as running under `lease` and counts the attempt. BullMQ's lock says this
 * worker holds the job; finished rows (a duplicate delivery) are skipped: undefined.
 */
function startRun({ db, clock }: JobQueueDeps, id: string, lease: string): Promise<Job | undefined> {
  const now = clock.now();
  return db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      attempts: eb('attempts', '+', 1),
      locked_by: lease,
      locked_until: null,
      updated_at: now,
    }))
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returningAll()
    .executeTakeFirst();
}

/** A job BullMQ failed without our processor finishing it: it stalled too often (killed workers). */
async function failOpenJob(deps: JobQueueDeps, id: string): Promise<void> {
  const now = deps.clock.now();
  const row = await deps.db
    .updateTable('jobs')
    .set({
      status: 'failed',
      error: INTERRUPTED_MESSAGE,
      locked_by: null,
      locked_until: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returning(['id', 'name', 'payload'])
    .executeTakeFirst();
  if (row) await abandonJob(deps, row);
}

/**
 * The scale-out backend: BullMQ on Redis schedules, retries and detects stalled (killed) workers;
 * the jobs table stays the record owners read. Redis holds only the job id.
 */
export function createBullJobQueue(deps: JobQueueDeps & { redisUrl: string; prefix: string }): JobQueue {
  const { db, clock, log, leaseMs, redisUrl, prefix } = deps;
  // Connection options, not shared instances: each queue and worker owns its connections and closes
  // them in its own close(), after its last command (quitting a shared connection under BullMQ cut
  // off commands it still had in flight: "Connection is closed"). BullMQ requires connections that
  // retry commands forever instead of failing them.
  const connection = { url: redisUrl, maxRetriesPerRequest: null };
  const queues = Object.fromEntries(
    JOB_LANES.map((lane) => {
      const queue = new Queue(queueName(lane), { connection, prefix });
      queue.on('error', (err) => log.debug({ err }, 'job queue connection error'));
      return [lane, queue];
    }),
  ) as Record<JobLane, Queue>;
  const workerId = newId('wrk');
  const runs = new Map<string, AbortController>();
  const workers: Worker[] = [];
  let closed: Promise<void> | null = null;

  async function processJob(bullJob: BullJob, token?: string): Promise<void> {
    const id = bullJob.id!;
    const lease = `${workerId}:${token}`;
    const row = await startRun(deps, id, lease);
    if (!row) return;
    if (row.attempts > row.max_attempts) {
      // Its last allowed run was cut short by a dead worker.
      await finishJob(deps, id, lease, { ok: false, message: INTERRUPTED_MESSAGE, permanent: true }, null);
      await abandonJob(deps, row);
      throw new UnrecoverableError(INTERRUPTED_MESSAGE);
    }
    const controller = new AbortController();
    runs.set(id, controller);
    try {
      const outcome = await executeJob(deps, row, lease, controller.signal);
      if (outcome.ok) return await finishJob(deps, id, lease, outcome, null);
      if (controller.signal.aborted) {
        // Shutting down: hand the job back without spending an attempt.
        await releaseJob(deps, id, lease);
        await bullJob.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      // The row counts every start, stalled ones included (BullMQ does not): it decides, as in the
      // embedded backend, and an UnrecoverableError stops BullMQ retrying beyond it.
      const def = deps.jobs.get(row.name);
      const final = outcome.permanent || !def || row.attempts >= row.max_attempts;
      await finishJob(deps, id, lease, outcome, final ? null : clock.now() + backoffDelay(def, row.attempts));
      throw final ? new UnrecoverableError(outcome.message) : new Error(outcome.message);
    } finally {
      runs.delete(id);
    }
  }

  async function shutDown(timeoutMs: number): Promise<void> {
    if (workers.length > 0) {
      const closing = Promise.all(workers.map((w) => w.close()));
      let timer: NodeJS.Timeout | undefined;
      const wait = (ms: number) =>
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), ms);
        });
      if ((await Promise.race([closing, wait(timeoutMs)])) === 'timeout') {
        for (const controller of runs.values()) controller.abort();
        if ((await Promise.race([closing, wait(ABORT_GRACE_MS)])) === 'timeout') {
          await Promise.all(workers.map((w) => w.close(true)));
        }
      }
      clearTimeout(timer);
    }
    for (const q of Object.values(queues)) await q.close();
  }

  return {
    backend: 'bullmq',
    async enqueue(def, payload, options = {}) {
      const job = await insertJob(deps, def, payload, options);
      // Also on a repeated idempotent enqueue: BullMQ ignores a job id it already holds, and a
      // missing one (its earlier add failed) gets added now.
      if (job.status === 'queued') {
        await queues[def.lane].add(
          def.name,
          {},
          {
            jobId: job.id,
            delay: Math.max(0, job.run_at - clock.now()),
            attempts: job.max_attempts,
            backoff: { type: 'exponential', delay: def.backoffMs },
            removeOnComplete: true,
            removeOnFail: true,
          },
        );
      }
      return job;
    },
    getJobForOwner: (id, ownerId) => getJobForOwner(db, id, ownerId),
    async startWorker({ concurrency, heavyConcurrency = 1 }) {
      if (workers.length > 0) throw new Error('The job worker is already running');
      await assertJobsDefined(deps);
      const limits: Record<JobLane, number> = { light: concurrency, heavy: heavyConcurrency };
      for (const lane of JOB_LANES) {
        const worker = new Worker(queueName(lane), processJob, {
          connection,
          prefix,
          concurrency: limits[lane],
          lockDuration: leaseMs,
          stalledInterval: leaseMs,
          maxStalledCount: 1,
        });
        worker.on('failed', (bullJob) => {
          if (bullJob?.finishedOn && bullJob.deferredFailure) {
            failOpenJob(deps, bullJob.id!).catch((err) =>
              log.error({ err, jobId: bullJob.id }, 'job bookkeeping failed'),
            );
          }
        });
        worker.on('error', (err) => log.error({ err }, 'job worker error'));
        workers.push(worker);
      }
      await Promise.all(workers.map((w) => w.waitUntilReady()));
    },
    close({ timeoutMs = 10_000 } = {}) {
      closed ??= shutDown(timeoutMs);
      return closed;
    },
  };
}
