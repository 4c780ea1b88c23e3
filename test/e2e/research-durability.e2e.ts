/**
 * Research mode when the browser stops Jawad's background mid-workflow (Chrome stops the service
 * worker, over CDP here; Firefox unloads the idle event page, with a short idle timeout here): the
 * sidebar reconnects, the workflow resumes from its journal, no step is lost, a step that may have
 * changed something is asked about again instead of replayed, and the report is the one an
 * uninterrupted run writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { planJson, researchModel } from '../support/research-model';
import { decide, waitForPrompt } from './support/agent-flows';
import { browsersUnderTest, type JawadBrowser } from './support/extension-browser';
import { configureProvider, useFreshBrowserPerTest } from './support/flows';
import { approvePlan, openResearch, shownReport, startResearch, waitForWorkflow, workflowSteps } from './support/research-flows';

const FIREFOX_IDLE_MS = 2_000;
const SHOPS = ['alpine', 'boreal', 'cirrus'] as const;

/** The report without what differs between any two runs: tab ids and times. */
const stable = (report: string) => report.replace(/\(tab \d+, [^)]*UTC\)/g, '(tab, time)');

for (const browserName of browsersUnderTest()) {
  describe(`research mode survives a stopped background in ${browserName}`, () => {
    const suite = useFreshBrowserPerTest(browserName);
    let fixtures: FixtureServer;
    let other: FixtureServer;
    beforeAll(async () => {
      fixtures = await startFixtureServer();
      other = await startFixtureServer('127.0.0.2');
    });
    afterAll(async () => {
      await fixtures?.close();
      await other?.close();
    });

    /** Six read steps over three sites (each shop twice, on two sites). */
    const sixSteps = () => {
      const port = new URL(fixtures.url).port;
      const hosts = [fixtures.url, `http://localhost:${port}`, other.url];
      return SHOPS.flatMap((shop, i) => [
        { task: `Price at ${shop}`, site: `${hosts[i]}/research/${shop}.html` },
        { task: `Price at ${shop} again`, site: `${hosts[(i + 1) % 3]}/research/${shop}.html` },
      ]);
    };

    async function ready(): Promise<JawadBrowser> {
      const jawad = await suite.launch({ firefoxIdleTimeoutMs: FIREFOX_IDLE_MS });
      await configureProvider(jawad.sidebar, { provider: 'custom', baseUrl: `${suite.provider.url}/v1`, model: 'test-model' });
      await openResearch(jawad.sidebar);
      return jawad;
    }

    async function runToReport(jawad: JawadBrowser, previous = ''): Promise<string> {
      await startResearch(jawad.sidebar, 'Compare the Trail jacket across the shops');
      const id = await waitForWorkflow(jawad.sidebar, 'proposed', 30_000, previous);
      await approvePlan(jawad.sidebar);
      await waitForWorkflow(jawad.sidebar, 'running');
      return id;
    }

    it('is stopped again and again during a six-step workflow and still writes the uninterrupted run’s report', async () => {
      const jawad = await ready();
      suite.provider.setResponder(researchModel({ plans: [planJson(sixSteps())], workerDelayMs: 400 }));
      const first = await runToReport(jawad);
      await waitForWorkflow(jawad.sidebar, 'done', 60_000);
      const firstReport = await shownReport(jawad.sidebar);
      expect(firstReport.links).toHaveLength(6);
      const uninterrupted = stable(firstReport.text);

      await runToReport(jawad, first);
      let stops = 0;
      for (let done = 0; done < 6 && stops < 6; ) {
        // Stop the background while a step runs, each time a little further on.
        await jawad.sidebar.waitFor((win) => win.document.querySelector('[data-testid=workflow-step][data-status=running]') || win.document.querySelector('[data-testid=workflow][data-status=done]'), null, 'a step to run', 30_000);
        const status = await jawad.sidebar.eval((win) => win.document.querySelector<HTMLElement>('[data-testid=workflow]')?.dataset.status, null);
        if (status === 'done') break;
        await jawad.stopBackground().catch(() => undefined); // it may have just stopped by itself
        stops += 1;
        await jawad.sidebar.waitFor((win) => win.document.querySelector('.connection')?.getAttribute('data-state') === 'connected', null, 'the sidebar to reconnect', 20_000);
        done = (await workflowSteps(jawad.sidebar)).filter((step) => step.status === 'done').length;
      }
      await waitForWorkflow(jawad.sidebar, 'done', 90_000);
      expect(stops).toBeGreaterThan(1);
      expect((await workflowSteps(jawad.sidebar)).map((step) => step.status)).toEqual(Array(6).fill('done'));
      expect(stable((await shownReport(jawad.sidebar)).text)).toBe(uninterrupted);
      expect(await jawad.sidebar.text('[data-testid=plan-changes]')).toMatch(/background restarted; the workflow resumed/);
    });

    it('asks again about a step that may have submitted something, shows its prompt again, and submits once', async () => {
      const jawad = await ready();
      const order = `${fixtures.url}/research/order.html`;
      const submits = () => fixtures.requests.filter((request) => request.url.startsWith('/research/ordered.html')).length;
      suite.provider.setResponder(researchModel({
        plans: [planJson([{ task: 'Order the Trail jacket', site: order, permissions: ['read', 'interact'] }])],
        actions: { 'order.html': [{ tool: 'click', args: { selector: '#order' } }] },
      }));
      await runToReport(jawad);
      const prompt = await waitForPrompt(jawad.sidebar);
      expect(prompt.text).toContain('Place order');

      await jawad.stopBackground();
      await jawad.sidebar.waitFor((win) => win.document.querySelector('[data-testid=workflow-step][data-status=confirm]'), null, 'the step to wait for the user’s word', 30_000);
      expect(await jawad.sidebar.eval((win) => win.document.querySelector('[data-testid=permission-prompt]') === null, null)).toBe(true);
      expect(submits()).toBe(0);

      await jawad.sidebar.click('[data-testid=rerun-step]');
      const again = await waitForPrompt(jawad.sidebar, prompt.stepId);
      expect(again.text).toContain('Place order');
      expect(submits()).toBe(0);
      await decide(jawad.sidebar, 'allow-once');
      await waitForWorkflow(jawad.sidebar, 'done', 60_000);
      expect(submits()).toBe(1);
    });
  });
}
