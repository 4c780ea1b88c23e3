/** Firefox-only behaviour: the sidebar is `sidebarAction`. */
import browser from 'webextension-polyfill';
import type { ReadPdfAnswer, ReadPdfRequest } from '../protocol/pdf';

/** The toolbar button toggles the sidebar (the shortcut is `_execute_sidebar_action`). */
export function setUpPanelOpening(): void {
  browser.action.onClicked.addListener(() => {
    void browser.sidebarAction.toggle();
  });
}

/** Must run inside a click handler (a user gesture), before any await. */
export function openPanel(): Promise<void> {
  return browser.sidebarAction.open();
}

/**
 * How long after the page answers an action Firefox may still report a request the action started:
 * its webRequest events travel apart from the page's answer and came −1 to 19 ms after it here.
 */
export const REQUEST_REPORT_LAG_MS = 40;

/**
 * How long after the page answers an action a snapshot, read meanwhile, waits for a report of a
 * request the action started: now and then (1 run in 20 of the dialog test here) Firefox opens the
 * request, or reports it, 55–90 ms after the answer, and a snapshot read without it shows the page
 * before the request's answer ("Saving…" for "Saved.") and ends the answering of its boxes.
 */
export const REQUEST_REPORT_LAG_BEFORE_SNAPSHOT_MS = 120;

/**
 * How long after the tab shows the page a navigation led to Firefox may still report that page's
 * load (its end, or its failure): once in five clicks on a link to a refused address here, the
 * start and the failure came 80 ms after the tab showed the error page.
 */
export const PAGE_LOAD_REPORT_LAG_MS = 300;

/** Firefox's background is a page: it loads pdf.js when a PDF is first read, and reads it there. */
export async function readPdf(request: ReadPdfRequest): Promise<ReadPdfAnswer> {
  const reader = await import('../pdf/read-pdf');
  return reader.readPdf(request);
}
