/**
 * Research mode when the browser stops Jawad's background mid-workflow (Chrome stops the service
 * worker, over CDP here; Firefox unloads the idle event page, with a short idle timeout here): the
 * sidebar reconnects, the workflow resumes from its journal, no step is lost, a step that may have
 * changed something is asked about again instead of replayed, and the report is the one an
 * uninterrupted run writes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { isWorkerOn, planJson, researchModel } from '../support/research-model';
import { decide, waitForPrompt } from './support/agent-flows';
import { browsersUnderTest, sleep, type JawadBrowser } from './support/extension-browser';
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

    /** Stops the background; a worker caught restarting is not listed as running yet, so try again. */
    async function stopNow(jawad: JawadBrowser): Promise<void> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await jawad.stopBackground();
        } catch (error) {
          if (attempt >= 10) throw error;
          await sleep(200);
        }
      }
    }

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

      // Chrome's worker is stopped over CDP while steps run. Firefox unloads its event page only when
      // idle: there each step's first model call hangs, so the page unloads mid-call by itself.
      const stallFirstOn = browserName === 'firefox' ? sixSteps().map((step) => step.site) : [];
      suite.provider.setResponder(researchModel({ plans: [planJson(sixSteps())], workerDelayMs: 400, stallFirstOn }));
      await runToReport(jawad, first);
      let stops = 0;
      let seen = suite.provider.requests.length;
      for (let done = 0; done < 6 && stops < 12; ) {
        // Stop the background while a step's model call is in flight, each time a little further on.
        const running = await jawad.sidebar.waitFor(
          (win) => win.document.querySelector<HTMLElement>('[data-testid=workflow-step][data-status=running]')?.dataset.site ?? (win.document.querySelector('[data-testid=workflow][data-status=done]') ? 'done' : null),
          null, 'a step to run', 30_000,
        );
        if (running === 'done') break;
        // A model call of this background (not of one stopped before) is in flight.
        await vi.waitFor(() => expect(suite.provider.requests.slice(seen).some((request) => isWorkerOn(request, running!))).toBe(true), { timeout: 10_000, interval: 20 }).catch(() => undefined);
        await stopNow(jawad);
        seen = suite.provider.requests.length;
        stops += 1;
        // Reconnected, or the workflow already ended and the idle background was let go again
        // (Firefox's short idle timeout can unload it once more before this looks).
        await jawad.sidebar.waitFor(
          (win) => win.document.querySelector('.connection')?.getAttribute('data-state') === 'connected' || win.document.querySelector('[data-testid=workflow][data-status=done]'),
          null, 'the sidebar to reconnect', 20_000,
        );
        done = (await workflowSteps(jawad.sidebar)).filter((step) => step.status === 'done').length;
      }
      await waitForWorkflow(jawad.sidebar, 'done', 90_000);
      expect(stops).toBeGreaterThan(1);
      expect((await workflowSteps(jawad.sidebar)).map((step) => step.status)).toEqual(Array(6).fill('done'));
      expect(stable((await shownReport(jawad.sidebar)).text)).toBe(uninterrupted);
      const restarts = (await jawad.sidebar.text('[data-testid=plan-changes]')).match(/background restarted; the workflow resumed/g) ?? [];
      expect(restarts.length).toBeGreaterThanOrEqual(2);
    }, 240_000);

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
