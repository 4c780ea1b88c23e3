/**
 * Real tasks on a real MediaWiki (Debian's package, installed by this test when missing, run on
 * PHP's built-in server with SQLite): the agent with a scripted model that reads each snapshot for
 * its targets, checked in the wiki's own state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentTask } from '../../cli/agent-task';
import { startMediaWiki, type MediaWiki } from '../support/real-apps/mediawiki';
import { WIKI_TASKS } from '../support/real-apps/wiki-tasks';
import { browsersUnderTest } from './support/extension-browser';
import { useReadyJawad } from './support/flows';

for (const browserName of browsersUnderTest()) {
  describe(`MediaWiki tasks in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    let wiki: MediaWiki;
    beforeAll(async () => {
      wiki = await startMediaWiki();
    }, 180_000);
    afterAll(async () => {
      await wiki?.stop();
    });

    for (const task of WIKI_TASKS) {
      it(task.name, async () => {
        // Each task starts logged out, whatever the one before did.
        const blank = await suite.jawad.openTab(`${wiki.url}/robots.txt`);
        await blank.deleteCookie(...(await blank.cookies()));
        await blank.close();
        const page = await suite.jawad.openTab(`${wiki.url}${task.start}`);
        if (task.ready) await page.waitForSelector(task.ready, { timeout: 30_000 });
        suite.provider.setResponder(task.model(wiki));
        const outcome = await runAgentTask(suite.jawad.host, { task: task.prompt, approve: () => 'allow-once', timeoutMs: 90_000 });
        const failures = outcome.steps.filter((step) => step.status !== 'done').map((step) => `${step.tool}: ${step.status} ${JSON.stringify(step.result ?? null)}`);
        expect(failures).toEqual([]);
        expect(outcome.answer.error?.message ?? '').toBe('');
        expect(outcome.answer.status).toBe('complete');
        await task.verify(wiki, page.url(), outcome.answer.content);
      }, 120_000);
    }
  });
}
