import { defineConfig } from 'vitest/config';

/**
 * One run for every unit and integration test. The server suite runs twice: on SQLite and on
 * PostgreSQL (the test command makes sure a PostgreSQL and a Redis answer).
 */
const server = (db: 'sqlite' | 'postgres') => ({
  extends: './apps/server/vitest.config.ts',
  test: {
    name: `server-${db}`,
    root: './apps/server',
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
