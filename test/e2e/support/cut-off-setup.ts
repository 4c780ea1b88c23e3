/**
 * vitest setup file for every E2E file: before each test of a browser whose suite was cut off, the
 * test fails at once (saying why) instead of running; after each test, its outcome and time count
 * towards its browser's limits (test/support/cut-off.ts).
 */
import { beforeEach } from 'vitest';
import { afterTest, browserOf, limitsFrom } from '../../support/cut-off';
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
