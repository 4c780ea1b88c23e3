/**
 * Research mode in the real sidebar: the provider test server plays planner, step worker and report
 * writer; three fixture shops on three different local sites are compared in tabs the workflow
 * opens, and the report cites what was really on each page.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { isWorkerOn, planJson, researchModel } from '../support/research-model';
import { browsersUnderTest } from './support/extension-browser';
import { openView, useReadyJawad } from './support/flows';
import type { Sidebar } from './support/extension-browser';
import { decide, waitForPrompt } from './support/agent-flows';
import { activateTab, closeWindowAndReturnTo, inTab, openFocusedWindow, maskState, reloadTab, tabIdOf, tabText, workflowTabIds, approvePlan, openTabUrls, planChanges, planSites, removePlanStep, shownReport, startResearch, tabGroups, waitForWorkflow, workflowSteps } from './support/research-flows';

const INTENT = 'Compare the price of the Trail jacket at Alpine, Boreal and Cirrus';

/** Chooses in Settings how many pages research mode reads at once, and waits until it is stored. */
async function setResearchParallel(sidebar: Sidebar, parallel: number): Promise<void> {
  await openView(sidebar, 'Settings');
  await sidebar.fill('[data-testid=research-parallel]', String(parallel));
  await sidebar.waitFor((win, wanted) => win.document.querySelector<HTMLSelectElement>('[data-testid=research-parallel]')?.dataset.stored === wanted, String(parallel), 'the setting to be stored');
}

for (const browserName of browsersUnderTest()) {
  describe(`research mode in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    let other: FixtureServer;
    beforeAll(async () => {
      other = await startFixtureServer('127.0.0.2');
    });
    afterAll(() => other?.close());

    /** Three shops on three sites: 127.0.0.1, localhost and 127.0.0.2. */
    const shops = () => {
      const port = new URL(suite.fixtures.url).port;
      return {
        alpine: `${suite.fixtures.url}/research/alpine.html`,
        boreal: `http://localhost:${port}/research/boreal.html`,
        cirrus: `${other.url}/research/cirrus.html`,
      };
    };
    const visits = (path: string) => [...suite.fixtures.requests, ...other.requests].filter((request) => request.url === path).map((request) => request.host);

    it('compares three sites in tabs of its own and ends with a report citing each price, leaving the user’s tab alone', async () => {
      const { jawad, fixtures, provider } = suite;
      const { alpine, boreal, cirrus } = shops();
      const mine = `${fixtures.url}/article.html`;
      await jawad.openTab(mine);
      const tabsBefore = await openTabUrls(jawad);
      provider.setResponder(researchModel({
        // Small models chatter around the JSON: the planner still finds it.
        plans: [`Here is my plan:\n\`\`\`json\n${planJson([
          { task: 'Find the price of the Trail jacket at Alpine', site: alpine },
          { task: 'Find the price of the Trail jacket at Boreal', site: boreal },
          { task: 'Find the price of the Trail jacket at Cirrus', site: cirrus },
        ])}\n\`\`\``],
        workerDelayMs: 300,
      }));
      await startResearch(jawad.sidebar, INTENT);
      await waitForWorkflow(jawad.sidebar, 'proposed');
      expect(await planSites(jawad.sidebar)).toEqual([alpine, boreal, cirrus]);
      const sitesLine = await jawad.sidebar.text('[data-testid=plan-sites]');
      for (const host of [new URL(alpine).host, new URL(boreal).host, new URL(cirrus).host]) expect(sitesLine).toContain(host);

      await approvePlan(jawad.sidebar);
      await waitForWorkflow(jawad.sidebar, 'running');
      // While it runs, its tabs are grouped and named after the task where the browser has groups.
      const grouped = await jawad.sidebar.waitFor((win) => win.document.querySelector('[data-testid=workflow-tabs]')?.textContent, null, 'the task’s tabs');
      const groups = await tabGroups(jawad);
      if (groups) {
        expect(grouped).toMatch(/group “Task\([0-9a-f]{6}\)”/);
        expect(groups).toEqual([expect.objectContaining({ title: expect.stringMatching(/^Task\([0-9a-f]{6}\)$/) })]);
        expect(groups[0]!.tabs).toBeGreaterThan(0);
      }

      await waitForWorkflow(jawad.sidebar, 'done', 60_000);
      const report = await shownReport(jawad.sidebar);
      expect(report.text).toMatch(/Alpine Outfitters sells the Trail jacket for 149\.00 € \[\d\]/);
      expect(report.text).toMatch(/Boreal Gear sells the Trail jacket for 129\.50 € \[\d\]/);
      expect(report.text).toMatch(/Cirrus Outdoor sells the Trail jacket for 139\.90 € \[\d\]/);
      // A sentence the evidence does not back is marked, not passed off as sourced.
      expect(report.text).toContain('Prices may change tomorrow. (no evidence)');
      const sources = report.links.map((link) => link.href);
      expect(sources).toEqual([alpine, boreal, cirrus].sort((a, b) => sources.indexOf(a) - sources.indexOf(b)));
      expect(new Set(sources)).toEqual(new Set([alpine, boreal, cirrus]));
      expect(report.links.every((link) => link.target === '_blank')).toBe(true);
      expect(report.text).toMatch(/“Price: 129\.50 €”/);

      // Each shop was read on its own site; the workflow's tabs are gone, the user's is as it was.
      expect(visits('/research/alpine.html')).toEqual([new URL(alpine).host]);
      expect(visits('/research/boreal.html')).toEqual([new URL(boreal).host]);
      expect(visits('/research/cirrus.html')).toEqual([new URL(cirrus).host]);
      await jawad.sidebar.waitFor((win) => !win.document.querySelector('[data-testid=workflow-tabs]'), null, 'the task’s tabs to close');
      expect((await openTabUrls(jawad)).sort()).toEqual(tabsBefore.sort());
      if (groups) expect(await tabGroups(jawad)).toEqual([]);
      expect(suite.fixtures.requests.filter((request) => request.url === '/article.html')).toHaveLength(1);

      // The report is in history, with its sources.
      await jawad.sidebar.click('.top-bar nav button', 'History');
      await jawad.sidebar.waitFor((win) => Array.from(win.document.querySelectorAll('section.history li')).some((item) => (item as HTMLElement).innerText.includes('Research: Compare')), null, 'the report in history');

      // Search finds the report by its words, highlighted, and opens it.
      await jawad.sidebar.fill('input.history-search', 'outfitters sells');
      const hit = await jawad.sidebar.waitFor(
        (win) => {
          const item = win.document.querySelector<HTMLElement>('.search-results li[data-kind="report"]');
          return item ? { title: item.querySelector<HTMLElement>('.hit-title')!.innerText, marks: Array.from(item.querySelectorAll('mark'), (m) => m.textContent) } : undefined;
        },
        null,
        'the report among the search results',
      );
      expect(hit?.title).toContain('research report');
      expect(new Set(hit?.marks.map((mark) => mark?.toLowerCase()))).toEqual(new Set(['outfitters', 'sells']));
      await jawad.sidebar.click('.search-results li[data-kind="report"] .search-hit');
      const opened = await jawad.sidebar.waitFor((win) => win.document.querySelector<HTMLElement>('article.message.focused .markdown')?.innerText, null, 'the report opened from search');
      expect(opened).toMatch(/Alpine Outfitters sells the Trail jacket for 149\.00 € \[\d\]/);
    });

    it('never visits a site the user removed from the plan', async () => {
      const { jawad, provider } = suite;
      const { alpine, boreal, cirrus } = shops();
      const before = visits('/research/boreal.html').length;
      provider.setResponder(researchModel({ plans: [planJson([
        { task: 'Price at Alpine', site: alpine },
        { task: 'Price at Boreal', site: boreal },
        { task: 'Price at Cirrus', site: cirrus },
      ])] }));
      await startResearch(jawad.sidebar, INTENT);
      await waitForWorkflow(jawad.sidebar, 'proposed');
      await removePlanStep(jawad.sidebar, boreal);
      expect(await planSites(jawad.sidebar)).toEqual([alpine, cirrus]);
      await approvePlan(jawad.sidebar);
      await waitForWorkflow(jawad.sidebar, 'done', 60_000);
      expect(await planChanges(jawad.sidebar)).toContain('You removed “Price at Boreal”');
      const report = await shownReport(jawad.sidebar);
      expect(report.links.map((link) => link.href).sort()).toEqual([alpine, cirrus].sort());
      expect(report.text).not.toContain('Boreal Gear');
      expect(visits('/research/boreal.html')).toHaveLength(before);
      expect((await workflowSteps(jawad.sidebar)).map((step) => step.status)).toEqual(['done', 'done']);
    });

    it('reads one page at a time when Settings says so: the plan card starts from the stored setting and the steps run one after another', async () => {
      const { jawad, provider } = suite;
      const { alpine, boreal } = shops();
      await setResearchParallel(jawad.sidebar, 1);
      provider.setResponder(researchModel({ plans: [planJson([{ task: 'Price at Alpine', site: alpine }, { task: 'Price at Boreal', site: boreal }])], workerDelayMs: 100 }));
      const seen = provider.requests.length;
      await startResearch(jawad.sidebar, INTENT);
      await waitForWorkflow(jawad.sidebar, 'proposed');
      expect(await jawad.sidebar.eval((win) => win.document.querySelector<HTMLSelectElement>('.parallel select')?.value, null)).toBe('1');
      await approvePlan(jawad.sidebar);
      await waitForWorkflow(jawad.sidebar, 'done', 60_000);
      const calls = provider.requests.slice(seen);
      const lastAlpine = calls.findLastIndex((request) => isWorkerOn(request, alpine));
      const firstBoreal = calls.findIndex((request) => isWorkerOn(request, boreal));
      expect(lastAlpine).toBeGreaterThan(-1);
      expect(firstBoreal).toBeGreaterThan(lastAlpine);
      await setResearchParallel(jawad.sidebar, 2);
    });

    it('cancels mid-step: the step stops, nothing after it runs, and the task’s tabs close', async () => {
      const { jawad, provider } = suite;
      const { alpine, cirrus } = shops();
      const before = visits('/research/alpine.html').length;
      provider.setResponder(researchModel({ plans: [planJson([
        { task: 'Price at Cirrus', site: cirrus, permissions: ['read', 'navigate'] },
        { task: 'Price at Alpine', site: alpine },
      ])], stallOn: 'cirrus' }));
      const tabsBefore = await openTabUrls(jawad);
      await startResearch(jawad.sidebar, INTENT);
      await waitForWorkflow(jawad.sidebar, 'proposed');
      await approvePlan(jawad.sidebar);
      await jawad.sidebar.waitFor((win) => win.document.querySelector('[data-testid=workflow-step][data-status=running]'), null, 'the first step to run');
      // The worker's model call for the step is in flight (and hangs) when the user cancels.
      await vi.waitFor(() => expect(provider.requests.some((request) => isWorkerOn(request, 'cirrus'))).toBe(true), { timeout: 10_000, interval: 20 });
      await jawad.sidebar.click('[data-testid=workflow] [data-testid=cancel-workflow]');
      await waitForWorkflow(jawad.sidebar, 'cancelled');
      expect((await workflowSteps(jawad.sidebar)).map((step) => step.status)).toEqual(['cancelled', 'cancelled']);
      expect(visits('/research/alpine.html')).toHaveLength(before);
      await jawad.sidebar.waitFor((win) => !win.document.querySelector('[data-testid=workflow-tabs]'), null, 'the task’s tabs to close');
      expect((await openTabUrls(jawad)).sort()).toEqual(tabsBefore.sort());
    });

    it('follows a task’s tab that goes to another site, and says it left the plan', async () => {
      const { jawad, provider } = suite;
      const { cirrus } = shops();
      provider.setResponder(researchModel({ plans: [planJson([{ task: 'Price at Cirrus', site: cirrus }])], stallOn: 'cirrus' }));
      await startResearch(jawad.sidebar, INTENT);
      await waitForWorkflow(jawad.sidebar, 'proposed');
      await approvePlan(jawad.sidebar);
      await vi.waitFor(() => expect(provider.requests.some((request) => isWorkerOn(request, 'cirrus'))).toBe(true), { timeout: 10_000, interval: 20 });
      const [tabId] = await workflowTabIds(jawad.sidebar);
      // A link in the page takes the tab elsewhere while the step's model call is under way.
      const elsewhere = `${suite.fixtures.url}/plain.html`;
      await inTab(jawad, tabId!, `location.href = ${JSON.stringify(elsewhere)}`);
      await jawad.sidebar.waitFor((win, url) => win.document.querySelector(`[data-testid=workflow-tabs] li`)?.textContent === url, elsewhere, 'the tab list to follow the tab');
      expect(await planChanges(jawad.sidebar)).toContain('went to http://127.0.0.1');
      expect(await planChanges(jawad.sidebar)).toContain('which the plan does not visit');
      await jawad.sidebar.click('[data-testid=workflow] [data-testid=cancel-workflow]');
      await waitForWorkflow(jawad.sidebar, 'cancelled');
    });

    it('shows a failed step and the re-plan that replaces it', async () => {
      const { jawad, fixtures, provider } = suite;
      const { alpine } = shops();
      const missing = `${fixtures.url}/research/discontinued.html`;
      provider.setResponder(researchModel({
        plans: [planJson([{ task: 'Price at the discontinued shop', site: missing }])],
        replan: planJson([{ task: 'Price at Alpine instead', site: alpine }]),
      }));
      await startResearch(jawad.sidebar, INTENT);
      await waitForWorkflow(jawad.sidebar, 'proposed');
      await approvePlan(jawad.sidebar);
      await waitForWorkflow(jawad.sidebar, 'done', 60_000);
      const steps = await workflowSteps(jawad.sidebar);
      expect(steps.map((step) => [step.site, step.status])).toEqual([[missing, 'failed'], [alpine, 'done']]);
      expect(steps[0]!.text).toContain('the page shows no price');
      const changes = await planChanges(jawad.sidebar);
      expect(changes).toMatch(/Step “Price at the discontinued shop” failed \(the page shows no price for the jacket\.\)\. Re-planned: “Price at Alpine instead”/);
      expect((await shownReport(jawad.sidebar)).text).toContain('149.00 €');
    });

    it('masks the tab a step drives only while the user looks at it, brings the mask back after a reload, and the agent’s clicks still land', async () => {
      const { jawad, fixtures, provider } = suite;
      const counter = `${fixtures.url}/research/counter.html`;
      const mine = `${fixtures.url}/article.html`;
      await jawad.openTab(mine);
      provider.setResponder(researchModel({
        plans: [planJson([{ task: 'Add the Trail jacket to the wishlist', site: counter, permissions: ['read', 'interact'] }])],
        actions: { 'counter.html': [{ tool: 'click', args: { selector: '#wish' } }, { tool: 'click', args: { selector: '#wish' } }] },
      }));
      await startResearch(jawad.sidebar, 'Put the Trail jacket on my wishlist');
      await waitForWorkflow(jawad.sidebar, 'proposed');
      await jawad.sidebar.click('.keep-tabs input');
      await approvePlan(jawad.sidebar);
      const first = await waitForPrompt(jawad.sidebar);
      const [tabId] = await workflowTabIds(jawad.sidebar);
      const myTab = await tabIdOf(jawad, mine);

      // Opened in the background: the user is not looking at it, so no mask.
      expect(await maskState(jawad, tabId!)).not.toBe('visible');
      await activateTab(jawad, tabId!);
      await vi.waitFor(async () => expect(await maskState(jawad, tabId!)).toBe('visible'), { timeout: 10_000, interval: 50 });
      // The user's own click lands on the mask, not on the page.
      const page = (await jawad.browser.pages()).find((candidate) => candidate.url() === counter);
      expect(page).toBeDefined();
      await page!.click('#wish');
      expect(await tabText(jawad, tabId!, '#wishes')).toBe('Wishlist: 0');
      await activateTab(jawad, myTab);
      await vi.waitFor(async () => expect(await maskState(jawad, tabId!)).toBe('hidden'), { timeout: 10_000, interval: 50 });
      await activateTab(jawad, tabId!);
      await vi.waitFor(async () => expect(await maskState(jawad, tabId!)).toBe('visible'), { timeout: 10_000, interval: 50 });
      // The user turns to another window: the window loses focus, the mask goes; back, it returns.
      const otherWindow = await openFocusedWindow(jawad, mine);
      await vi.waitFor(async () => expect(await maskState(jawad, tabId!)).toBe('hidden'), { timeout: 10_000, interval: 50 });
      await closeWindowAndReturnTo(jawad, otherWindow, tabId!);
      await vi.waitFor(async () => expect(await maskState(jawad, tabId!)).toBe('visible'), { timeout: 10_000, interval: 50 });
      await inTab(jawad, tabId!, 'window.beforeReload = true');
      await reloadTab(jawad, tabId!);
      await vi.waitFor(async () => expect(await inTab(jawad, tabId!, 'window.beforeReload === undefined && document.readyState === "complete"')).toBe(true), { timeout: 10_000, interval: 50 });
      await vi.waitFor(async () => expect(await maskState(jawad, tabId!)).toBe('visible'), { timeout: 10_000, interval: 50 });

      // The page the first click was judged on is gone (reloaded): deny it; the agent's next click, allowed, goes through the mask.
      await decide(jawad.sidebar, 'deny');
      await waitForPrompt(jawad.sidebar, first.stepId);
      expect(await maskState(jawad, tabId!)).toBe('visible');
      await decide(jawad.sidebar, 'allow-once');
      await waitForWorkflow(jawad.sidebar, 'done', 60_000);
      expect(await tabText(jawad, tabId!, '#wishes')).toBe('Wishlist: 1');
      expect(await maskState(jawad, tabId!)).toBe('hidden');
      // What the agent read of the page never held the mask.
      const read = provider.requests.filter((request) => isWorkerOn(request, 'counter.html')).map((request) => JSON.stringify(request.json));
      expect(read.some((body) => body.includes('Wishlist: 1'))).toBe(true);
      expect(read.some((body) => body.includes('Jawad is working'))).toBe(false);
    });
  });
}
