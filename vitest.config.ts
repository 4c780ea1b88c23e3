import { defineConfig } from 'vitest/config';

/** Unit tests: no crx plugin, no browser. fake-indexeddb stands in for IndexedDB. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['fake-indexeddb/auto'],
  },
});
