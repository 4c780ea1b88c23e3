import browser from 'webextension-polyfill';
import { ReadPdfAnswer, type ReadPdfRequest, READ_PDF } from '../protocol/pdf';

/**
 * Chromium-only behaviour. `chrome.sidePanel` has no Firefox equivalent (and no
 * webextension-polyfill typing), so its minimal shape is declared here.
 */
interface ChromeApis {
  sidePanel: {
    setPanelBehavior(behavior: { openPanelOnActionClick: boolean }): Promise<void>;
    open(options: { windowId: number }): Promise<void>;
  };
  offscreen: {
    createDocument(parameters: { url: string; reasons: string[]; justification: string }): Promise<void>;
    closeDocument(): Promise<void>;
  };
}
declare const chrome: ChromeApis;

/** The toolbar button and the keyboard shortcut (`_execute_action`) open the side panel. */
export function setUpPanelOpening(): void {
  chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
}

/** Must run inside a click handler (a user gesture), before any await. */
export function openPanel(windowId: number): Promise<void> {
  return chrome.sidePanel.open({ windowId });
}

/** Chromium reports a request an action started before the page's answer arrives (−9 to 0 ms here). */
export const REQUEST_REPORT_LAG_MS = 0;
/** Nor later before a snapshot. */
export const REQUEST_REPORT_LAG_BEFORE_SNAPSHOT_MS = 0;

/** Chromium reports a page's load before the tab shows the page. */
export const PAGE_LOAD_REPORT_LAG_MS = 0;

const OFFSCREEN_PAGE = 'src/offscreen/index.html';
/** The offscreen document, open or opening, while a PDF is being read in it. */
let offscreen: Promise<void> | undefined;
let readers = 0;
/** The last close: a document may be opened again only once it is gone. */
let closed: Promise<void> = Promise.resolve();

function openOffscreen(): Promise<void> {
  const create = () =>
    chrome.offscreen
      .createDocument({ url: OFFSCREEN_PAGE, reasons: ['WORKERS'], justification: 'Reads the text of a PDF the user asks about, with pdf.js in a worker.' })
      // A background stopped while reading leaves its document open: that one serves.
      .catch((error: unknown) => {
        if (!/single offscreen document/i.test(String(error))) throw error;
      });
  return closed.then(create);
}

/**
 * A service worker can neither load pdf.js on demand nor start a worker: the PDF is read in an
 * offscreen document, opened for the read and closed once no read needs it.
 */
export async function readPdf(request: ReadPdfRequest): Promise<ReadPdfAnswer> {
  readers++;
  try {
    offscreen ??= openOffscreen();
    await offscreen;
    return ReadPdfAnswer.parse(await browser.runtime.sendMessage({ ...request, type: READ_PDF }));
  } finally {
    if (--readers === 0) {
      const open = offscreen;
      offscreen = undefined;
      closed = (open ?? Promise.resolve()).then(() => chrome.offscreen.closeDocument()).catch(() => undefined);
    }
  }
}
