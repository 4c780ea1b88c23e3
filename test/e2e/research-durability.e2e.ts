/**
 * Research mode when the browser stops Jawad's background mid-workflow (Chrome stops the service
 * worker, over CDP here; Firefox unloads the idle event page, with a short idle timeout here): the
 * sidebar reconnects, the workflow resumes from its journal, no step is lost, a step that may have
 * changed something is asked about again instead of replayed, and the report is the one an
 * uninterrupted run writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { isWorkerOn, planJson, researchModel } from '../support/research-model';
import { decide, waitForPrompt, type ShownPrompt } from './support/agent-flows';
import { browsersUnderTest, sleep, type JawadBrowser } from './support/extension-browser';
import { configureProvider, useFreshBrowserPerTest } from './support/flows';
import { runResearch } from '../../cli/research';
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

    /** The three shops on three origins: nine read steps, each on its own URL. */
    const readSteps = () => {
      const port = new URL(fixtures.url).port;
      const hosts = [fixtures.url, `http://localhost:${port}`, other.url];
      return hosts.flatMap((host) => SHOPS.map((shop) => ({ task: `Price at ${shop} (${new URL(host).hostname})`, site: `${host}/research/${shop}.html` })));
    };
    const orderStep = () => ({ task: 'Order the Trail jacket', site: `${fixtures.url}/research/order.html`, permissions: ['read', 'interact'] });
    /** Ten steps: the order (which submits, and asks first) in the middle of nine reads. */
    const tenSteps = () => {
      const reads = readSteps();
      return [...reads.slice(0, 4), orderStep(), ...reads.slice(4)];
    };
    const submits = () => fixtures.requests.filter((request) => request.url.startsWith('/research/ordered.html')).length;
    const orderScript = { actions: { 'order.html': [{ tool: 'click', args: { selector: '#order' } }] } };

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

    /** `stoppable`: Firefox unloads the idle event page after FIREFOX_IDLE_MS (else after its usual 30 s). */
    async function ready(stoppable = true): Promise<JawadBrowser> {
      const jawad = await suite.launch(stoppable ? { firefoxIdleTimeoutMs: FIREFOX_IDLE_MS } : {});
      await configureProvider(jawad.sidebar, { provider: 'custom', baseUrl: `${suite.provider.url}/v1`, model: 'test-model' });
      await openResearch(jawad.sidebar);
      return jawad;
    }

    async function runToReport(jawad: JawadBrowser): Promise<void> {
      await startResearch(jawad.sidebar, 'Compare the Trail jacket across the shops');
      await waitForWorkflow(jawad.sidebar, 'proposed');
      await approvePlan(jawad.sidebar);
      await waitForWorkflow(jawad.sidebar, 'running');
    }

    it('`jawad research` follows the workflow across a stopped background to its report', async () => {
      const steps = readSteps().slice(0, 2);
      // The first step's first model call hangs until the background is stopped under it.
      suite.provider.setResponder(researchModel({ plans: [planJson(steps)], stallFirstOn: [steps[0]!.site] }));
      const requestsBefore = suite.provider.requests.length;
      const jawad = await ready();
      const lines: string[] = [];
      const output = { line: (text: string) => void lines.push(text), progress: () => undefined };
      const options = { browser: browserName, settings: { provider: 'custom' as const, baseUrl: `${suite.provider.url}/v1`, model: 'test-model', timeoutSeconds: 30 }, approve: 'allow-once' as const, approveCritical: false, timeoutMs: 90_000, headed: false, intent: 'Compare the Trail jacket at two shops', approvePlan: true };
      const exit = runResearch(jawad.host, options, output);
      const stalled = () => suite.provider.requests.slice(requestsBefore).some((request) => isWorkerOn(request, steps[0]!.site));
      for (let waited = 0; !stalled(); waited += 100) {
        if (waited > 30_000) throw new Error('The first step never asked the model');
        await sleep(100);
      }
      await stopNow(jawad);
      expect(await exit).toBe(0);
      const report = JSON.parse(lines.at(-1)!) as { type: string; status: string; sources: Array<{ url: string }> };
      expect(report).toMatchObject({ type: 'report', status: 'done' });
      expect(report.sources.map((source) => source.url).sort()).toEqual(steps.map((step) => step.site).sort());
      expect(lines.map((line) => JSON.parse(line) as { type: string; status?: string }).filter((line) => line.type === 'workflow').map((line) => line.status)).toContain('running');
    });

    it('is stopped at every step of a ten-step workflow: no step lost, one submit, the prompt asked again, the uninterrupted run’s report', async () => {
      // The reference run, in a browser that does not stop Jawad's background (with a 2 s idle
      // timeout Firefox would unload it whenever a model call takes a while, even mid-order).
      const reference = await ready(false);
      suite.provider.setResponder(researchModel({ plans: [planJson(tenSteps())], workerDelayMs: 100, ...orderScript }));
      await runToReport(reference);
      await waitForPrompt(reference.sidebar);
      await decide(reference.sidebar, 'allow-once');
      await waitForWorkflow(reference.sidebar, 'done', 60_000);
      const firstReport = await shownReport(reference.sidebar);
      expect(firstReport.links.length).toBeGreaterThanOrEqual(9);
      const uninterrupted = stable(firstReport.text);
      await reference.close();
      const submitsBefore = submits();
      expect(submitsBefore).toBe(1);

      // Each read step's first model call hangs, so every step is caught mid-call by a stop (Firefox
      // unloads the idle event page by itself then; Chrome's worker is stopped over CDP). The order
      // step is stopped while its prompt waits for the user.
      const reads = readSteps().map((step) => step.site);
      suite.provider.setResponder(researchModel({ plans: [planJson(tenSteps())], workerDelayMs: 100, stallFirstOn: reads, ...orderScript }));
      const requestsBefore = suite.provider.requests.length;
      const jawad = await ready();
      await runToReport(jawad);
      const stoppedIn = new Set<string>();
      let firstPrompt: ShownPrompt | undefined;
      let askedAgain = false;
      const stalledSites = () => reads.filter((site) => suite.provider.requests.slice(requestsBefore).some((request) => isWorkerOn(request, site)));
      const promptShown = () => jawad.sidebar.eval((win) => win.document.querySelector('[data-testid=permission-prompt]') !== null, null);
      /** "Run it again" on the step waiting for the user's word, once it no longer waits. */
      const giveWord = async () => {
        await jawad.sidebar.click('[data-testid=rerun-step]');
        await jawad.sidebar.waitFor((win) => !win.document.querySelector('[data-testid=workflow-step][data-status=confirm]'), null, 'the step to run again');
      };
      let lastSeen = Date.now();
      for (;;) {
        if (Date.now() - lastSeen > 30_000) throw new Error(`The workflow went nowhere for 30 s: ${JSON.stringify(await workflowSteps(jawad.sidebar))}`);
        const next = await jawad.sidebar.waitFor(
          (win) => {
            if (win.document.querySelector('[data-testid=workflow][data-status=done]')) return 'done';
            if (win.document.querySelector('[data-testid=permission-prompt]')) return 'prompt';
            return win.document.querySelector('[data-testid=workflow-step][data-status=confirm]') ? 'confirm' : null;
          },
          null, 'a prompt or the workflow’s end', 300,
        ).catch(() => (stalledSites().some((site) => !stoppedIn.has(site)) ? 'stalled' : null));
        if (next === 'done') break;
        if (next) lastSeen = Date.now();
        if ((next === 'prompt' || next === 'confirm') && !stoppedIn.has(orderStep().site)) {
          if (next === 'prompt') {
            firstPrompt = await waitForPrompt(jawad.sidebar);
            expect(firstPrompt.text).toContain('Place order');
            await stopNow(jawad);
          } // else Firefox unloaded the background, idle while the prompt waited, before the test looked.
          stoppedIn.add(orderStep().site);
          // The restarted background cannot take an answer to the old prompt: it asks for the user's word.
          await jawad.sidebar.waitFor((win) => win.document.querySelector('[data-testid=workflow-step][data-status=confirm]'), null, 'the order to wait for the user’s word', 30_000);
          expect(await promptShown()).toBe(false);
          expect(submits()).toBe(submitsBefore);
          await giveWord();
        } else if (next === 'prompt' && !askedAgain && stoppedIn.has(orderStep().site)) {
          // The workflow went on past the order meanwhile: its prompt comes once the steps in flight end.
          const again = await waitForPrompt(jawad.sidebar, firstPrompt?.stepId);
          expect(again.text).toContain('Place order');
          askedAgain = true;
          await decide(jawad.sidebar, 'allow-once');
          await jawad.sidebar.waitFor((win, id) => win.document.querySelector<HTMLElement>('[data-testid=permission-prompt]')?.dataset.stepId !== id, again.stepId, 'the answered prompt to go');
        } else if (next === 'confirm') {
          // A later stop (a read step's hung call) caught the order's prompt asked again: the order
          // waits for the user's word once more, still unsubmitted.
          expect(await promptShown()).toBe(false);
          expect(submits()).toBe(submitsBefore);
          await giveWord();
        } else if (next === 'stalled') {
          // Every step whose call hangs now is stopped in, by this one stop.
          for (const site of stalledSites()) stoppedIn.add(site);
          await stopNow(jawad);
        }
      }
      expect(askedAgain).toBe(true);
      await waitForWorkflow(jawad.sidebar, 'done', 90_000);
      expect([...stoppedIn].sort()).toEqual(tenSteps().map((step) => step.site).sort());
      expect((await workflowSteps(jawad.sidebar)).map((step) => step.status)).toEqual(Array(10).fill('done'));
      expect(submits() - submitsBefore).toBe(1);
      expect(stable((await shownReport(jawad.sidebar)).text)).toBe(uninterrupted);
      // A hung call ends only with its background: at least one restart per pair of read steps run
      // side by side, and one for the order.
      const restarts = (await jawad.sidebar.text('[data-testid=plan-changes]')).match(/background restarted; the workflow resumed/g) ?? [];
      expect(restarts.length).toBeGreaterThanOrEqual(Math.ceil(reads.length / 2) + 1);
    }, 300_000);

    it('asks again about a step that may have submitted something, shows its prompt again, and submits once', async () => {
      const jawad = await ready();
      const before = submits();
      suite.provider.setResponder(researchModel({ plans: [planJson([orderStep()])], ...orderScript }));
      await runToReport(jawad);
      const prompt = await waitForPrompt(jawad.sidebar);
      expect(prompt.text).toContain('Place order');

      await jawad.stopBackground();
      await jawad.sidebar.waitFor((win) => win.document.querySelector('[data-testid=workflow-step][data-status=confirm]'), null, 'the step to wait for the user’s word', 30_000);
      expect(await jawad.sidebar.eval((win) => win.document.querySelector('[data-testid=permission-prompt]') === null, null)).toBe(true);
      expect(submits() - before).toBe(0);

      await jawad.sidebar.click('[data-testid=rerun-step]');
      const again = await waitForPrompt(jawad.sidebar, prompt.stepId);
      expect(again.text).toContain('Place order');
      expect(submits() - before).toBe(0);
      await decide(jawad.sidebar, 'allow-once');
      await waitForWorkflow(jawad.sidebar, 'done', 60_000);
      expect(submits() - before).toBe(1);
    });
  });
}
