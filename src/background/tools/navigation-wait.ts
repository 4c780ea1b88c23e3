/**
 * Waiting for the page a tab goes to — after an action that may open one, and in the tools that
 * navigate (open_url, go_back, go_forward, reload_tab, new_tab) — with the browser's tab state.
 *
 * Two rules hold for every such wait. The page must be the new one: a navigation counts only once
 * the tab has begun loading since the wait began, so the "complete" of the page being left (a load
 * that finished a moment before) is never taken for the new page's. And a page that never finishes
 * loading (an ad frame whose server never answers, an image that hangs) must not hold the step: after
 * NAVIGATION_LOAD_MS the tab is taken as it stands, said to be still loading; what is there can be
 * read and used (a snapshot leaves a frame that does not answer aside).
 */
import browser, { type Tabs } from 'webextension-polyfill';
import { pause } from './pause';

/**
 * How long a navigation may take to begin: browsers start loading a moment after the click or the
 * call (Firefox visibly later than Chromium). Without this wait the next snapshot could read the
 * page being left.
 */
const NAVIGATION_START_MS = 1_000;
/** How long to wait for the page a navigation leads to before reading it anyway. */
const NAVIGATION_LOAD_MS = 8_000;
const POLL_MS = 25;

/** Where a navigation brought the tab: the tab once its page loaded, or as it stood when the wait ran out. */
export interface Arrival {
  tab: Tabs.Tab;
  stillLoading: boolean;
}

/** Re-reads the tab (starting from `from`, when already read) until `done` or the time is up; returns the last state. */
async function pollTab(tabId: number, done: (tab: Tabs.Tab) => boolean, ms: number, signal: AbortSignal, from?: Tabs.Tab): Promise<Tabs.Tab> {
  const deadline = Date.now() + ms;
  let tab = from ?? (await browser.tabs.get(tabId));
  while (!done(tab) && Date.now() < deadline && !signal.aborted) {
    await pause(POLL_MS);
    tab = await browser.tabs.get(tabId);
  }
  return tab;
}

const loaded = (tab: Tabs.Tab) => tab.status !== 'loading';

/** The tab once its page has loaded, or as it stands NAVIGATION_LOAD_MS on. */
async function untilLoaded(tabId: number, signal: AbortSignal, from?: Tabs.Tab, done = loaded): Promise<Arrival> {
  const tab = await pollTab(tabId, done, NAVIGATION_LOAD_MS, signal, from);
  return { tab, stillLoading: !done(tab) };
}

/** Notices a navigation of the tab that begins from now on (an action, a call), to wait for its page. */
export function watchNavigation(tabId: number) {
  let started = false;
  const onUpdated = (id: number, change: Tabs.OnUpdatedChangeInfoType) => {
    if (id === tabId && change.status === 'loading') started = true;
  };
  browser.tabs.onUpdated.addListener(onUpdated);
  const stop = () => browser.tabs.onUpdated.removeListener(onUpdated);
  // A page that was still loading before (a frame that never loads) is no sign of a navigation.
  const loadingBefore = browser.tabs.get(tabId).then((tab) => tab.status === 'loading', () => false);
  return {
    stop,
    /**
     * Where the navigation that began brought the tab, or undefined when none began. `expected`:
     * one is coming (the page said so, or a tool asked for it), so it is given NAVIGATION_START_MS to begin.
     */
    async settle(signal: AbortSignal, expected: boolean): Promise<Arrival | undefined> {
      try {
        const wasLoading = await loadingBefore;
        const begun = (tab: Tabs.Tab) => started || (tab.status === 'loading' && !wasLoading);
        const first = await pollTab(tabId, begun, expected ? NAVIGATION_START_MS : 0, signal);
        return begun(first) ? await untilLoaded(tabId, signal, first) : undefined;
      } finally {
        stop();
      }
    },
  };
}

/**
 * Runs a navigation of the tab (`go`: load an address, go back, reload) and resolves with where it
 * brought the tab. One not seen beginning is a jump within the page (which Firefox does not report
 * as loading), or a load in a tab that was loading already: the tab as it is, or once it loaded.
 */
export async function navigateTab(tabId: number, go: () => Promise<unknown>, signal: AbortSignal): Promise<Arrival> {
  const navigation = watchNavigation(tabId);
  try {
    await go();
  } catch (error) {
    navigation.stop();
    throw error;
  }
  const arrival = await navigation.settle(signal, true);
  if (arrival) return arrival;
  const tab = await browser.tabs.get(tabId);
  return loaded(tab) ? { tab, stillLoading: false } : untilLoaded(tabId, signal, tab);
}

/** A tab just created for `url`: where it is once its page has loaded, or NAVIGATION_LOAD_MS on. */
export function newTabArrival(tab: Tabs.Tab, signal: AbortSignal): Promise<Arrival> {
  // A new tab holds about:blank before the page asked for begins loading, "complete" in Firefox.
  return untilLoaded(tab.id!, signal, tab, (current) => loaded(current) && current.url !== 'about:blank');
}
