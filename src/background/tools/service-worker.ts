/**
 * A page a service worker controls (a web app that works offline, most news sites) sends its
 * requests through the worker, and the browsers report those differently from the network's own:
 *
 * - Firefox reports a page's request the worker takes as an internal redirect to its own address,
 *   with no HTTP status. If the worker answers it (from its cache, or with a request of its own),
 *   nothing more is reported of it, ever; if the worker lets it through, it begins again under the
 *   same id and ends as any request does.
 * - Chromium reports nothing of a page's request the worker answers.
 * - Both report the worker's own requests with no tab (tabId -1), from the page's origin: Chromium
 *   names it as the initiator, Firefox gives the worker script's address.
 *
 * So a request handed to the worker is no longer waited for as such, and the worker's own requests
 * stand in for the page's. Pure: the webRequest details are handed in.
 */
import { originOf } from '../harbor/site';

/** The request was handed to a service worker (Firefox): its end may never be reported. */
export function handedToServiceWorker(redirect: { url: string; redirectUrl?: string; statusCode?: number }): boolean {
  return redirect.statusCode === 0 && redirect.redirectUrl === redirect.url;
}

/** The origin whose service worker made a request, or '' for a request a tab made. */
export function serviceWorkerOrigin(details: { tabId: number; initiator?: string; originUrl?: string }): string {
  return details.tabId === -1 ? originOf(details.initiator ?? details.originUrl ?? '') : '';
}
