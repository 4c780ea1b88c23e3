/**
 * Follows the requests (XHR, fetch) a tab starts from the moment an action begins, and waits for
 * them to be answered and for the page to show the answer — as a person waits out "Loading…"
 * before reading on. Requests that began before the action (a long poll, a stream) are not waited for.
 *
 * The action waits for the requests the browser has reported by the time the page answered it
 * (Chromium reports them first). Firefox reports a request a few milliseconds after the page's
 * answer, so the watch goes on listening after the action and the tab's next tool call (a
 * snapshot, another action) waits for what it caught — at no cost to an action that started nothing.
 */
import browser, { type WebRequest } from 'webextension-polyfill';
import { childRequestId, Settled } from '../../protocol';
import { askFrame, type TargetTab } from '../page-scripts';
import { PendingRequests } from './pending-requests';

/** The longest one wait for an action's requests and their effect lasts; then the page is read as it stands. */
const REQUESTS_MS = 5_000;
/** How long the page must hold still after the answers came to count as done showing them. */
const QUIET_MS = 100;
/** The longest wait for the page to hold still after each round of answers (a spinner never does). */
const QUIET_MAX_MS = 1_000;
/** A tab not touched again this long after its action stops being watched. */
const WATCH_MS = 30_000;

interface ActionRequests {
  requests: PendingRequests;
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

/** The tab left for another page: what its last page was loading no longer matters. */
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
  if (done) watch.stop();
  const { requests, frameId } = watch;
  if (requests.freshCount === 0) return 0;
  const deadline = Date.now() + REQUESTS_MS;
  // An answer's script may send more requests (a view, then its navigation tree): until none is left.
  while (!signal.aborted && (await requests.idle(deadline - Date.now(), signal))) {
    const maxMs = Math.min(QUIET_MAX_MS, Math.max(0, deadline - Date.now()));
    const request = { type: 'SETTLE' as const, requestId: childRequestId(requestId, 'settle'), payload: { quietMs: QUIET_MS, maxMs } };
    // A frame that went away (its answer replaced the document) has nothing left to show.
    await askFrame(tab, frameId, request, Settled).catch(() => undefined);
    if (requests.pendingCount === 0 || Date.now() >= deadline) break;
  }
  return requests.settled();
}
