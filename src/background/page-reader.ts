import { childRequestId, PageContent } from '../protocol';
import { askPageScript, contextTab, READER } from './page-scripts';

/**
 * Reads the main content of a tab as markdown (Readability + Turndown, injected now): `tabId`, the
 * tab a step was bound to, or else the window's active tab.
 */
export async function readActivePage(requestId: string, windowId?: number, maxChars = 60_000, tabId?: number): Promise<PageContent> {
  const request = { type: 'READ_PAGE' as const, requestId: childRequestId(requestId, 'read'), payload: { maxChars } };
  return askPageScript(await contextTab({ ...(tabId === undefined ? {} : { tabId }), ...(windowId === undefined ? {} : { windowId }) }), READER, request, PageContent);
}
