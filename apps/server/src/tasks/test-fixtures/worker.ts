import { systemClock } from '../../clock.ts';
import { loadConfig } from '../../config.ts';
import { createContext } from '../../context.ts';
import { openDatabase } from '../../db/database.ts';
import { createJobQueue } from '../../jobs/index.ts';
import { createLogger } from '../../logger.ts';
import { appPipelines } from '../../modules/jobs.ts';
import { childFfmpegPipeline, itemsPipeline } from './pipelines.ts';

/** A task worker process for the kill test: the config comes from the environment the test passes. */
const config = loadConfig();
const database = openDatabase(config.database);
const log = createLogger('silent');
const ctx = createContext({
  config,
  database,
  clock: systemClock,
  log,
  pipelines: [...appPipelines, itemsPipeline, childFfmpegPipeline],
});
ctx.jobs = createJobQueue({
  db: database.db,
  clock: systemClock,
  log,
  jobs: ctx.jobDefinitions,
  redisUrl: config.REDIS_URL,
  prefix: process.env.JOB_TEST_PREFIX,
  leaseMs: Number(process.env.JOB_TEST_LEASE_MS),
  pollIntervalMs: 20,
  app: () => ctx,
});
await ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
process.stdout.write('ready\n');
