import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * The server tests that run on PostgreSQL too: those that reach what differs between the two
 * databases (raw SQL and dialect branches, upserts, batched inserts, text the database refuses, dates
 * and ordering, migrations and seeds, transactions and locks) or that race on them (queues, leases,
 * credits, concurrent requests). The rest — media, engines, pure logic — reads and writes through the
 * same Kysely queries and runs on SQLite only. Paths are relative to apps/server.
 */
const POSTGRES_TESTS = [
  'src/db/transaction.test.ts',
  'src/jobs/bullmq-queue.test.ts',
  'src/jobs/db-queue.test.ts',
  'src/jobs/jobs.routes.test.ts',
  'src/jobs/lanes.test.ts',
  'src/modules/apikeys/limits.test.ts',
  'src/tasks/tasks.test.ts',
  'test/account-safety.test.ts',
  'test/accounts.test.ts',
  'test/apikeys.test.ts',
  'test/audiobook.test.ts',
  'test/credits-ledger.test.ts',
  'test/credits-membership.test.ts',
  'test/draining.test.ts',
  'test/engines-reload.test.ts',
  'test/features.test.ts',
  'test/input-rule.test.ts',
  'test/media-gc.test.ts',
  'test/onboarding.test.ts',
  'test/payments.test.ts',
  'test/projects.test.ts',
  'test/scale-faults.test.ts',
  'test/self-check.test.ts',
  'test/stream-crash.test.ts',
  'test/tts.test.ts',
  'test/uploads-s3.test.ts',
  'test/uploads.test.ts',
  'test/video-translation.test.ts',
  'test/voice-cards.test.ts',
  'test/voice-clone-resume.test.ts',
  'test/voice-clone.test.ts',
];
// A moved or renamed file must not drop out of the PostgreSQL pass unnoticed.
const missing = POSTGRES_TESTS.filter(
  (file) => !existsSync(new URL(`./apps/server/${file}`, import.meta.url)),
);
if (missing.length)
  throw new Error(`vitest.config.ts POSTGRES_TESTS names missing files: ${missing.join(', ')}`);

/**
 * One run for every unit and integration test. The server suite runs on SQLite, and its
 * database-sensitive part again on PostgreSQL (the test command makes sure a PostgreSQL and a Redis answer).
 */
const server = (db: 'sqlite' | 'postgres') => ({
  extends: './apps/server/vitest.config.ts',
  test: {
    name: `server-${db}`,
    root: './apps/server',
    include: db === 'sqlite' ? ['src/**/*.test.ts', 'test/**/*.test.ts'] : POSTGRES_TESTS,
    env: { TEST_DB: db },
  },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', root: './packages/contract', include: ['src/**/*.test.ts'] } },
      { test: { name: 'scripts', root: './scripts', include: ['*.test.mjs'] } },
      {
        test: {
          name: 'engines',
          root: './packages/engines',
          include: ['src/**/*.test.ts'],
          passWithNoTests: true,
          // ffmpeg, OCR and synthesis share the 2 cores with the server suites.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      server('sqlite'),
      server('postgres'),
      './apps/web/vitest.config.ts',
    ],
  },
});
