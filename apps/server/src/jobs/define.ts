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
  /** The result must be JSON-serialisable: it is stored on the job row. */
  handler: (payload: z.output<S>, job: JobContext) => Promise<R>;
  maxAttempts: number;
  /** Delay before the first retry; doubles on every further retry. */
  backoffMs: number;
  /**
   * Called when the queue gives the job up without its handler having finished it (its worker died
   * on the last allowed attempt), so whatever the job stood for is not left waiting forever.
   */
  onAbandoned?: (payload: unknown, app: AppContext) => Promise<void>;
}

const registry = new Map<string, JobDefinition>();

/**
 * Declares a job type. Definitions register themselves by name so that any worker process that
 * imports the module can run jobs enqueued by another process.
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
  if (registry.has(options.name)) throw new Error(`Job "${options.name}" is defined twice`);
  const def = { lane: 'light', maxAttempts: 3, backoffMs: 5_000, ...options } as JobDefinition<S, R>;
  registry.set(def.name, def as unknown as JobDefinition);
  return def;
}

export function findJobDefinition(name: string): JobDefinition | undefined {
  return registry.get(name);
}

export function definedJobNames(lane?: JobLane): string[] {
  return [...registry.values()].filter((d) => !lane || d.lane === lane).map((d) => d.name);
}

/** Delay before the next run after `attempts` failed runs (BullMQ's exponential formula). */
export function backoffDelay(def: Pick<JobDefinition, 'backoffMs'>, attempts: number): number {
  return def.backoffMs * 2 ** Math.max(0, attempts - 1);
}
