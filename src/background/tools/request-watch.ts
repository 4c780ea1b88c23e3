/**
 * Follows the requests (XHR, fetch) a tab starts from the moment an action begins, and waits for
 * them to be answered and for the page to show the answer — as a person waits out "Loading…"
 * before reading on. A frame the action sends to another page (a form a click loads into a panel,
 * by a link's target or by script) is waited for too, until that page has loaded. Requests that
 * began before the action (a long poll, a stream) are not waited for. On a page a service worker
 * controls, the worker's own requests stand in for the page's it takes (service-worker.ts).
 *
 * The action waits for the requests the browser has reported by the time the page answered it
 * (Chromium reports them first). Firefox reports a request a few milliseconds after the page's
 * answer, so the watch goes on listening after the action and the tab's next tool call (a
 * snapshot, another action) waits for what it caught, giving a late report as long as reports
 * lately took (at least REQUEST_REPORT_LAG_MS; a snapshot, which reads the page meanwhile, at least
 * REQUEST_REPORT_LAG_BEFORE_SNAPSHOT_MS) from the answer — nothing more for an action that started
 * nothing when the next call comes later than that (a model's answer takes far longer).
 * A click that opens another page is followed there: the requests the new page sends as it opens
 * (a navigation tree built by script) are part of what the click led to, and the tab's next call
 * gives the new page's script a moment (OPENING_MS) to start them, since it may do so only after
 * the page has loaded.
 */
import browser, { type WebRequest } from 'webextension-polyfill';
import { CAPS, childRequestId, Settled, TAKEN_OVER_LINK_MS } from '../../protocol';
import { REQUEST_REPORT_LAG_BEFORE_SNAPSHOT_MS, REQUEST_REPORT_LAG_MS } from '../../platform';
import { askPageAgent, readInDocument, type TargetTab } from '../page-scripts';
import { noteDialogs } from './dialog-aftermath';
import { pause } from './pause';
import { PendingRequests } from './pending-requests';
import { ReportLag } from './report-lag';
import { handedToServiceWorker, serviceWorkerOrigin } from './service-worker';
import { originOf } from '../harbor/site';

/** The longest one wait for an action's requests and their effect lasts; then the page is read as it stands. */
const REQUESTS_MS = 5_000;
/** How long the page must hold still after the answers came to count as done showing them. */
const QUIET_MS = 100;
/** The longest wait for the page to hold still after each round of answers (a spinner never does). */
const QUIET_MAX_MS = 1_000;
/**
 * How long after a new page loaded its script may still start loading what it shows: phpMyAdmin
 * asks for its navigation tree 30–110 ms after the load event on a busy machine, and replaces the
 * tree the page loaded with — a snapshot read before that lists links about to be removed.
 */
const OPENING_MS = 250;
/** The longest wait for a report that may still come (a browser under heavy load). */
const MAX_REPORT_WAIT_MS = 250;
/** A late report is expected half as late again this much later. */
const LAG_HALF_LIFE_MS = 10_000;
/** The most answered addresses the page is asked to have at once (SETTLE takes 50). */
const MAX_RECEIVED = 50;
/** A tab not touched again this long after its action stops being watched. */
const WATCH_MS = 30_000;

interface ActionRequests {
  requests: PendingRequests;
  /** The acting frame's requests answered since the page was last asked to settle: address, and when reported. */
  received: Array<{ url: string; reportedAt: number }>;
  /** Frames whose new page was answered since then: waited for until that page has loaded. */
  framesAnswered: number[];
  /** What began loading another page since the action began: a frame of the tab, the tab itself. */
  loadsStarted: { frame: boolean; page: boolean };
  /** When the page answered the action (0 until then). */
  answeredAt: number;
  /** When the page the action led to loaded (0: it stayed on its page). */
  openedAt: number;
  /** Until when the page's script may still start what a link it took over stands for (0: no such link). */
  scriptMayStartUntil: number;
  /** The frame that acted: asked to hold still once the answers came. */
  frameId: number;
  /** The origin of the tab's page: its service worker's requests are the action's too ('' for none). */
  origin: string;
  started(details: RequestDetails): void;
  /** `answered`: it completed (else it failed or was cancelled). */
  ended(details: RequestDetails, answered: boolean): void;
  stop(): void;
}

/** How late reports of requests come lately; a report still to come may take as long. */
const reportLag = new ReportLag(REQUEST_REPORT_LAG_MS, MAX_REPORT_WAIT_MS, LAG_HALF_LIFE_MS);
const reportLagNow = () => reportLag.at(Date.now());
const noteReportLag = (observed: number) => reportLag.note(observed, Date.now());

/** Each tab's last action's watch, until the tab's next tool call waits it out. */
const watches = new Map<number, ActionRequests>();

/**
 * `frameId`: the frame that asked; for a frame's own page (`sub_frame`), the frame it loads into.
 * `tabId` -1: a service worker's request, from `initiator` (Chromium) or `originUrl` (Firefox).
 */
type RequestDetails = { requestId: string; tabId: number; url: string; frameId: number; type: string; timeStamp: number; initiator?: string; originUrl?: string };

/**
 * The watches a request belongs to: its tab's, or for a service worker's fetch (the worker's
 * navigations stand for no frame of a tab), those of pages of its origin.
 */
function watchesOf(details: RequestDetails): ActionRequests[] {
  const origin = serviceWorkerOrigin(details);
  if (origin === '') return [watches.get(details.tabId)].filter((watch) => watch !== undefined);
  return details.type === 'xmlhttprequest' ? [...watches.values()].filter((watch) => watch.origin === origin) : [];
}

/**
 * One set of webRequest listeners for every watch, kept while an agent acts and removed once no
 * tab has been watched for LISTEN_IDLE_MS: adding and removing listeners per action costs Firefox a
 * round trip to its parent process each, and listeners kept for good would wake the background for
 * every request of every tab.
 */
const LISTEN_IDLE_MS = 60_000;
let listening = false;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

const onStart = (details: RequestDetails) => watchesOf(details).forEach((watch) => watch.started(details));
const onAnswer = (details: RequestDetails) => watchesOf(details).forEach((watch) => watch.ended(details, true));
const onFail = (details: RequestDetails) => watchesOf(details).forEach((watch) => watch.ended(details, false));
// Taken by the page's service worker: the worker's own request, if it makes one, is followed instead.
const onRedirect = (details: RequestDetails & { redirectUrl?: string; statusCode?: number }) => handedToServiceWorker(details) && onFail(details);

function listen(): void {
  clearTimeout(idleTimer);
  if (listening) return;
  const filter: WebRequest.RequestFilter = { urls: ['<all_urls>'], types: ['xmlhttprequest', 'sub_frame', 'main_frame'] };
  browser.webRequest.onBeforeRequest.addListener(onStart, filter);
  browser.webRequest.onCompleted.addListener(onAnswer, filter);
  browser.webRequest.onErrorOccurred.addListener(onFail, filter);
  browser.webRequest.onBeforeRedirect.addListener(onRedirect, filter);
  listening = true;
}

function stopListeningWhenIdle(): void {
  if (watches.size > 0 || !listening) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (watches.size > 0) return;
    browser.webRequest.onBeforeRequest.removeListener(onStart);
    browser.webRequest.onCompleted.removeListener(onAnswer);
    browser.webRequest.onErrorOccurred.removeListener(onFail);
    browser.webRequest.onBeforeRedirect.removeListener(onRedirect);
    listening = false;
  }, LISTEN_IDLE_MS);
}

/** Starts following the requests an action on this tab (showing `pageUrl`) sets off. */
export function watchActionRequests(tabId: number, frameId: number, pageUrl: string | undefined): void {
  watches.get(tabId)?.stop();
  const requests = new PendingRequests();
  const received: ActionRequests['received'] = [];
  const framesAnswered: number[] = [];
  // The address each of the acting frame's requests was made for, which names its entry in the
  // page's resource timeline (a redirect's later address would not), and when it was reported.
  const asked = new Map<string, { url: string; reportedAt: number }>();
  const watch: ActionRequests = {
    requests,
    received,
    framesAnswered,
    loadsStarted: { frame: false, page: false },
    answeredAt: 0,
    openedAt: 0,
    scriptMayStartUntil: 0,
    frameId,
    origin: originOf(pageUrl ?? ''),
    started(details) {
      // The tab's own next page is followed by the action (page-action.ts), not waited for here.
      if (details.type === 'main_frame') return void (watch.loadsStarted.page = true);
      noteReportLag(Date.now() - details.timeStamp);
      // A frame's page is not in its parent's resource timeline when a link's target sent it there.
      // A worker's request (Firefox gives it frame 0) need not be for an address the page asked for.
      if (details.tabId !== -1 && details.type === 'xmlhttprequest' && details.frameId === frameId && details.url.length <= CAPS.url) asked.set(details.requestId, { url: details.url, reportedAt: Date.now() });
      requests.started(details.requestId);
      if (details.type === 'sub_frame') watch.loadsStarted.frame = true;
    },
    ended(details, answered) {
      const request = asked.get(details.requestId);
      if (answered && request !== undefined && received.length < MAX_RECEIVED) received.push(request);
      if (answered && details.type === 'sub_frame' && !framesAnswered.includes(details.frameId)) framesAnswered.push(details.frameId);
      asked.delete(details.requestId);
      requests.ended(details.requestId);
    },
    stop() {
      clearTimeout(expiry);
      if (watches.get(tabId) === watch) watches.delete(tabId);
      stopListeningWhenIdle();
    },
  };
  const expiry = setTimeout(() => watch.stop(), WATCH_MS);
  watches.set(tabId, watch);
  listen();
}

/**
 * The navigation the watch follows has loaded `pageUrl`: from now on a request it started that
 * Firefox has yet to report is given as long as reports lately took, as after a click's answer,
 * and the new page's script OPENING_MS to start its own; its service worker's requests count.
 */
export function navigationLoaded(tabId: number, pageUrl: string | undefined): void {
  const watch = watches.get(tabId);
  if (!watch) return;
  watch.answeredAt = watch.openedAt = Date.now();
  watch.origin = originOf(pageUrl ?? '');
}

/** Whether, since the tab's last action began, a frame of it began loading another page and the tab itself did not. */
export function onlyFramesLoaded(tabId: number): boolean {
  const loads = watches.get(tabId)?.loadsStarted;
  return loads?.frame === true && !loads.page;
}

/** The page's script took over the link the action clicked: what it starts a moment later is waited for too. */
export function linkTakenOver(tabId: number): void {
  const watch = watches.get(tabId);
  if (watch) watch.scriptMayStartUntil = Date.now() + TAKEN_OVER_LINK_MS;
}

/** Whether a request the tab's last action set off is still under way (as far as the browser has reported). */
export function actionRequestsPending(tabId: number): boolean {
  return (watches.get(tabId)?.requests.pendingCount ?? 0) > 0;
}

/** The action failed: nothing it set off is waited for. */
export function forgetActionRequests(tabId: number): void {
  watches.get(tabId)?.stop();
}

/**
 * How long (ms) a request of the tab's last action, none of which was reported yet, may still be
 * reported or, on the page it opened, still start: 0 when none can (no answer yet, or the time passed).
 * `atLeastMs`: after the answer, however quickly reports lately came.
 */
function requestsMayStillCome(watch: ActionRequests, atLeastMs = 0): number {
  if (watch.answeredAt === 0) return 0;
  const floorLeft = Math.max(0, watch.answeredAt + atLeastMs - Date.now());
  return Math.max(reportsLeft(watch.answeredAt), openingLeft(watch), reportsLeft(watch.scriptMayStartUntil), floorLeft);
}

/** How long (ms) a request started by `moment` may still be reported, as late as reports lately came; 0 when there is no moment (0). */
function reportsLeft(moment: number): number {
  return moment === 0 ? 0 : Math.max(0, moment + reportLagNow() - Date.now());
}

/**
 * How long (ms) a request the page the last action opened starts as it opens may still be reported:
 * one started as OPENING_MS ends is reported as late as reports lately came (Firefox under load).
 */
function openingLeft(watch: ActionRequests): number {
  return watch.openedAt === 0 ? 0 : reportsLeft(watch.openedAt + OPENING_MS);
}

/**
 * Reads the tab (`read`) once what its last action set off has come; `unanswered` requests of it
 * were still pending when the wait ended. Right after an action, Firefox may still report a
 * request it started, and a page the action opened may still start one: the page is read
 * meanwhile, and the read kept unless one is reported (then the page is read again once it settles).
 */
export async function readAfterLastAction<T>(tab: TargetTab, requestId: string, signal: AbortSignal, read: () => Promise<T>): Promise<{ value: T; unanswered: number }> {
  const watch = watches.get(tab.id);
  const mayStillCome = watch?.requests.freshCount === 0 ? requestsMayStillCome(watch, REQUEST_REPORT_LAG_BEFORE_SNAPSHOT_MS) : 0;
  if (watch && mayStillCome > 0) {
    let readAt = 0;
    const [early] = await Promise.all([read().finally(() => (readAt = Date.now())), pause(mayStillCome, signal)]);
    // The page's agent answers the read once the timers of a link the page took over have run,
    // however late a busy page ran them: what they started is reported as late as reports come.
    if (watch.scriptMayStartUntil !== 0 && watch.requests.freshCount === 0) await pause(reportsLeft(readAt), signal);
    if (watch.requests.freshCount === 0) {
      watch.stop();
      return { value: early, unanswered: 0 };
    }
  }
  const unanswered = await settleActionRequests(tab, requestId, signal, true);
  return { value: await read(), unanswered };
}

/**
 * Waits for the requests the tab's last action set off (those reported so far) and for the page to
 * show their answers. Returns how many were still unanswered when it stopped waiting; those are not
 * waited for again. `done`: the watch ends here (the tab's next tool call), else it keeps listening.
 */
export async function settleActionRequests(tab: TargetTab, requestId: string, signal: AbortSignal, done: boolean): Promise<number> {
  const watch = watches.get(tab.id);
  if (!watch) return 0;
  if (!done) watch.answeredAt = Date.now();
  try {
    // The tab's next call gives a request reported late (Firefox), or started late by the page
    // the action opened, the moment it may take.
    const mayStillCome = done && watch.requests.freshCount === 0 ? requestsMayStillCome(watch) : 0;
    if (mayStillCome > 0) await pause(mayStillCome, signal);
    let unanswered = await waitOut(watch, tab, requestId, signal);
    const opening = done ? openingLeft(watch) : 0;
    if (opening > 0) {
      await pause(opening, signal);
      unanswered += await waitOut(watch, tab, requestId, signal);
    }
    return unanswered;
  } finally {
    // Only once the answers were heard: a watch stopped earlier would wait for ends it cannot hear.
    if (done) watch.stop();
  }
}

async function waitOut({ requests, received, framesAnswered, frameId }: ActionRequests, tab: TargetTab, requestId: string, signal: AbortSignal): Promise<number> {
  if (requests.freshCount === 0) return 0;
  const deadline = Date.now() + REQUESTS_MS;
  // An answer's script may send more requests (a view, then its navigation tree): until none is left.
  while (!signal.aborted && (await requests.idle(deadline - Date.now(), signal))) {
    const maxMs = Math.min(QUIET_MAX_MS, Math.max(0, deadline - Date.now()));
    await Promise.all(framesAnswered.splice(0).map((frame) => frameLoaded(tab, frame, Date.now() + maxMs, signal)));
    const answered = received.splice(0);
    const payload = { quietMs: QUIET_MS, maxMs, received: answered.map(({ url }) => url) };
    const request = { type: 'SETTLE' as const, requestId: childRequestId(requestId, 'settle'), payload };
    // After a navigation the frame holds a new document, given an agent to watch it; a frame that
    // went away has nothing left to show.
    const settled = await askPageAgent(tab, frameId, request, Settled).catch(() => undefined);
    // How late each was reported after the page started it, by the page's own clock.
    settled?.startedAt.forEach((startedAt, index) => startedAt !== null && noteReportLag(answered[index]!.reportedAt - startedAt));
    if (settled) noteDialogs(tab.id, settled.dialogs);
    if (Date.now() >= deadline) break;
    // The answer's script may have sent another request (a view, then its counts) that the
    // browser has yet to report.
    if (requests.pendingCount === 0) await pause(reportLagNow(), signal);
    if (requests.pendingCount === 0) break;
  }
  return requests.settled();
}

/** How often a frame still loading is asked again. */
const FRAME_POLL_MS = 25;

/**
 * Resolves once the frame's page has loaded (its load event: its own scripts have run, its frames
 * and images came), when the frame is gone, or at `until`. Asked only once its page's answer was
 * complete, when the frame holds the new document; asked afresh each time, since a promise left
 * waiting in a document the frame then leaves is never answered (Chromium).
 */
async function frameLoaded(tab: TargetTab, frameId: number, until: number, signal: AbortSignal): Promise<void> {
  while (Date.now() < until && !signal.aborted) {
    const state = await readInDocument(tab.id, () => document.readyState, frameId);
    if (state !== 'loading' && state !== 'interactive') return;
    await pause(FRAME_POLL_MS, signal);
  }
}
