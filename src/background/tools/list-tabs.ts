import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { summarise } from './tabs';
import { defineTool } from './tool';

export const listTabs = defineTool({
  name: 'list_tabs',
  description: 'List the tabs of this window you may use (the one the task started in and those it opened): id, title, URL and which one is active.',
  params: z.object({}),
  level: 'read-only',
  effects: { tabList: true },
  async run(_params, { windowId, visibleTabs }) {
    const tabs = await browser.tabs.query(windowId === undefined ? { lastFocusedWindow: true } : { windowId });
    // A task sees its own tabs only: the titles and addresses of the user's others are not its business.
    const mine = visibleTabs ? tabs.filter((tab) => tab.id !== undefined && visibleTabs.includes(tab.id)) : tabs;
    return mine.map(summarise);
  },
});
