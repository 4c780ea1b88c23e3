/**
 * Waiting for the page a tab goes to — after an action that may open one, and in the tools that
 * navigate (open_url, go_back, go_forward, reload_tab, new_tab) — with the browser's tab state.
 *
 * Two rules hold for every such wait. The page must be the new one: a navigation counts only once
 * the tab has begun loading since the wait began, so the "complete" of the page being left (a load
 * that finished a moment before) is never taken for the new page's. And a page that never finishes
 * loading (an ad frame whose server never answers, an image that hangs) must not hold the step: after
 * NAVIGATION_LOAD_MS the tab is taken as it stands, said to be still loading; what is there can be
 * read and used (a snapshot leaves a frame that does not answer aside). A page that could not be
 * loaded at all (no server there, no such name) is told as such, in words: the tab then shows the
 * browser's own error page, which no extension may read.
 */
import browser, { type Tabs, type WebRequest } from 'webextension-polyfill';
import { JawadError } from '../../protocol';
import { PAGE_LOAD_REPORT_LAG_MS } from '../../platform';
import { pageAsksToLeave, pageHeldTab, watchLeavePrompt } from './leave-prompt';
import { pause } from './pause';
import { handedToServiceWorker } from './service-worker';

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
  /** The page could not be loaded: the browser's reason (net::ERR_CONNECTION_REFUSED, NS_ERROR_UNKNOWN_HOST…). */
  failed?: string;
  /** The page being left did not let the tab go: it asks the user first (leave-prompt.ts). */
  held?: true;
  /** Nothing loaded, but the page moved the tab to another address of its own (history.pushState, a router's intercepted navigation). */
  withinPage?: true;
  /** Nothing began, and the tab shows the page it showed (a step back with no page to go back to; a jump to an entry of the same address). */
  unmoved?: true;
}

/** A page that could not be loaded: the browser's reason, and the address it failed at. */
interface LoadFailure {
  error: string;
  url: string;
}

/** What the browser says of a load that was only stopped (another navigation, a download, the user): no failure. */
const ABORTED = /^(net::ERR_ABORTED|NS_BINDING_ABORTED)$/;

/**
 * Follows, from now on, the loads of the page itself (main frame) of one tab, or of any tab when the
 * tab is not made yet: which are still under way, and why the last one failed. Firefox tells a
 * failed load after the tab reports the page being left "complete" again, and shows its error page
 * only then: a load under way means the page being left is not the one arrived at.
 */
function watchPageLoads(tabId?: number) {
  /** The loads under way: request id → tab. */
  const pending = new Map<string, number>();
  const failures = new Map<number, LoadFailure>();
  /** The tabs a load was asked of since the watch began. */
  const requested = new Set<number>();
  const onStart = (details: WebRequest.OnBeforeRequestDetailsType) => {
    if (details.frameId !== 0) return;
    pending.set(details.requestId, details.tabId);
    requested.add(details.tabId);
  };
  /** The tabs one of whose loads since the watch began was told to end (answered, failed, taken by a service worker). */
  const ended = new Set<number>();
  const end = (details: { requestId: string; tabId: number; frameId: number }) => {
    pending.delete(details.requestId);
    if (details.frameId === 0) ended.add(details.tabId);
  };
  const onEnd = (details: WebRequest.OnCompletedDetailsType) => end(details);
  // A load the page's service worker answers is never reported to end (Firefox); one it lets through begins again.
  const onRedirect = (details: WebRequest.OnBeforeRedirectDetailsType) => handedToServiceWorker(details) && end(details);
  const onError = (details: WebRequest.OnErrorOccurredDetailsType) => {
    end(details);
    if (details.frameId === 0 && !ABORTED.test(details.error)) failures.set(details.tabId, { error: details.error, url: details.url });
  };
  const filter: WebRequest.RequestFilter = { urls: ['<all_urls>'], types: ['main_frame'], ...(tabId === undefined ? {} : { tabId }) };
  browser.webRequest.onBeforeRequest.addListener(onStart, filter);
  browser.webRequest.onCompleted.addListener(onEnd, filter);
  browser.webRequest.onErrorOccurred.addListener(onError, filter);
  browser.webRequest.onBeforeRedirect.addListener(onRedirect, filter);
  return {
    /**
     * Resolves once the browser has the listeners: Firefox adds a webRequest listener in its parent
     * process a round trip later, and the start and failure of a load that fails at once (a refused
     * connection on this machine) would be missed by listeners added a moment too late (3 of 10
     * tries). Any call's answer comes after the browser has taken the calls made before it.
     */
    ready: () => browser.runtime.getPlatformInfo().then(() => undefined, () => undefined),
    failure: (id: number) => failures.get(id),
    underWay: (id: number) => [...pending.values()].includes(id),
    requested: (id: number) => requested.has(id),
    ended: (id: number) => ended.has(id),
    stop() {
      browser.webRequest.onBeforeRequest.removeListener(onStart);
      browser.webRequest.onCompleted.removeListener(onEnd);
      browser.webRequest.onErrorOccurred.removeListener(onError);
      browser.webRequest.onBeforeRedirect.removeListener(onRedirect);
    },
  };
}

type PageLoads = ReturnType<typeof watchPageLoads>;

/** Why a page could not be loaded, in words a model can pass on, with the browser's own code. */
export function describeLoadFailure(code: string): string {
  const reasons: Array<[RegExp, string]> = [
    [/CONNECTION_REFUSED/, 'the server refused the connection (nothing answers at that address)'],
    [/NAME_NOT_RESOLVED|UNKNOWN_HOST/, 'no site has that name (it could not be resolved)'],
    [/TIMED_OUT|NET_TIMEOUT/, 'the server did not answer in time'],
    [/INTERNET_DISCONNECTED|OFFLINE/, 'the browser is offline'],
    [/CERT|SSL|SEC_ERROR/, 'its security certificate is not trusted'],
    [/REDIRECT/, 'it sends the browser round in a loop of redirects'],
    [/RESET|CLOSED|INTERRUPT|EMPTY_RESPONSE/, 'the connection broke off before the page came'],
    [/UNSAFE_PORT|PORT_ACCESS/, 'the browser does not open pages on that port'],
    [/BLOCKED/, 'the browser or an extension blocked it'],
  ];
  const reason = reasons.find(([pattern]) => pattern.test(code))?.[1];
  return reason ? `${reason} (${code})` : `the browser reports ${code}`;
}

/** The error a tool answers with when the page it opened could not be loaded. */
export function loadFailed(url: string, code: string, tabId?: number): JawadError {
  const where = tabId === undefined ? '' : ` Tab ${tabId} shows the browser's error page.`;
  return new JawadError('EXECUTION_ERROR', `${url} could not be loaded: ${describeLoadFailure(code)}.${where}`, { url, error: code });
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

/** How a wait for the tab's page goes: what it follows, and what it waits past. */
interface LoadWait {
  /** The loads of the tab's page, as webRequest tells them. */
  loads?: PageLoads;
  /** The address of the page being left. */
  left?: string;
  /** Where the navigation goes, when known (an address asked for, a link's): another address than `left`. */
  goingTo?: string;
  /** The tab as last read. */
  from?: Tabs.Tab;
  /** Whether the tab shows its page (default: not loading). */
  done?: (tab: Tabs.Tab) => boolean;
  /** Whether the page being left keeps the tab (it asks the user first: leave-prompt.ts). */
  held?: () => boolean;
}

/** Whether two addresses are of one document: equal, as the browser writes them, but for the #fragment. */
function sameDocument(a: string, b: string): boolean {
  const written = (url: string) => URL.parse(url)?.href.split('#')[0] ?? url;
  return written(a) === written(b);
}

/**
 * The tab once its page has loaded (or, when it failed, once the tab shows the browser's error page
 * at the address that failed), or as it stands NAVIGATION_LOAD_MS on. The page being left counts as
 * arrived at only once no load of the tab is under way, and, when the navigation goes elsewhere,
 * once one was told to end: Firefox shows the page being left "complete" again while a load fails,
 * and may tell webRequest's events of it (its start, its failure) only after that, even after
 * showing its error page (80 ms later here, 1 click in 5).
 */
async function untilLoaded(tabId: number, signal: AbortSignal, { loads, left, goingTo, from, done = loaded, held = () => false }: LoadWait): Promise<Arrival> {
  const elsewhere = goingTo !== undefined && left !== undefined && !sameDocument(goingTo, left);
  const arrived = (tab: Tabs.Tab) => {
    if (held()) return true;
    const failed = loads?.failure(tabId);
    // The failed request's address has no #fragment; the tab's may.
    if (failed) return loaded(tab) && tab.url !== undefined && sameDocument(tab.url, failed.url);
    if (tab.url !== left) return done(tab);
    return done(tab) && !loads?.underWay(tabId) && !(elsewhere && !loads?.ended(tabId));
  };
  let tab = await pollTab(tabId, arrived, NAVIGATION_LOAD_MS, signal, from);
  if (held()) return { tab, stillLoading: false, held: true };
  // Shown, but not yet told: a failure may still be reported (Firefox), and the page shown is then its error page.
  if (loads && goingTo !== undefined && !loads.ended(tabId)) tab = await pollTab(tabId, () => loads.ended(tabId), PAGE_LOAD_REPORT_LAG_MS, signal, tab);
  const failed = loads?.failure(tabId);
  return { tab, stillLoading: failed === undefined && !done(tab), ...(failed === undefined ? {} : { failed: failed.error }) };
}

/** Notices a navigation of the tab that begins from now on (an action, a call), to wait for its page. */
export function watchNavigation(tabId: number) {
  let started = false;
  const onUpdated = (id: number, change: Tabs.OnUpdatedChangeInfoType) => {
    if (id === tabId && change.status === 'loading') started = true;
  };
  browser.tabs.onUpdated.addListener(onUpdated);
  const loads = watchPageLoads(tabId);
  const stop = () => {
    browser.tabs.onUpdated.removeListener(onUpdated);
    loads.stop();
  };
  // A page that was still loading before (a frame that never loads) is no sign of a navigation.
  const before = browser.tabs.get(tabId).then((tab) => ({ loading: tab.status === 'loading', url: tab.url }), () => ({ loading: false, url: undefined }));
  return {
    stop,
    ready: loads.ready,
    /**
     * Where the navigation that began brought the tab, or undefined when none began. `expected`:
     * one is coming (the page said so, or a tool asked for it), so it is given NAVIGATION_START_MS to
     * begin. `asked`: a tool asked the browser for it, or an action of the top frame announced it,
     * with the page's `beforeunload` marked either way (leave-prompt.ts), so the page being left may
     * hold the tab (`held`): Firefox then begins nothing, Chromium reports the tab loading but loads nothing.
     */
    async settle(signal: AbortSignal, expected: boolean, asked = false, goingTo?: string): Promise<Arrival | undefined> {
      let held = false;
      let probe: ReturnType<typeof setTimeout> | undefined;
      /** The probe of the page being left, once started: its answer is also the last check's. */
      let probing: Promise<boolean> | undefined;
      try {
        const { loading: wasLoading, url: left } = await before;
        // Nothing loaded instead of the page being left: Firefox then begins nothing; Chromium reports
        // the tab loading, and holds the page. An address of that very document with a #fragment only scrolls it.
        const scrollsOnly = goingTo !== undefined && left !== undefined && (URL.parse(goingTo)?.hash ?? '') !== '' && sameDocument(goingTo, left);
        const keptOnPageLeft = (tab: Tabs.Tab) => !scrollsOnly && tab.url === left && !loads.requested(tabId);
        const holds = () => browser.tabs.get(tabId).then(async (tab) => keptOnPageLeft(tab) && (await pageAsksToLeave(tabId)), () => false);
        if (asked) {
          probe = setTimeout(() => {
            probing = holds();
            void probing.then((holding) => (held = holding));
          }, NAVIGATION_START_MS);
        }
        const begun = (tab: Tabs.Tab) => started || (tab.status === 'loading' && !wasLoading) || loads.failure(tabId) !== undefined;
        const first = await pollTab(tabId, begun, expected ? NAVIGATION_START_MS : 0, signal);
        if (begun(first)) return await untilLoaded(tabId, signal, { loads, left, goingTo, from: first, held: () => held });
        // Nothing began: the page moved the tab within itself (which Chromium reports as loading and
        // Firefox does not), asks whether to leave (Firefox), or the tab went to an entry of the page it shows.
        if (first.url !== left) return { tab: first, stillLoading: false, withinPage: true };
        return asked && keptOnPageLeft(first) && (await (probing ?? pageAsksToLeave(tabId))) ? { tab: first, stillLoading: false, held: true } : undefined;
      } finally {
        clearTimeout(probe);
        stop();
      }
    },
  };
}

/**
 * Runs a navigation of the tab (`go`: load an address, go back, reload) and resolves with where it
 * brought the tab. One not seen beginning is a jump within the page (which Firefox does not report
 * as loading), or a load in a tab that was loading already: the tab as it is, or once it loaded.
 * Fails when the page being left kept the tab (pageHeldTab). `goingTo`: the address asked for.
 */
export async function navigateTab(tabId: number, go: () => Promise<unknown>, signal: AbortSignal, goingTo?: string): Promise<Arrival> {
  const navigation = watchNavigation(tabId);
  let leavePrompt: { stop(): void } | undefined;
  try {
    [, leavePrompt] = await Promise.all([navigation.ready(), watchLeavePrompt(tabId)]);
    await go();
  } catch (error) {
    navigation.stop();
    leavePrompt?.stop();
    throw error;
  }
  const arrival = await navigation.settle(signal, true, true, goingTo);
  // The page is still there (it kept the tab, or the tab went to another entry of it): it is no longer watched.
  if (!arrival || arrival.held || arrival.withinPage) leavePrompt.stop();
  if (arrival?.held) throw pageHeldTab(arrival.tab.url ?? 'being left');
  if (arrival) return arrival;
  const tab = await browser.tabs.get(tabId);
  return loaded(tab) ? { tab, stillLoading: false, unmoved: true } : untilLoaded(tabId, signal, { from: tab });
}

/** Opens a tab (`create`) on `url` and resolves with where it is once its page has loaded, or NAVIGATION_LOAD_MS on. */
export async function openTabAndWait(create: () => Promise<Tabs.Tab>, url: string, signal: AbortSignal): Promise<Arrival> {
  // The tab's id is known only once it is made, by when its page may have failed already.
  const loads = watchPageLoads();
  try {
    await loads.ready();
    const tab = await create();
    // A new tab holds about:blank before the page asked for begins loading, "complete" in Firefox.
    return await untilLoaded(tab.id!, signal, { loads, left: 'about:blank', goingTo: url, from: tab, done: (current) => loaded(current) && current.url !== 'about:blank' });
  } finally {
    loads.stop();
  }
}
