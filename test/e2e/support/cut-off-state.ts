/**
 * The run's per-browser cut-off records, kept in one JSON file so that every E2E file (each in its
 * own module context) sees what the files before it saw. Test files run one at a time
 * (fileParallelism: false), so reads and writes never interleave. The file is named by
 * JAWAD_E2E_CUT_OFF_STATE, which cut-off-global.ts sets for a vitest run; outside one (the
 * benchmarks launch browsers through the same helpers) there is no state and nothing is cut.
 *
 * Time is wall time: whatever passed since the last test or launch finished (its hooks, a browser
 * launched in beforeAll) is charged to the browser of the test or launch that finishes now.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterLaunch, cutOffMessage, FRESH_RECORD, limitsFrom, type BrowserRecord, type CutOffBrowser } from '../../support/cut-off';

export const STATE_ENV = 'JAWAD_E2E_CUT_OFF_STATE';

export interface CutOffState {
  /** When the last test or launch finished (ms since the epoch). */
  markAt: number;
  browsers: Partial<Record<CutOffBrowser, BrowserRecord>>;
}

export function readState(): CutOffState | undefined {
  const path = process.env[STATE_ENV];
  if (!path) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as CutOffState;
}

export function writeState(state: CutOffState): void {
  const path = process.env[STATE_ENV];
  if (path) writeFileSync(path, JSON.stringify(state));
}

/**
 * Charges the time since the last mark to `browser` (none: to nobody) through `change`, and moves
 * the mark to now. A no-op outside a vitest run.
 */
export function account(browser: CutOffBrowser | undefined, change: (record: BrowserRecord, ms: number) => BrowserRecord): void {
  const state = readState();
  if (!state) return;
  const now = Date.now();
  if (browser) state.browsers[browser] = change(state.browsers[browser] ?? FRESH_RECORD, now - state.markAt);
  writeState({ ...state, markAt: now });
}

/** Throws the cut-off failure when this browser's suite was stopped. */
export function refuseIfCutOff(browser: CutOffBrowser): void {
  const record = readState()?.browsers[browser];
  if (record?.cut) throw new Error(cutOffMessage(browser, record));
}

/** Runs one launch of `browser` under the cut-off rules: refused once cut, counted either way. */
export async function launchUnderCutOff<T>(browser: CutOffBrowser, launch: () => Promise<T>): Promise<T> {
  refuseIfCutOff(browser);
  try {
    const launched = await launch();
    account(browser, (record, ms) => afterLaunch(record, undefined, ms, limitsFrom(process.env)));
    return launched;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    account(browser, (record, ms) => afterLaunch(record, message, ms, limitsFrom(process.env)));
    throw error;
  }
}
