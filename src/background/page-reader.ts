import { childRequestId, PageContent } from '../protocol';
import { activeTab, askPageScript, READER } from './page-scripts';

/** Reads the main content of the active tab as markdown (Readability + Turndown, injected now). */
export async function readActivePage(requestId: string, windowId?: number, maxChars = 60_000): Promise<PageContent> {
  const request = { type: 'READ_PAGE' as const, requestId: childRequestId(requestId, 'read'), payload: { maxChars } };
  return askPageScript(await activeTab(windowId), READER, request, PageContent);
}
