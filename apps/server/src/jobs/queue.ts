import { namedErrorMessages } from '@vw/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/database.ts';
import type { Job } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { JobContext, JobDefinition } from './define.ts';

export const INTERRUPTED_MESSAGE = '任务因进程中断而失败';
const INVALID_PAYLOAD_MESSAGE = '任务参数无效';

export interface EnqueueOptions {
  ownerId?: string | null;
  /** Enqueueing twice with one key returns the first job instead of adding another. */
  idempotencyKey?: string;
  delayMs?: number;
}

export interface JobQueue {
  readonly backend: 'database' | 'bullmq';
  enqueue<S extends z.ZodType, R>(
    def: JobDefinition<S, R>,
    payload: z.input<S>,
    options?: EnqueueOptions,
  ): Promise<Job>;
  /** The job if it belongs to `ownerId`; otherwise err_not_found, so ids of others reveal nothing. */
  getJobForOwner(id: string, ownerId: string): Promise<Job>;
  /**
   * Starts taking jobs in this process: up to `concurrency` light jobs and `heavyConcurrency`
   * (default 1) heavy ones at once. Throws when a queued job's name has no definition here.
   */
  startWorker(options: { concurrency: number; heavyConcurrency?: number }): Promise<void>;
  /**
   * Stops taking work and waits up to `timeoutMs` for running handlers; handlers still running then
   * are aborted and their jobs handed back to the queue without using up an attempt.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

export interface JobQueueDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** How long a worker that stops heartbeating keeps its job before another worker may take it. */
  leaseMs: number;
  /** The jobs this worker runs, by name (jobsByName). */
  jobs: ReadonlyMap<string, JobDefinition>;
  /** The application context handed to handlers (absent in queue-only tests). */
  app?: () => AppContext;
}

export async function insertJob(
  { db, clock }: JobQueueDeps,
  def: JobDefinition,
  payload: unknown,
  options: EnqueueOptions,
): Promise<Job> {
  if (!def.payload.safeParse(payload).success) throw AppError.named('err_invalid_param');
  const now = clock.now();
  const row: Job = {
    id: newId('job'),
    name: def.name,
    owner_id: options.ownerId ?? null,
    idempotency_key: options.idempotencyKey ?? null,
    // The input is stored, not the parsed output: the handler parses it again at run time.
    payload: JSON.stringify(payload),
    status: 'queued',
    progress: 0,
    result: null,
    error: null,
    attempts: 0,
    max_attempts: def.maxAttempts,
    run_at: now + Math.max(0, options.delayMs ?? 0),
    locked_by: null,
    locked_until: null,
    created_at: now,
    updated_at: now,
  };
  if (!options.idempotencyKey) {
    await db.insertInto('jobs').values(row).execute();
    return row;
  }
  // Concurrent enqueues with one key both end up with the row that won the insert.
  await db
    .insertInto('jobs')
    .values(row)
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  const existing = await db
    .selectFrom('jobs')
    .selectAll()
    .where('idempotency_key', '=', options.idempotencyKey)
    .executeTakeFirstOrThrow();
  if (existing.name !== row.name || existing.owner_id !== row.owner_id) {
    throw AppError.named('err_invalid_param', '幂等键已被其他任务使用');
  }
  return existing;
}

export async function getJobForOwner(db: Db, id: string, ownerId: string): Promise<Job> {
  const job = await db
    .selectFrom('jobs')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!job) throw AppError.named('err_not_found');
  return job;
}

export type Outcome = { ok: true; result: unknown } | { ok: false; message: string; permanent: boolean };

/** Runs the handler of a job this worker holds under `lease`; never throws. */
export async function executeJob(
  deps: JobQueueDeps,
  row: Job,
  lease: string,
  signal: AbortSignal,
): Promise<Outcome> {
  const def = deps.jobs.get(row.name);
  if (!def) return { ok: false, message: `未知的任务类型：${row.name}`, permanent: true };
  const parsed = def.payload.safeParse(JSON.parse(row.payload));
  if (!parsed.success) return { ok: false, message: INVALID_PAYLOAD_MESSAGE, permanent: true };
  const context: JobContext = {
    id: row.id,
    ownerId: row.owner_id,
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
    signal,
    get app() {
      if (!deps.app) throw new Error('this job queue was created without an application context');
      return deps.app();
    },
    progress: async (percent) => {
      await deps.db
        .updateTable('jobs')
        .set({ progress: Math.min(100, Math.max(0, percent)), updated_at: deps.clock.now() })
        .where('id', '=', row.id)
        .where('locked_by', '=', lease)
        .where('status', '=', 'running')
        .execute();
    },
  };
  try {
    return { ok: true, result: (await def.handler(parsed.data, context)) ?? null };
  } catch (err) {
    deps.log.warn({ err, jobId: row.id, job: row.name, attempt: row.attempts }, 'job handler failed');
    // Owners read this message: only our own errors are worded for them.
    const message = err instanceof AppError ? err.message : namedErrorMessages.err_system;
    return { ok: false, message, permanent: false };
  }
}

/** Writes the outcome of a run, unless the lease was lost meanwhile; `retryAt` null means final. */
export async function finishJob(
  { db, clock }: JobQueueDeps,
  id: string,
  lease: string,
  outcome: Outcome,
  retryAt: number | null,
): Promise<void> {
  const unlocked = { locked_by: null, locked_until: null, updated_at: clock.now() };
  const update = outcome.ok
    ? {
        ...unlocked,
        status: 'succeeded' as const,
        progress: 100,
        result: JSON.stringify(outcome.result),
        error: null,
      }
    : retryAt === null
      ? { ...unlocked, status: 'failed' as const, error: outcome.message }
      : { ...unlocked, status: 'queued' as const, error: outcome.message, run_at: retryAt };
  await db
    .updateTable('jobs')
    .set(update)
    .where('id', '=', id)
    .where('locked_by', '=', lease)
    .where('status', '=', 'running')
    .execute();
}

/** Hands a job this worker holds back to the queue, refunding the attempt it was on. */
export async function releaseJob({ db, clock }: JobQueueDeps, id: string, lease: string): Promise<void> {
  const now = clock.now();
  await db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'queued',
      attempts: eb('attempts', '-', 1),
      run_at: now,
      locked_by: null,
      locked_until: null,
      updated_at: now,
    }))
    .where('id', '=', id)
    .where('locked_by', '=', lease)
    .where('status', '=', 'running')
    .execute();
}

/**
 * A worker that does not know a queued job's name would leave it waiting silently (or fail it):
 * refuse to start instead, naming the jobs, so a job left out of the worker's list shows at deploy time.
 */
export async function assertJobsDefined({ db, jobs }: JobQueueDeps): Promise<void> {
  const known = [...jobs.keys()];
  const unknown = await db
    .selectFrom('jobs')
    .select('name')
    .distinct()
    .where('status', 'in', ['queued', 'running'])
    .$if(known.length > 0, (q) => q.where('name', 'not in', known))
    .execute();
  if (unknown.length > 0) {
    throw new Error(
      `The job worker cannot start: queued jobs have no definition in this process (${unknown
        .map((r) => r.name)
        .join(', ')}). Give the worker their definitions, or remove the jobs.`,
    );
  }
}

/** The queue gave a job up without a finished handler: let its definition clean up after it. */
export async function abandonJob(
  deps: JobQueueDeps,
  row: Pick<Job, 'id' | 'name' | 'payload'>,
): Promise<void> {
  const def = deps.jobs.get(row.name);
  if (!def?.onAbandoned || !deps.app) return;
  const parsed = def.payload.safeParse(JSON.parse(row.payload));
  if (!parsed.success) return;
  try {
    await def.onAbandoned(parsed.data, deps.app());
  } catch (err) {
    deps.log.error({ err, jobId: row.id, job: row.name }, 'job abandon hook failed');
  }
}
