import { readPdf } from '../platform';
import { CAPS, childRequestId, clipText, JawadError, NO_READABLE_TEXT, PageContent } from '../protocol';
import { askPageScript, contextTab, READER, readInDocument, type TargetTab } from './page-scripts';

/**
 * Reads the main content of a tab as markdown (Readability + Turndown, injected now): `tabId`, the
 * tab a step was bound to, or else the window's active tab. A PDF the browser shows is read as text.
 */
export async function readActivePage(requestId: string, windowId?: number, maxChars = 60_000, tabId?: number): Promise<PageContent> {
  const tab = await contextTab({ ...(tabId === undefined ? {} : { tabId }), ...(windowId === undefined ? {} : { windowId }) });
  const request = { type: 'READ_PAGE' as const, requestId: childRequestId(requestId, 'read'), payload: { maxChars } };
  let page: PageContent;
  try {
    page = await askPageScript(tab, READER, request, PageContent);
  } catch (error) {
    // Firefox's PDF viewer is a page no extension may script: a web address that refuses the reader is asked again.
    const pdf = error instanceof JawadError && error.code === 'PAGE_UNREADABLE' ? await pdfShownIn(tab, maxChars, undefined) : undefined;
    if (pdf) return pdf;
    throw error;
  }
  // Chromium's viewer sits in a document of type application/pdf that shows no text of its own.
  if (page.markdown !== NO_READABLE_TEXT) return page;
  return (await pdfShownIn(tab, maxChars, await readInDocument(tab.id, () => document.contentType))) ?? page;
}

const FETCHABLE_URL = /^https?:/i;
/** A PDF made for one download (a link that expires, the answer to a form sent) is not there a second time. */
const NOT_FETCHED_AGAIN = 'This tab shows a PDF that Jawad could not download again from its address to read it (the link may have expired, or the PDF was the answer to a form). Open its link again, then ask again.';

/**
 * The PDF the tab shows, read as text: downloaded again from its address, and read if what comes
 * back is a PDF. `type`: the document's type where a script could read it (undefined where none may).
 */
async function pdfShownIn(tab: TargetTab, maxChars: number, type: string | undefined): Promise<PageContent | undefined> {
  if (!FETCHABLE_URL.test(tab.url) || (type !== undefined && type !== 'application/pdf')) return undefined;
  const answer = await readPdf({ type: 'READ_PDF', url: tab.url, maxChars });
  if ('error' in answer) throw new JawadError('PAGE_UNREADABLE', answer.error);
  if (!answer.pdf && type === 'application/pdf') throw new JawadError('PAGE_UNREADABLE', NOT_FETCHED_AGAIN);
  if (!answer.pdf) return undefined;
  const { title, markdown, truncated, pages, lang } = answer.pdf;
  return { title: clipText(title, CAPS.title), url: clipText(tab.url, CAPS.url), markdown, truncated, product: null, interactiveElements: [], pdfPages: pages, ...(lang ? { lang } : {}) };
}
