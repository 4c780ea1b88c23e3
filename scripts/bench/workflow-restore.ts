/**
 * Research mode's durability figures (Chromium: its service worker is stopped over CDP; Firefox's
 * event page is unloaded by a short idle timeout, in a browser launched for it — the wait for it
 * is not in the figure):
 *  - background restart → the sidebar shows the restored workflow: a MutationObserver in the
 *    sidebar stamps the moment the connection turns "reconnecting" (the old background is gone)
 *    and the moment the plan shows the resume line (the new one has read its journal and resumed);
 *  - a three-site read-only workflow, read one page at a time and two at a time: approval → report
 *    in the sidebar's clock (the scripted model answers at once, so this is Jawad's own time);
 *  - one journal write: the stored plan of that workflow written back with a journal line, in one
 *    read-write transaction over the extension's own IndexedDB stores — what WorkflowStore.save does
 *    per step — timed in an extension page of the same browser.
 */
import type { JawadBrowser, Sidebar } from '../../cli/launch';
import { saveProviderSettings } from '../../cli/agent-task';
import { startFixtureServer } from '../../test/support/fixture-server';
import { startProviderServer } from '../../test/support/provider-server';
import { planJson, researchModel } from '../../test/support/research-model';
import { approvePlan, startResearch, waitForWorkflow } from '../../test/e2e/support/research-flows';
import { summarize, type Summary } from './stats';

export interface WorkflowRestoreResult {
  restore: Summary;
  journalWrite: Summary;
  /** A three-site read-only workflow, approval → done, by how many pages are read at once. */
  wallTime: Record<'one' | 'two', Summary>;
}

/** Approval → report shown, in the sidebar's clock, for a three-site plan read `parallel` at a time. */
async function wallTime(sidebar: Sidebar, parallel: number, previous: string): Promise<{ ms: number; id: string }> {
  await startResearch(sidebar, 'Compare the Trail jacket at three shops');
  const id = await waitForWorkflow(sidebar, 'proposed', 30_000, previous);
  await sidebar.fill('.parallel select', String(parallel));
  await sidebar.eval((win) => {
    const stamps = { approved: win.performance.now(), done: 0 };
    (win as unknown as { __wall: typeof stamps }).__wall = stamps;
    new win.MutationObserver((_records, observer) => {
      if (win.document.querySelector('[data-testid=workflow][data-status=done]')) {
        stamps.done = win.performance.now();
        observer.disconnect();
      }
    }).observe(win.document.body, { subtree: true, childList: true, attributes: true });
    win.document.querySelector<HTMLButtonElement>('[data-testid=approve-plan]')!.click();
  }, null);
  const stamps = await sidebar.waitFor((win) => {
    const seen = (win as unknown as { __wall: { approved: number; done: number } }).__wall;
    return seen.done ? seen : null;
  }, null, 'the workflow to finish', 60_000);
  return { ms: stamps!.done - stamps!.approved, id };
}

const WALL_RUNS = 3;

interface Stamps {
  gone?: number;
  shown?: number;
}

async function watchRestore(sidebar: Sidebar): Promise<void> {
  await sidebar.eval((win) => {
    const stamps: Stamps = {};
    (win as unknown as { __restore: Stamps }).__restore = stamps;
    const connection = win.document.querySelector('.connection')!;
    const changes = win.document.getElementsByClassName('plan-changes');
    const before = changes[0]?.getElementsByTagName('li').length ?? 0;
    new win.MutationObserver(() => {
      if (stamps.gone === undefined && connection.getAttribute('data-state') === 'reconnecting') stamps.gone = win.performance.now();
      if (stamps.gone !== undefined && stamps.shown === undefined && (changes[0]?.getElementsByTagName('li').length ?? 0) > before) stamps.shown = win.performance.now();
    }).observe(win.document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  }, null);
}

async function restoreOnce(jawad: JawadBrowser, sidebar: Sidebar): Promise<number> {
  await watchRestore(sidebar);
  await jawad.stopBackground();
  const stamps = await sidebar.waitFor((win) => {
    const seen = (win as unknown as { __restore: Stamps }).__restore;
    return seen.shown !== undefined ? seen : null;
  }, null, 'the restored workflow', 20_000);
  return stamps!.shown! - stamps!.gone!;
}

/** Writes the workflow's stored plan (with a new id) and a journal line, `runs` times; removes them after. */
async function journalWrites(jawad: JawadBrowser, runs: number): Promise<number[]> {
  // Inline promises only: tsx would wrap named inner functions in a helper the page does not have.
  return jawad.host.evaluate(async (count) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('jawad');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const read = db.transaction('workflows').objectStore('workflows').getAll();
    const plans = await new Promise<Array<{ id: string }>>((resolve) => (read.onsuccess = () => resolve(read.result as Array<{ id: string }>)));
    const plan = plans[0];
    if (!plan) throw new Error('no stored workflow to write back');
    const times: number[] = [];
    const written: Array<[string, IDBValidKey]> = [];
    for (let i = 0; i < count; i++) {
      const copy = { ...plan, id: `bench-${i}`, updatedAt: Date.now() };
      const started = performance.now();
      const tx = db.transaction(['workflows', 'workflowJournal'], 'readwrite');
      tx.objectStore('workflows').put(copy);
      const key = tx.objectStore('workflowJournal').add({ workflowId: copy.id, at: copy.updatedAt, kind: 'step-done', stepId: 'bench' });
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      times.push(performance.now() - started);
      written.push([copy.id, key.result]);
    }
    const cleanup = db.transaction(['workflows', 'workflowJournal'], 'readwrite');
    for (const [id, seq] of written) {
      cleanup.objectStore('workflows').delete(id);
      cleanup.objectStore('workflowJournal').delete(seq);
    }
    await new Promise<void>((resolve) => (cleanup.oncomplete = () => resolve()));
    db.close();
    return times;
  }, runs);
}

interface ResearchServers {
  provider: Awaited<ReturnType<typeof startProviderServer>>;
  fixtures: Awaited<ReturnType<typeof startFixtureServer>>;
  other: Awaited<ReturnType<typeof startFixtureServer>>;
}

/** The servers a research run reads (two sites on 127.0.0.1, one on 127.0.0.2) and its model, for `measure`. */
async function withResearchServers<T>(jawad: JawadBrowser, measure: (servers: ResearchServers) => Promise<T>): Promise<T> {
  const [provider, fixtures, other] = await Promise.all([startProviderServer(), startFixtureServer(), startFixtureServer('127.0.0.2')]);
  try {
    await saveProviderSettings(jawad.host, { provider: 'custom', baseUrl: `${provider.url}/v1`, model: 'test-model', timeoutSeconds: 120 });
    return await measure({ provider, fixtures, other });
  } finally {
    await Promise.all([provider.close(), fixtures.close(), other.close()]);
  }
}

/**
 * A three-site workflow run one and two pages at a time, then journal writes of its stored plan.
 * `sidebar`: the open panel, reached through the host page (see pages.ts).
 */
export function measureResearchRuns(jawad: JawadBrowser, sidebar: Sidebar, runs: number): Promise<Omit<WorkflowRestoreResult, 'restore'>> {
  return withResearchServers(jawad, async ({ provider, fixtures, other }) => {
    const port = new URL(fixtures.url).port;
    provider.setResponder(researchModel({ plans: [planJson([
      { task: 'Price at Alpine', site: `${fixtures.url}/research/alpine.html` },
      { task: 'Price at Boreal', site: `http://localhost:${port}/research/boreal.html` },
      { task: 'Price at Cirrus', site: `${other.url}/research/cirrus.html` },
    ])] }));
    const times: Record<'one' | 'two', number[]> = { one: [], two: [] };
    let previous = '';
    for (let i = 0; i < WALL_RUNS; i++) {
      for (const [key, parallel] of [['one', 1], ['two', 2]] as const) {
        const run = await wallTime(sidebar, parallel, previous);
        times[key].push(run.ms);
        previous = run.id;
      }
    }
    return { journalWrite: summarize(await journalWrites(jawad, runs * 5)), wallTime: { one: summarize(times.one), two: summarize(times.two) } };
  });
}

/**
 * Background restarts while a workflow runs, `runs` times: connection lost → resume line shown.
 * Firefox: `jawad` must have been launched with a short `firefoxIdleTimeoutMs` (its idle timeout is
 * the only way to unload its event page; the wait for it is not in the figure).
 */
export function measureRestores(jawad: JawadBrowser, sidebar: Sidebar, runs: number): Promise<Summary> {
  return withResearchServers(jawad, async ({ provider, fixtures }) => {
    const page = `${fixtures.url}/research/alpine.html`;
    // The step's model call hangs: the workflow stays running, restart after restart.
    provider.setResponder(researchModel({ plans: [planJson([{ task: 'Price at Alpine', site: page }])], stallOn: 'alpine' }));
    const previous = await sidebar.eval((win) => win.document.querySelector<HTMLElement>('[data-testid=workflow]')?.dataset.id ?? '', null);
    await startResearch(sidebar, 'Price of the Trail jacket at Alpine');
    await waitForWorkflow(sidebar, 'proposed', 30_000, previous);
    await approvePlan(sidebar);
    await sidebar.waitFor((win) => win.document.querySelector('[data-testid=workflow-step][data-status=running]'), null, 'the step to run', 20_000);
    const restores: number[] = [];
    for (let i = 0; i < runs; i++) restores.push(await restoreOnce(jawad, sidebar));
    // Nothing of research mode may run on into the other measurements.
    await sidebar.click('[data-testid=workflow] [data-testid=cancel-workflow]');
    await waitForWorkflow(sidebar, 'cancelled');
    await sidebar.click('.top-bar nav button', 'Research');
    return summarize(restores);
  });
}
