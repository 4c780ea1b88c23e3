import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests drive the built extension in real Chromium and Firefox. One file at a time:
 * the machine has two cores and each browser wants one.
 *
 * Bounded worst case: every test has a timeout (testTimeout, or its own of at most 90 s), every
 * hook hookTimeout, and a browser's suite is cut off after failing tests or launches in a row or
 * after its time budget (test/support/cut-off.ts): two browsers' budgets plus one test each in
 * flight, under an hour; npm test stops the run at JAWAD_E2E_LIMIT_MIN (65) whatever happens.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    retry: 0,
    globalSetup: ['test/e2e/support/cut-off-global.ts'],
    setupFiles: ['test/e2e/support/cut-off-setup.ts'],
  },
});
