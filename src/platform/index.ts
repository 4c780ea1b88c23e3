/**
 * The one place that knows which browser this build is for. Vite replaces `import.meta.env.MODE`
 * at build time, so each build carries only its own browser's half.
 */
import * as chromium from './make-chromium-happy';
import * as firefox from './make-firefox-happy';
import type { ReadPdfAnswer, ReadPdfRequest } from '../protocol/pdf';

export const BROWSER: 'chromium' | 'firefox' = import.meta.env.MODE === 'firefox' ? 'firefox' : 'chromium';

/** Start-up wiring that differs per browser: how the toolbar button opens the panel. */
export function installBrowserHooks(): void {
  if (BROWSER === 'firefox') {
    firefox.setUpPanelOpening();
  } else {
    chromium.setUpPanelOpening();
  }
}

export { allowProviderOrigin } from './provider-origin';
export { sessionRules, type SessionRule } from './session-rules';

/** Opens the sidebar / side panel. Call synchronously from a click handler. */
export function openPanel(windowId: number): Promise<void> {
  return BROWSER === 'firefox' ? firefox.openPanel() : chromium.openPanel(windowId);
}

export const PANEL_NAME = BROWSER === 'firefox' ? 'sidebar' : 'side panel';

/** How long after the page answered an action a request it started may still be reported (src/background/tools/request-watch.ts). */
export const REQUEST_REPORT_LAG_MS = BROWSER === 'firefox' ? firefox.REQUEST_REPORT_LAG_MS : chromium.REQUEST_REPORT_LAG_MS;
/** As long, at least, before a snapshot, which reads the page meanwhile (src/background/tools/request-watch.ts). */
export const REQUEST_REPORT_LAG_BEFORE_SNAPSHOT_MS = BROWSER === 'firefox' ? firefox.REQUEST_REPORT_LAG_BEFORE_SNAPSHOT_MS : chromium.REQUEST_REPORT_LAG_BEFORE_SNAPSHOT_MS;

/** How long after the tab shows a navigation's page its load may still be reported (src/background/tools/navigation-wait.ts). */
export const PAGE_LOAD_REPORT_LAG_MS = BROWSER === 'firefox' ? firefox.PAGE_LOAD_REPORT_LAG_MS : chromium.PAGE_LOAD_REPORT_LAG_MS;

export { keepBackgroundAlive, onKeepAlive } from './keep-alive';

/** Reads the PDF at an address as text (src/pdf/read-pdf.ts), where this browser can load pdf.js. */
export function readPdf(request: ReadPdfRequest): Promise<ReadPdfAnswer> {
  return BROWSER === 'firefox' ? firefox.readPdf(request) : chromium.readPdf(request);
}
