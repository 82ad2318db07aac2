import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * Tests of plain logic: they render nothing and touch no window, document, storage or fetch stub, so
 * they run in Node without jsdom's start-up. Any test that needs one of these stays in the dom project.
 */
const PURE_LOGIC_TESTS = [
  'src/features/api-keys/snippets.test.ts',
  'src/features/payment/payment.test.ts',
  'src/features/tts/draft.test.ts',
  'src/features/video-translation/editor/ExportDialog.test.ts',
  'src/features/video-translation/editor/document.test.ts',
  'src/features/video-translation/editor/dub.test.ts',
  'src/features/video-translation/editor/history.test.ts',
  'src/features/video-translation/translate/model.test.ts',
  'src/lib/api.test.ts',
  'src/lib/notifications.test.ts',
  'src/lib/qrcode.test.ts',
  'src/lib/shell.test.ts',
];

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
    // jsdom + antd renders run several times slower while the server suites share the 2 cores.
    testTimeout: 20_000,
    projects: [
      {
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: PURE_LOGIC_TESTS,
          setupFiles: ['src/test-setup.ts'],
        },
      },
      { test: { name: 'node', environment: 'node', include: PURE_LOGIC_TESTS } },
    ],
  },
});
