/**
 * When to stop one browser's E2E suite early. A browser that cannot launch, or fails test after
 * test, would otherwise spend every remaining test's full timeout (hours, in CI's 90-minute slot)
 * before the run prints its summary. Pure rules: test/e2e/support/cut-off-setup.ts applies them.
 */
export type CutOffBrowser = 'chromium' | 'firefox';

export interface CutOffLimits {
  /** Tests of one browser failing back to back. */
  failuresInARow: number;
  /** Launches of one browser failing back to back. */
  launchFailuresInARow: number;
  /** Wall time one browser's tests and launches may take in all. */
  budgetMs: number;
}

/** What the run knows of one browser so far. `cut` says why its suite stopped, once it has. */
export interface BrowserRecord {
  failuresInARow: number;
  launchFailuresInARow: number;
  usedMs: number;
  cut?: string;
}

export const DEFAULT_LIMITS: CutOffLimits = { failuresInARow: 5, launchFailuresInARow: 2, budgetMs: 25 * 60_000 };

export const FRESH_RECORD: BrowserRecord = { failuresInARow: 0, launchFailuresInARow: 0, usedMs: 0 };

/** Marks the failure message of a test that never ran because its browser was cut off. */
export const CUT_OFF_MARK = 'Cut off:';

/**
 * The limits, from JAWAD_E2E_FAILURES_IN_A_ROW, JAWAD_E2E_LAUNCH_FAILURES_IN_A_ROW and
 * JAWAD_E2E_BROWSER_BUDGET_MIN; anything unset or not a positive number keeps its default.
 */
export function limitsFrom(env: NodeJS.ProcessEnv): CutOffLimits {
  const positive = (value: string | undefined, fallback: number) => {
    const number = Number(value);
    return value && Number.isFinite(number) && number > 0 ? number : fallback;
  };
  return {
    failuresInARow: positive(env.JAWAD_E2E_FAILURES_IN_A_ROW, DEFAULT_LIMITS.failuresInARow),
    launchFailuresInARow: positive(env.JAWAD_E2E_LAUNCH_FAILURES_IN_A_ROW, DEFAULT_LIMITS.launchFailuresInARow),
    budgetMs: positive(env.JAWAD_E2E_BROWSER_BUDGET_MIN, DEFAULT_LIMITS.budgetMs / 60_000) * 60_000,
  };
}

/** The browser a test runs in, from its describe names ("security in firefox"); none for the rest. */
export function browserOf(names: readonly string[]): CutOffBrowser | undefined {
  for (const name of names) {
    const found = /\b(chromium|firefox)\b/i.exec(name)?.[1];
    if (found) return found.toLowerCase() as CutOffBrowser;
  }
  return undefined;
}

/** The record after one of the browser's tests finished. */
export function afterTest(record: BrowserRecord, passed: boolean, ms: number, limits: CutOffLimits, name: string): BrowserRecord {
  const next = { ...record, usedMs: record.usedMs + ms, failuresInARow: passed ? 0 : record.failuresInARow + 1 };
  if (next.cut) return next;
  if (next.failuresInARow >= limits.failuresInARow) return { ...next, cut: `${next.failuresInARow} tests in a row failed (the last: “${name}”)` };
  return withinBudget(next, limits);
}

/** The record after one launch of the browser, successful or not. */
export function afterLaunch(record: BrowserRecord, error: string | undefined, ms: number, limits: CutOffLimits): BrowserRecord {
  const next = { ...record, usedMs: record.usedMs + ms, launchFailuresInARow: error === undefined ? 0 : record.launchFailuresInARow + 1 };
  if (next.cut) return next;
  if (error !== undefined && next.launchFailuresInARow >= limits.launchFailuresInARow) {
    return { ...next, cut: `it failed to launch ${next.launchFailuresInARow} times in a row (${error.split('\n')[0]})` };
  }
  return withinBudget(next, limits);
}

function withinBudget(record: BrowserRecord, limits: CutOffLimits): BrowserRecord {
  if (record.usedMs < limits.budgetMs) return record;
  return { ...record, cut: `it used its time budget of ${Number((limits.budgetMs / 60_000).toFixed(2))} min (JAWAD_E2E_BROWSER_BUDGET_MIN)` };
}

/** The failure a cut-off test reports instead of running. */
export function cutOffMessage(browser: CutOffBrowser, record: BrowserRecord): string {
  return `${CUT_OFF_MARK} ${browser}'s E2E suite stopped because ${record.cut}. This test did not run.`;
}
