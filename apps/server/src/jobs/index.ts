import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/database.ts';
import { createBullJobQueue } from './bullmq-queue.ts';
import { createDbJobQueue } from './db-queue.ts';
import type { JobDefinition } from './define.ts';
import type { JobQueue } from './queue.ts';

export { BULLMQ_QUEUE_NAME } from './bullmq-queue.ts';
export { defineJob, type JobContext, type JobDefinition, jobsByName } from './define.ts';
export { type EnqueueOptions, INTERRUPTED_MESSAGE, type JobQueue } from './queue.ts';

export interface JobQueueOptions {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** BullMQ on this Redis when set; otherwise the jobs table is the queue. */
  redisUrl?: string;
  /** Redis key prefix, so that apps (and test runs) sharing one Redis stay apart. */
  prefix?: string;
  /** How long a dead worker keeps its job before another worker takes it over. */
  leaseMs?: number;
  /** How often an idle embedded worker looks for due jobs (it is woken at once by local enqueues). */
  pollIntervalMs?: number;
  /** The jobs this worker runs, by name (jobsByName; the app's: AppContext.jobDefinitions). */
  jobs: ReadonlyMap<string, JobDefinition>;
  /** The application context handed to job handlers. */
  app?: () => AppContext;
}

export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { redisUrl, prefix = 'vw', leaseMs = 30_000, pollIntervalMs = 500, ...deps } = options;
  return redisUrl
    ? createBullJobQueue({ ...deps, leaseMs, redisUrl, prefix })
    : createDbJobQueue({ ...deps, leaseMs, pollIntervalMs });
}
