import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests drive the built extension in real Chromium and Firefox. One file at a time:
 * the machine has two cores and each browser wants one.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    retry: 0,
  },
});
