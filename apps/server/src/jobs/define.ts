import type { z } from 'zod';
import type { AppContext } from '../context.ts';

/** What a handler knows about the run it is part of. */
export interface JobContext {
  id: string;
  ownerId: string | null;
  /** 1 on the first run, counting every start (including runs cut short by a dead worker). */
  attempt: number;
  maxAttempts: number;
  /** Persists the progress (0–100) on the job row, where its owner reads it. */
  progress(percent: number): Promise<void>;
  /** Aborted when the worker shuts down before the handler finished; the job then runs again elsewhere. */
  signal: AbortSignal;
  /** The application's services (database, storage, engines…) as the worker process built them. */
  app: AppContext;
}

/** Lanes have their own concurrency, so a long ffmpeg run never holds up quick work (design §9). */
export type JobLane = 'light' | 'heavy';
export const JOB_LANES: readonly JobLane[] = ['light', 'heavy'];

export interface JobDefinition<S extends z.ZodType = z.ZodType, R = unknown> {
  name: string;
  /** heavy = media processes and engines (JOB_HEAVY_CONCURRENCY), light = quick work (JOB_CONCURRENCY). */
  lane: JobLane;
  payload: S;
  /**
   * The result must be JSON-serialisable: it is stored on the job row. (A method, so a definition of
   * any payload fits in a list of definitions.)
   */
  handler(payload: z.output<S>, job: JobContext): Promise<R>;
  maxAttempts: number;
  /** Delay before the first retry; doubles on every further retry. */
  backoffMs: number;
  /**
   * Called when the queue gives the job up without its handler having finished it (its worker died
   * on the last allowed attempt), so whatever the job stood for is not left waiting forever.
   */
  onAbandoned?: (payload: unknown, app: AppContext) => Promise<void>;
}

/**
 * Declares a job type: a plain value. A worker runs the jobs it is given by name (createJobQueue's
 * `jobs`, the app's listed in modules/jobs.ts), so a job enqueued by one process runs in another.
 */
export function defineJob<S extends z.ZodType, R>(options: {
  name: string;
  lane?: JobLane;
  payload: S;
  handler: (payload: z.output<S>, job: JobContext) => Promise<R>;
  maxAttempts?: number;
  backoffMs?: number;
  onAbandoned?: (payload: z.output<S>, app: AppContext) => Promise<void>;
}): JobDefinition<S, R> {
  return { lane: 'light', maxAttempts: 3, backoffMs: 5_000, ...options } as JobDefinition<S, R>;
}

/** The definitions a worker runs, by name; two definitions of one name are a mistake. */
export function jobsByName(defs: Iterable<JobDefinition>): ReadonlyMap<string, JobDefinition> {
  const byName = new Map<string, JobDefinition>();
  for (const def of defs) {
    if (byName.has(def.name)) throw new Error(`Job "${def.name}" is defined twice`);
    byName.set(def.name, def);
  }
  return byName;
}

/** Delay before the next run after `attempts` failed runs (BullMQ's exponential formula). */
export function backoffDelay(def: Pick<JobDefinition, 'backoffMs'>, attempts: number): number {
  return def.backoffMs * 2 ** Math.max(0, attempts - 1);
}
