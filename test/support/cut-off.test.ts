import { describe, expect, it } from 'vitest';
import { afterLaunch, afterTest, browserOf, cutOffMessage, DEFAULT_LIMITS, FRESH_RECORD, limitsFrom, type BrowserRecord } from './cut-off';

const limits = { failuresInARow: 3, launchFailuresInARow: 2, budgetMs: 10_000 };

function tests(outcomes: boolean[], ms = 100, start: BrowserRecord = FRESH_RECORD): BrowserRecord {
  return outcomes.reduce((record, passed, i) => afterTest(record, passed, ms, limits, `test ${i + 1}`), start);
}

describe('the E2E cut-off', () => {
  it('cuts a browser off after the set number of failures in a row, naming the last', () => {
    expect(tests([false, false]).cut).toBeUndefined();
    const cut = tests([true, false, false, false]);
    expect(cut.cut).toBe('3 tests in a row failed (the last: “test 4”)');
    expect(cutOffMessage('firefox', cut)).toBe("Cut off: firefox's E2E suite stopped because 3 tests in a row failed (the last: “test 4”). This test did not run.");
  });

  it('does not cut a browser whose failures are broken up by passes', () => {
    const record = tests([false, false, true, false, false, true, false, false]);
    expect(record.cut).toBeUndefined();
    expect(record.failuresInARow).toBe(2);
  });

  it('cuts a browser off once its tests and launches have used its time budget', () => {
    expect(tests([true, true], 4_000).cut).toBeUndefined();
    expect(afterLaunch(tests([true, true], 4_000), undefined, 1_999, limits).cut).toBeUndefined();
    expect(afterLaunch(tests([true, true], 4_000), undefined, 2_000, limits).cut).toMatch(/time budget of 0.17 min/);
    expect(tests([true, true, true], 4_000).cut).toMatch(/used its time budget/);
  });

  it('cuts a browser off after launches failing in a row, with the first line of the error', () => {
    const once = afterLaunch(FRESH_RECORD, 'Failed to launch the browser process!\nspawn /bin/false', 50, limits);
    expect(once.cut).toBeUndefined();
    expect(afterLaunch(afterLaunch(once, undefined, 50, limits), 'again', 50, limits).cut).toBeUndefined();
    expect(afterLaunch(once, 'Failed to launch the browser process!\nspawn /bin/false', 50, limits).cut).toBe('it failed to launch 2 times in a row (Failed to launch the browser process!)');
  });

  it('keeps the first reason once cut', () => {
    const cut = tests([false, false, false]);
    expect(tests([false, false], 100_000, cut).cut).toBe(cut.cut);
  });

  it('finds the browser in the describe names, and none for browserless tests', () => {
    expect(browserOf(['asks before a click', 'the agent in the firefox sidebar'])).toBe('firefox');
    expect(browserOf(['--approve deny: …', 'jawad run in chromium'])).toBe('chromium');
    expect(browserOf(['runs this checkout’s own bin', 'npx jawad'])).toBeUndefined();
  });

  it('reads its limits from the environment, keeping defaults for anything unusable', () => {
    expect(limitsFrom({})).toEqual(DEFAULT_LIMITS);
    expect(limitsFrom({ JAWAD_E2E_FAILURES_IN_A_ROW: '2', JAWAD_E2E_LAUNCH_FAILURES_IN_A_ROW: '1', JAWAD_E2E_BROWSER_BUDGET_MIN: '0.5' }))
      .toEqual({ failuresInARow: 2, launchFailuresInARow: 1, budgetMs: 30_000 });
    expect(limitsFrom({ JAWAD_E2E_FAILURES_IN_A_ROW: 'many', JAWAD_E2E_BROWSER_BUDGET_MIN: '-1' })).toEqual(DEFAULT_LIMITS);
  });
});
