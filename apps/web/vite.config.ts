import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.VW_API_TARGET ?? 'http://127.0.0.1:8787';
// Everything the server answers besides the web app itself.
const apiPrefixes = ['/accounts', '/v1', '/p1', '/dev', '/files', '/docs', '/openapi.json'];

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  base: '/workbench/',
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
      {
        find: /^resize-observer-polyfill$/,
        replacement: fileURLToPath(new URL('./src/lib/nativeResizeObserver.ts', import.meta.url)),
      },
    ],
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(apiPrefixes.map((p) => [p, { target: apiTarget, changeOrigin: false }])),
  },
  preview: {
    port: 4173,
    proxy: Object.fromEntries(apiPrefixes.map((p) => [p, { target: apiTarget, changeOrigin: false }])),
  },
  build: {
    target: 'es2022',
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      treeshake: {
        // antd's rc-* helper packages are pure ESM without a `sideEffects` field, so the bundler
        // must keep every module their index files import (e.g. all of rc-field-form for the
        // FormProvider that every antd input imports). They have no import-time side effects.
        moduleSideEffects: (id) =>
          /[\\/]node_modules[\\/](rc-[^\\/]+|@rc-component[\\/][^\\/]+)[\\/]/.test(id) ? false : undefined,
      },
    },
  },
});
