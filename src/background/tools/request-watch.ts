/**
 * Follows the requests (XHR, fetch) a tab starts from the moment an action begins, and waits for
 * them to be answered and for the page to show the answer — as a person waits out "Loading…"
 * before reading on. Requests that began before the action (a long poll, a stream) are not waited for.
 *
 * The action waits for the requests the browser has reported by the time the page answered it
 * (Chromium reports them first). Firefox reports a request a few milliseconds after the page's
 * answer, so the watch goes on listening after the action and the tab's next tool call (a
 * snapshot, another action) waits for what it caught, giving a late report REQUEST_REPORT_LAG_MS
 * from the answer — nothing more for an action that started nothing when the next call comes
 * later than that (a model's answer takes far longer).
 * A click that opens another page is followed there: the requests the new page sends as it opens
 * (a navigation tree built by script) are part of what the click led to.
 */
import browser, { type WebRequest } from 'webextension-polyfill';
import { childRequestId, Settled } from '../../protocol';
import { REQUEST_REPORT_LAG_MS } from '../../platform';
import { askPageAgent, type TargetTab } from '../page-scripts';
import { PendingRequests } from './pending-requests';

/** The longest one wait for an action's requests and their effect lasts; then the page is read as it stands. */
const REQUESTS_MS = 5_000;
/** How long the page must hold still after the answers came to count as done showing them. */
const QUIET_MS = 100;
/** The longest wait for the page to hold still after each round of answers (a spinner never does). */
const QUIET_MAX_MS = 1_000;
/** A tab not touched again this long after its action stops being watched. */
const WATCH_MS = 30_000;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
  });

interface ActionRequests {
  requests: PendingRequests;
  /** When the page answered the action (0 until then). */
  answeredAt: number;
  /** The frame that acted: asked to hold still once the answers came. */
  frameId: number;
  stop(): void;
}

/** Each tab's last action's watch, until the tab's next tool call waits it out. */
const watches = new Map<number, ActionRequests>();

/** Starts following the requests an action on this tab sets off. */
export function watchActionRequests(tabId: number, frameId: number): void {
  watches.get(tabId)?.stop();
  const requests = new PendingRequests();
  const filter: WebRequest.RequestFilter = { urls: ['<all_urls>'], tabId, types: ['xmlhttprequest'] };
  const onStart = (details: { requestId: string }) => requests.started(details.requestId);
  const onEnd = (details: { requestId: string }) => requests.ended(details.requestId);
  browser.webRequest.onBeforeRequest.addListener(onStart, filter);
  browser.webRequest.onCompleted.addListener(onEnd, filter);
  browser.webRequest.onErrorOccurred.addListener(onEnd, filter);
  const watch: ActionRequests = {
    requests,
    answeredAt: 0,
    frameId,
    stop() {
      clearTimeout(expiry);
      browser.webRequest.onBeforeRequest.removeListener(onStart);
      browser.webRequest.onCompleted.removeListener(onEnd);
      browser.webRequest.onErrorOccurred.removeListener(onEnd);
      if (watches.get(tabId) === watch) watches.delete(tabId);
    },
  };
  const expiry = setTimeout(() => watch.stop(), WATCH_MS);
  watches.set(tabId, watch);
}

/** The action failed: nothing it set off is waited for. */
export function forgetActionRequests(tabId: number): void {
  watches.get(tabId)?.stop();
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
    // The tab's next call gives a request reported late (Firefox) the moment it may take.
    const lag = watch.answeredAt + REQUEST_REPORT_LAG_MS - Date.now();
    if (done && watch.requests.freshCount === 0 && lag > 0) await pause(lag, signal);
    return await waitOut(watch, tab, requestId, signal);
  } finally {
    // Only once the answers were heard: a watch stopped earlier would wait for ends it cannot hear.
    if (done) watch.stop();
  }
}

async function waitOut({ requests, frameId }: ActionRequests, tab: TargetTab, requestId: string, signal: AbortSignal): Promise<number> {
  if (requests.freshCount === 0) return 0;
  const deadline = Date.now() + REQUESTS_MS;
  // An answer's script may send more requests (a view, then its navigation tree): until none is left.
  while (!signal.aborted && (await requests.idle(deadline - Date.now(), signal))) {
    const maxMs = Math.min(QUIET_MAX_MS, Math.max(0, deadline - Date.now()));
    const request = { type: 'SETTLE' as const, requestId: childRequestId(requestId, 'settle'), payload: { quietMs: QUIET_MS, maxMs } };
    // After a navigation the frame holds a new document, given an agent to watch it; a frame that
    // went away has nothing left to show.
    await askPageAgent(tab, frameId, request, Settled).catch(() => undefined);
    if (requests.pendingCount === 0 || Date.now() >= deadline) break;
  }
  return requests.settled();
}
