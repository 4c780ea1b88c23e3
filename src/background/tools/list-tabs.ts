import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { summarise } from './tabs';
import { defineTool } from './tool';

export const listTabs = defineTool({
  name: 'list_tabs',
  description: 'List the tabs of this window: id, title, URL and which one is active.',
  params: z.object({}),
  level: 'read-only',
  async run(_params, { windowId }) {
    const tabs = await browser.tabs.query(windowId === undefined ? { lastFocusedWindow: true } : { windowId });
    return tabs.map(summarise);
  },
});
