import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { summarise, targetTab } from './tabs';
import { defineTool } from './tool';

export const closeTab = defineTool({
  name: 'close_tab',
  description: 'Close a tab (by id, from list_tabs; default: the current tab).',
  params: z.object({ tabId: z.optional(z.int()) }),
  level: 'navigate',
  effects: { tab: 'tabId' },
  async run({ tabId }, { windowId }) {
    const tab = await targetTab(tabId, windowId);
    await browser.tabs.remove(tab.id!);
    return { closed: summarise(tab) };
  },
});
