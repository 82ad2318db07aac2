import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  plugins: [react()],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${fileURLToPath(new URL('./src', import.meta.url))}/` },
      // Zod-free files of the contract (errors, helpers) imported directly: the package index also
      // builds every zod schema at load time, which would put zod into the entry chunk.
      {
        find: /^@vw\/contract\/(.+)$/,
        replacement: `${fileURLToPath(new URL('../../packages/contract/src', import.meta.url))}/$1`,
      },
      // Node loads antd's CommonJS build in tests; deep imports (antd/es/app/useApp…) must share its
      // module instances (the same AppContext as <App>).
      { find: /^antd\/es\/(.+)$/, replacement: 'antd/lib/$1' },
    ],
  },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // jsdom + antd renders run several times slower while the server suites share the 2 cores.
    testTimeout: 20_000,
  },
});
