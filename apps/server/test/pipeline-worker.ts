import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { openDatabase } from '../src/db/database.ts';
import { createEngines } from '../src/engines/engines.ts';
import { createJobQueue } from '../src/jobs/index.ts';
import { createLogger } from '../src/logger.ts';

/**
 * A task worker in its own process for the kill-and-resume tests (`spawnPipelineWorker`): the product's
 * pipelines, real engines, config from the environment.
 */
const config = loadConfig();
const database = openDatabase(config.database);
const log = createLogger('silent');
const engines = await createEngines(config);
const ctx = createContext({ config, database, clock: systemClock, log, engines });
ctx.jobs = createJobQueue({
  db: database.db,
  clock: systemClock,
  log,
  jobs: ctx.jobDefinitions,
  prefix: process.env.JOB_TEST_PREFIX,
  leaseMs: Number(process.env.JOB_TEST_LEASE_MS),
  pollIntervalMs: 20,
  app: () => ctx,
});
await ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
process.stdout.write('ready\n');
