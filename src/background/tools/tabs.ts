/** Tab helpers shared by the tab and navigation tools (browser calls only). */
import browser, { type Tabs } from 'webextension-polyfill';
import { CAPS, clipText, JawadError } from '../../protocol';
import { queryActiveTab } from '../page-scripts';
import type { Arrival } from './navigation-wait';

export interface TabSummary {
  id: number;
  title: string;
  url: string;
  active: boolean;
}

/** A tab as the model and the log see it; its title and address are the page's to choose, so both are capped. */
export function summarise(tab: Tabs.Tab): TabSummary {
  return { id: tab.id ?? -1, title: clipText(tab.title ?? '', CAPS.title), url: clipText(tab.url ?? '', CAPS.url), active: Boolean(tab.active) };
}

/** The tab a tool acts on: the one named, or the active tab of the sidebar's window. */
export async function targetTab(tabId: number | undefined, windowId: number | undefined): Promise<Tabs.Tab> {
  if (tabId !== undefined) {
    try {
      return await browser.tabs.get(tabId);
    } catch {
      throw new JawadError('NOT_FOUND', `There is no tab ${tabId}.`);
    }
  }
  const tab = await queryActiveTab(windowId);
  if (tab?.id === undefined) throw new JawadError('NOT_FOUND', 'No tab is open in this window.');
  return tab;
}

/** Where a navigation brought the tab, for the model: a page still loading when the wait ran out says so. */
export function summariseArrival({ tab, stillLoading }: Arrival): TabSummary & { stillLoading?: true } {
  return { ...summarise(tab), ...(stillLoading ? { stillLoading: true } : {}) };
}

/** Page URLs a tool may open: web pages only, never script or browser-internal URLs. */
export const WEB_URL = /^https?:\/\//i;
