/**
 * One describe block per browser that starts a real application once, runs its tasks through the
 * agent (run-app-task.ts) and checks each in the application's own state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderServer } from '../../support/provider-server';
import { latestSnapshotText } from '../../support/scripted-model';
import type { AppTask, RealApp } from '../../support/real-apps/app-task';
import { runAppTask } from '../../support/real-apps/run-app-task';
import { browsersUnderTest } from './extension-browser';
import { useReadyJawad } from './flows';

function lastSnapshot(provider: ProviderServer): string {
  const last = provider.requests.findLast((request) => latestSnapshotText(request) !== undefined);
  return (last && latestSnapshotText(last)) ?? '(none)';
}

/** Starts a real application for the describe block it is called in and stops it after it; tests read it from the getter. */
export function useRealApp<App extends RealApp>(start: () => Promise<App>): () => App {
  let app: App | undefined;
  beforeAll(async () => {
    app = await start();
  }, 300_000);
  afterAll(async () => {
    await app?.stop();
  });
  return () => {
    if (!app) throw new Error('The application did not start.');
    return app;
  };
}

export function describeAppTasks<App extends RealApp>(title: string, start: () => Promise<App>, tasks: readonly AppTask<App>[]): void {
  for (const browserName of browsersUnderTest()) {
    describe(`${title} in ${browserName}`, () => {
      const suite = useReadyJawad(browserName);
      const started = useRealApp(start);

      for (const task of tasks) {
        it(task.name, async () => {
          const app = started();
          const { outcome, finalUrl } = await runAppTask(suite.jawad, suite.provider, app, task);
          const failures = outcome.steps.filter((step) => step.status !== 'done').map((step) => `${step.tool}: ${step.status} ${JSON.stringify(step.result ?? null)}`);
          expect(failures).toEqual([]);
          if (outcome.answer.error) throw new Error(`${outcome.answer.error.message}\n\nThe model's last snapshot, whole:\n${lastSnapshot(suite.provider)}`);
          expect(outcome.answer.status).toBe('complete');
          await task.verify(app, finalUrl, outcome.answer.content);
        }, 120_000);
      }
    });
  }
}
