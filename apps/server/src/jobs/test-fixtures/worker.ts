import { systemClock } from '../../clock.ts';
import { openDatabase } from '../../db/database.ts';
import { createLogger } from '../../logger.ts';
import { createJobQueue, jobsByName } from '../index.ts';
import { hangJob, hangOnceJob } from './jobs.ts';

/** A worker process for the kill tests: JOB_TEST_DB is a SQLite file or a postgres:// URL. */
const target = process.env.JOB_TEST_DB!;
const database = openDatabase(
  target.startsWith('postgres') ? { kind: 'postgres', url: target } : { kind: 'sqlite', file: target },
);
const queue = createJobQueue({
  db: database.db,
  clock: systemClock,
  log: createLogger('silent'),
  jobs: jobsByName([hangJob, hangOnceJob]),
  redisUrl: process.env.JOB_TEST_REDIS_URL,
  prefix: process.env.JOB_TEST_PREFIX,
  leaseMs: Number(process.env.JOB_TEST_LEASE_MS),
  pollIntervalMs: 20,
});
await queue.startWorker({ concurrency: 2 });
process.stdout.write('ready\n');
