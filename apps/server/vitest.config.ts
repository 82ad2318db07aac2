import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The files of each database's pass are chosen in the root vitest.config.ts.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
