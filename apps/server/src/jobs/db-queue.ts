import { PostgresAdapter } from 'kysely';
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

interface Run {
  lane: JobLane;
  lease: string;
  controller: AbortController;
  done: Promise<void>;
}

/** Claims the lane's next due job for `lease`, if there is one. */
async function claimJob(
  { db, clock, leaseMs, jobs }: JobQueueDeps,
  lane: JobLane,
  lease: string,
): Promise<Job | undefined> {
  // The lane is the definition's: each lane claims only the names that run in it.
  const names = [...jobs.values()].filter((def) => def.lane === lane).map((def) => def.name);
  if (names.length === 0) return undefined;
  const now = clock.now();
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const next = db
    .selectFrom('jobs')
    .select('id')
    .where('status', '=', 'queued')
    .where('run_at', '<=', now)
    .where('name', 'in', names)
    .orderBy('run_at')
    .limit(1)
    // PostgreSQL: workers skip rows another worker is claiming instead of queueing behind it.
    .$if(isPostgres, (q) => q.forUpdate().skipLocked());
  return (
    db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        attempts: eb('attempts', '+', 1),
        locked_by: lease,
        locked_until: now + leaseMs,
        updated_at: now,
      }))
      .where('id', '=', next)
      // The compare-and-set: of several workers that picked the same row, only one updates it.
      .where('status', '=', 'queued')
      .returningAll()
      .executeTakeFirst()
  );
}

/** Jobs whose worker stopped renewing its lease: retried if attempts remain, otherwise failed. */
async function reclaimExpired(deps: JobQueueDeps): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  const expired = db.updateTable('jobs').where('status', '=', 'running').where('locked_until', '<', now);
  const unlocked = { locked_by: null, locked_until: null, updated_at: now };
  const abandoned = await expired
    .set({ ...unlocked, status: 'failed', error: INTERRUPTED_MESSAGE })
    .whereRef('attempts', '>=', 'max_attempts')
    .returning(['id', 'name', 'payload'])
    .execute();
  for (const row of abandoned) await abandonJob(deps, row);
  await expired
    .set({ ...unlocked, status: 'queued', run_at: now })
    .whereRef('attempts', '<', 'max_attempts')
    .execute();
}

/** Extends a running job's lease; false once the lease is no longer this run's. */
async function renewLease({ db, clock, leaseMs }: JobQueueDeps, id: string, lease: string): Promise<boolean> {
  const now = clock.now();
  const res = await db
    .updateTable('jobs')
    .set({ locked_until: now + leaseMs, updated_at: now })
    .where('id', '=', id)
    .where('locked_by', '=', lease)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * The embedded backend: the jobs table is the queue. Workers in any number of processes poll it and
 * claim a job with a conditional update, hold it under a lease they renew while the handler runs,
 * and take over jobs whose lease ran out because their worker died.
 */
export function createDbJobQueue(deps: JobQueueDeps & { pollIntervalMs: number }): JobQueue {
  const { db, clock, log, leaseMs, pollIntervalMs } = deps;
  const workerId = newId('wrk');
  const runs = new Map<string, Run>();
  let leaseSeq = 0;
  const concurrency: Record<JobLane, number> = { light: 0, heavy: 0 };
  const running = (lane: JobLane) => [...runs.values()].filter((r) => r.lane === lane).length;
  let accepting = false;
  let loop: Promise<void> | null = null;
  // A wake-up that arrives while the loop is busy claiming must not wait out the next sleep.
  let woken = false;
  let interruptSleep: (() => void) | null = null;
  const wake = () => {
    woken = true;
    interruptSleep?.();
  };

  async function run(row: Job, lease: string, controller: AbortController): Promise<void> {
    const heartbeat = setInterval(() => {
      renewLease(deps, row.id, lease).then(
        (held) => {
          // Another worker took the job over: stop working on it.
          if (!held) controller.abort();
        },
        (err) => log.error({ err, jobId: row.id }, 'job lease renewal failed'),
      );
    }, leaseMs / 3);
    try {
      const outcome = await executeJob(deps, row, lease, controller.signal);
      // A failure after an abort is the abort's doing: the job was handed over, not failed.
      if (!outcome.ok && controller.signal.aborted) return;
      const def = deps.jobs.get(row.name);
      const retry = !outcome.ok && !outcome.permanent && def && row.attempts < row.max_attempts;
      await finishJob(
        deps,
        row.id,
        lease,
        outcome,
        retry ? clock.now() + backoffDelay(def, row.attempts) : null,
      );
    } finally {
      clearInterval(heartbeat);
    }
  }

  function start(lane: JobLane, row: Job, lease: string): void {
    const controller = new AbortController();
    const done = run(row, lease, controller)
      .catch((err) => log.error({ err, jobId: row.id }, 'job bookkeeping failed'))
      .finally(() => {
        runs.delete(row.id);
        wake();
      });
    runs.set(row.id, { lane, lease, controller, done });
  }

  async function poll(): Promise<void> {
    while (accepting) {
      woken = false;
      try {
        await reclaimExpired(deps);
        for (const lane of JOB_LANES) {
          while (accepting && running(lane) < concurrency[lane]) {
            const lease = `${workerId}:${++leaseSeq}`;
            const row = await claimJob(deps, lane, lease);
            if (!row) break;
            start(lane, row, lease);
          }
        }
      } catch (err) {
        log.error({ err }, 'job polling failed');
      }
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        interruptSleep = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      interruptSleep = null;
    }
  }

  return {
    backend: 'database',
    async enqueue(def, payload, options = {}) {
      const job = await insertJob(deps, def, payload, options);
      wake();
      return job;
    },
    getJobForOwner: (id, ownerId) => getJobForOwner(db, id, ownerId),
    async startWorker(options) {
      if (loop) throw new Error('The job worker is already running');
      await assertJobsDefined(deps);
      concurrency.light = options.concurrency;
      concurrency.heavy = options.heavyConcurrency ?? 1;
      accepting = true;
      loop = poll();
    },
    async close({ timeoutMs = 10_000 } = {}) {
      accepting = false;
      wake();
      await loop;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...runs.values()].map((r) => r.done)),
        new Promise((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      for (const [id, r] of runs) {
        r.controller.abort();
        await releaseJob(deps, id, r.lease);
      }
    },
  };
}
