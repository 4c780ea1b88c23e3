/**
 * Reads vitest's JSON reports for `npm test`'s summary: honest counts, the tests the E2E cut-off
 * stopped, and the slowest tests. Pure: scripts/test.ts does the reading and printing.
 */
import { CUT_OFF_MARK } from '../test/support/cut-off';

/** The parts of vitest's JSON reporter output (Jest's format) read here. */
export interface JsonReport {
  testResults: Array<{
    name: string;
    status: 'passed' | 'failed' | string;
    assertionResults: Array<{ fullName: string; status: 'passed' | 'failed' | 'skipped' | 'pending' | 'todo' | string; duration?: number | null; failureMessages?: string[] }>;
  }>;
}

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Of the failed: tests that never ran because a hook before them failed. */
  notRun: number;
}

/**
 * Passed, failed and skipped tests of one report. A test reported as skipped in a file that failed
 * did not run because a hook before it failed (a browser that did not launch): it counts as
 * failed, so a broken run never looks like a skipped one. The suite has no deliberate skips.
 */
export function countsOf(report: JsonReport): Counts {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, notRun: 0 };
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (test.status === 'passed') counts.passed += 1;
      else if (test.status === 'failed') counts.failed += 1;
      else if (file.status === 'failed') counts.notRun += 1;
      else counts.skipped += 1;
    }
    // A file that failed before any test was collected (a syntax error, an import that throws).
    if (file.status === 'failed' && file.assertionResults.length === 0) counts.failed += 1;
  }
  counts.failed += counts.notRun;
  return counts;
}

/** The cut-off tests, grouped by the reason their browser was stopped: [{reason, tests}]. */
export function cutOffsOf(report: JsonReport): Array<{ reason: string; tests: number }> {
  const byReason = new Map<string, number>();
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      const message = test.failureMessages?.find((text) => text.includes(CUT_OFF_MARK));
      if (!message) continue;
      const reason = message.slice(message.indexOf(CUT_OFF_MARK)).split('\n')[0]!.replace(/ This test did not run\.$/, '');
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    }
  }
  return [...byReason].map(([reason, tests]) => ({ reason, tests }));
}

/** The `count` slowest tests across reports, slowest first: [{name, ms}]. */
export function slowestOf(reports: JsonReport[], root: string, count = 10): Array<{ name: string; ms: number }> {
  const all: Array<{ name: string; ms: number }> = [];
  for (const report of reports) {
    for (const file of report.testResults) {
      const path = file.name.startsWith(`${root}/`) ? file.name.slice(root.length + 1) : file.name;
      for (const test of file.assertionResults) {
        if (typeof test.duration === 'number') all.push({ name: `${path} › ${test.fullName}`, ms: test.duration });
      }
    }
  }
  return all.sort((a, b) => b.ms - a.ms).slice(0, count);
}

/** "12.3 s" or "850 ms". */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}
