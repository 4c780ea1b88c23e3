import { describe, expect, it } from 'vitest';
import { countsOf, cutOffsOf, formatMs, slowestOf, type JsonReport } from '../../scripts/test-report';
import { cutOffMessage } from '../support/cut-off';

type Test = JsonReport['testResults'][number]['assertionResults'][number];
const test = (fullName: string, status: Test['status'], duration?: number, failureMessages: string[] = []): Test => ({ fullName, status, duration, failureMessages });

const cut = `Error: ${cutOffMessage('firefox', { failuresInARow: 5, launchFailuresInARow: 0, usedMs: 0, cut: '5 tests in a row failed (the last: “x”)' })}\n    at refuseIfCutOff (cut-off-state.ts:40:9)`;

// The shape vitest 4's JSON reporter writes (checked against a real run): a file whose beforeAll
// failed reports its tests as skipped and itself as failed.
const report: JsonReport = {
  testResults: [
    { name: '/repo/test/e2e/chat.e2e.ts', status: 'failed', assertionResults: [test('chat in chromium streams', 'passed', 1200), test('chat in firefox streams', 'failed', 61_000, [cut])] },
    { name: '/repo/test/e2e/security.e2e.ts', status: 'failed', assertionResults: [test('security in firefox a', 'skipped'), test('security in firefox b', 'skipped')] },
    { name: '/repo/test/e2e/broken.e2e.ts', status: 'failed', assertionResults: [] },
    { name: '/repo/test/cli/args.test.ts', status: 'passed', assertionResults: [test('parses', 'passed', 3), test('later', 'skipped'), test('soon', 'todo')] },
  ],
};

describe('npm test’s report reading', () => {
  it('counts tests skipped in a failed file, and a file that never ran, as failed', () => {
    expect(countsOf(report)).toEqual({ passed: 2, failed: 4, skipped: 2, notRun: 2 });
  });

  it('groups the cut-off tests by their browser’s reason', () => {
    expect(cutOffsOf(report)).toEqual([{ reason: "Cut off: firefox's E2E suite stopped because 5 tests in a row failed (the last: “x”).", tests: 1 }]);
  });

  it('lists the slowest tests first, with paths from the checkout', () => {
    expect(slowestOf([report], '/repo', 2)).toEqual([
      { name: 'test/e2e/chat.e2e.ts › chat in firefox streams', ms: 61_000 },
      { name: 'test/e2e/chat.e2e.ts › chat in chromium streams', ms: 1200 },
    ]);
    expect(slowestOf([report, report], '/repo')).toHaveLength(6);
  });

  it('prints durations for people', () => {
    expect(formatMs(850.4)).toBe('850 ms');
    expect(formatMs(61_000)).toBe('61.0 s');
  });
});
