/** What a user does in research mode: ask, review the plan card, edit it, approve, read the report. */
import type { WorkflowPlan } from '../../../src/protocol';
import type { JawadBrowser, Sidebar } from './extension-browser';

export async function openResearch(sidebar: Sidebar): Promise<void> {
  const open = await sidebar.eval((win) => Boolean(win.document.querySelector('section.research')), null);
  if (!open) await sidebar.click('.top-bar nav button', 'Research');
  await sidebar.waitFor((win) => win.document.querySelector('section.research'), null, 'the research view');
}

export async function startResearch(sidebar: Sidebar, intent: string): Promise<void> {
  await openResearch(sidebar);
  await sidebar.waitFor((win) => win.document.querySelector('#research-intent'), null, 'the research box');
  await sidebar.fill('#research-intent', intent);
  await sidebar.click('.research-intent button[type=submit]');
}

/** Waits until the workflow on screen has this status (and, when given, is not `previousId`). */
export async function waitForWorkflow(sidebar: Sidebar, status: WorkflowPlan['status'], timeoutMs = 30_000, previousId = ''): Promise<string> {
  return sidebar.waitFor(
    (win, { wanted, previous }) => {
      const head = win.document.querySelector<HTMLElement>('[data-testid=workflow]');
      return head && head.dataset.status === wanted && head.dataset.id !== previous ? head.dataset.id : null;
    },
    { wanted: status, previous: previousId },
    `the workflow to be ${status}`,
    timeoutMs,
  ) as Promise<string>;
}

export const planSites = (sidebar: Sidebar): Promise<string[]> =>
  sidebar.eval((win) => Array.from(win.document.querySelectorAll<HTMLElement>('[data-testid=plan-step]')).map((step) => step.dataset.site ?? ''), null);

export async function removePlanStep(sidebar: Sidebar, site: string): Promise<void> {
  const removed = await sidebar.eval((win, wanted) => {
    const step = Array.from(win.document.querySelectorAll<HTMLElement>('[data-testid=plan-step]')).find((item) => item.dataset.site === wanted);
    step?.querySelector<HTMLButtonElement>('.remove-step')?.click();
    return Boolean(step);
  }, site);
  if (!removed) throw new Error(`No plan step for ${site}`);
}

export const approvePlan = (sidebar: Sidebar) => sidebar.click('[data-testid=approve-plan]');

export interface ShownWorkflowStep {
  site: string;
  status: string;
  text: string;
}

export const workflowSteps = (sidebar: Sidebar): Promise<ShownWorkflowStep[]> =>
  sidebar.eval(
    (win) => Array.from(win.document.querySelectorAll<HTMLElement>('[data-testid=workflow-step]')).map((step) => ({ site: step.dataset.site ?? '', status: step.dataset.status ?? '', text: step.innerText })),
    null,
  );

export interface ShownReport {
  text: string;
  links: Array<{ href: string; text: string; target: string }>;
}

export const shownReport = (sidebar: Sidebar): Promise<ShownReport> =>
  sidebar.eval((win) => {
    const report = win.document.querySelector<HTMLElement>('[data-testid=workflow-report]');
    return {
      text: report?.innerText ?? '',
      links: Array.from(report?.querySelectorAll<HTMLAnchorElement>('a') ?? []).map((a) => ({ href: a.href, text: a.innerText, target: a.target })),
    };
  }, null);

export const planChanges = (sidebar: Sidebar): Promise<string> => sidebar.text('[data-testid=plan-changes]');

/** Every tab's URL, through the extension API of the host page (puppeteer does not see every tab in Firefox). */
export async function openTabUrls(jawad: JawadBrowser): Promise<string[]> {
  return jawad.host.evaluate(async () => {
    const api = (globalThis as unknown as { browser: { tabs: { query(q: object): Promise<Array<{ url?: string }>> } } }).browser;
    return (await api.tabs.query({})).map((tab) => tab.url ?? '');
  });
}

export interface ShownGroup {
  title: string;
  color: string;
  tabs: number;
}

/** The browser's tab groups (null where the browser has none). */
export async function tabGroups(jawad: JawadBrowser): Promise<ShownGroup[] | null> {
  return jawad.host.evaluate(async () => {
    const api = (globalThis as unknown as { browser: { tabGroups?: { query(q: object): Promise<Array<{ id: number; title?: string; color: string }>> }; tabs: { query(q: object): Promise<Array<{ groupId?: number }>> } } }).browser;
    if (!api.tabGroups) return null;
    const groups = await api.tabGroups.query({});
    const tabs = await api.tabs.query({});
    return groups.map((group) => ({ title: group.title ?? '', color: group.color, tabs: tabs.filter((tab) => tab.groupId === group.id).length }));
  });
}

/** The workflow's tabs as the sidebar lists them. */
export const workflowTabIds = (sidebar: Sidebar): Promise<number[]> =>
  sidebar.eval((win) => Array.from(win.document.querySelectorAll<HTMLElement>('[data-testid=workflow-tabs] li')).map((item) => Number(item.dataset.tabId)), null);

/** Runs `source` in the tab's page (its main world: isolated worlds may not eval), through the host page's scripting API. */
export async function inTab<T>(jawad: JawadBrowser, tabId: number, source: string): Promise<T> {
  return jawad.host.evaluate(async (id, code) => {
    const api = (globalThis as unknown as { browser: { scripting: { executeScript(o: object): Promise<Array<{ result: unknown }>> } } }).browser;
    const [result] = await api.scripting.executeScript({ target: { tabId: id }, world: 'MAIN', func: (text: string) => (0, eval)(text), args: [code] });
    return result?.result;
  }, tabId, source) as Promise<T>;
}

/** Whether Jawad's mask is over the tab: 'visible', 'hidden' (installed) or 'none'. */
export const maskState = (jawad: JawadBrowser, tabId: number): Promise<string> =>
  inTab(jawad, tabId, "(() => { const m = document.querySelector('jawad-mask'); return m ? (m.hidden ? 'hidden' : 'visible') : 'none'; })()");

export const tabText = (jawad: JawadBrowser, tabId: number, selector: string): Promise<string> =>
  inTab(jawad, tabId, `document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`);

export async function activateTab(jawad: JawadBrowser, tabId: number): Promise<void> {
  await jawad.host.evaluate(async (id) => {
    const api = (globalThis as unknown as { browser: { tabs: { update(id: number, p: object): Promise<unknown> } } }).browser;
    await api.tabs.update(id, { active: true });
  }, tabId);
}

export async function reloadTab(jawad: JawadBrowser, tabId: number): Promise<void> {
  await jawad.host.evaluate(async (id) => {
    const api = (globalThis as unknown as { browser: { tabs: { reload(id: number): Promise<unknown> } } }).browser;
    await api.tabs.reload(id);
  }, tabId);
}

/** The id of the tab showing this URL. */
export async function tabIdOf(jawad: JawadBrowser, url: string): Promise<number> {
  return jawad.host.evaluate(async (wanted) => {
    const api = (globalThis as unknown as { browser: { tabs: { query(q: object): Promise<Array<{ id?: number; url?: string }>> } } }).browser;
    return (await api.tabs.query({})).find((tab) => tab.url === wanted)?.id ?? -1;
  }, url);
}

/** Opens a new browser window, focused (the user turns to another window): returns its id. */
export async function openFocusedWindow(jawad: JawadBrowser, url: string): Promise<number> {
  return jawad.host.evaluate(async (address) => {
    const api = (globalThis as unknown as { browser: { windows: { create(o: object): Promise<{ id?: number }> } } }).browser;
    return (await api.windows.create({ url: address, focused: true })).id ?? -1;
  }, url);
}

/**
 * Closes the other window and focuses the tab's own again, as the user does when turning back to
 * it. Headless Chromium reports no focus for a window already on top: unfocus it first.
 */
export async function closeWindowAndReturnTo(jawad: JawadBrowser, windowId: number, tabId: number): Promise<void> {
  await jawad.host.evaluate(async (other, id) => {
    const api = (globalThis as unknown as { browser: { tabs: { get(id: number): Promise<{ windowId?: number }> }; windows: { update(id: number, o: object): Promise<unknown>; remove(id: number): Promise<unknown> } } }).browser;
    await api.windows.remove(other);
    const { windowId: own } = await api.tabs.get(id);
    await api.windows.update(own!, { focused: false });
    await api.windows.update(own!, { focused: true });
  }, windowId, tabId);
}
