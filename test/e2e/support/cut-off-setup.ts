/**
 * vitest setup file for every E2E file: before each test of a browser whose suite was cut off, the
 * test fails at once (saying why) instead of running; after each test, its outcome and time count
 * towards its browser's limits (test/support/cut-off.ts). A describe whose own hooks failed (its
 * tests never ran) counts as one failure of its browser.
 */
import { afterAll, beforeEach } from 'vitest';
import { afterTest, browserOf, CUT_OFF_MARK, limitsFrom } from '../../support/cut-off';
import { account, refuseIfCutOff } from './cut-off-state';

interface Named {
  name: string;
  suite?: Named;
}

/** The test's own name and its describes', innermost first. */
function namesOf(task: Named): string[] {
  const names: string[] = [];
  for (let node: Named | undefined = task; node; node = node.suite) names.push(node.name);
  return names;
}

beforeEach((context) => {
  const browser = browserOf(namesOf(context.task));
  if (browser) refuseIfCutOff(browser);
  context.onTestFinished(({ task }) => {
    account(browser, (record, ms) => afterTest(record, task.result?.state === 'pass', ms, limitsFrom(process.env), task.name));
  });
});

interface SuiteNode extends Named {
  type: string;
  tasks?: SuiteNode[];
  result?: { state?: string; errors?: Array<{ message?: string }> };
}

/** Describes whose hooks failed for a reason other than the cut-off, at any depth. */
function failedSuites(node: SuiteNode): SuiteNode[] {
  const children = (node.tasks ?? []).filter((task) => task.type === 'suite');
  const own = node.type === 'suite' && (node.result?.errors ?? []).some((error) => !error.message?.includes(CUT_OFF_MARK)) ? [node] : [];
  return [...own, ...children.flatMap(failedSuites)];
}

// vitest hands hooks its fixtures first (an object pattern is required there) and the suite second.
afterAll(({}, file) => {
  for (const suite of failedSuites(file as SuiteNode)) {
    const browser = browserOf(namesOf(suite));
    if (browser) account(browser, (record, ms) => afterTest(record, false, ms, limitsFrom(process.env), `${suite.name} (its setup failed)`));
  }
});
