/**
 * One real-app task through Jawad's agent, as the headless runner drives it (cli/agent-task.ts):
 * from a logged-out tab at the task's start, every step allowed once. Shared by the E2E suite and
 * `npm run bench:agent`.
 */
import { runAgentTask, type TaskOutcome } from '../../../cli/agent-task';
import type { JawadBrowser } from '../../../cli/launch';
import type { ProviderServer } from '../provider-server';
import type { AppTask, RealApp } from './app-task';

export interface AppTaskRun {
  outcome: TaskOutcome;
  /** Where the task's tab ended. */
  finalUrl: string;
}

export async function runAppTask<App extends RealApp>(jawad: JawadBrowser, provider: ProviderServer, app: App, task: AppTask<App>): Promise<AppTaskRun> {
  // Each task starts logged out, whatever the one before did.
  const blank = await jawad.openTab(`${app.url}/robots.txt`);
  await blank.deleteCookie(...(await blank.cookies()));
  await blank.close();
  const page = await jawad.openTab(`${app.url}${task.start}`);
  if (task.ready) await page.waitForSelector(task.ready, { timeout: 30_000 });
  provider.setResponder(task.model(app));
  const outcome = await runAgentTask(jawad.host, { task: task.prompt, approve: () => 'allow-once', timeoutMs: 90_000 });
  const finalUrl = page.url();
  await page.close();
  return { outcome, finalUrl };
}
