import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { summarise, targetTab } from './tabs';
import { defineTool } from './tool';

export const switchTab = defineTool({
  name: 'switch_tab',
  description: 'Make another tab (by id, from list_tabs) the active tab.',
  params: z.object({ tabId: z.int() }),
  level: 'navigate',
  effects: { tab: 'tabId' },
  async run({ tabId }) {
    await targetTab(tabId, undefined);
    return summarise(await browser.tabs.update(tabId, { active: true }));
  },
});
