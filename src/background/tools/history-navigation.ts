import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { contextTab } from '../page-scripts';
import { navigationLoaded, watchActionRequests } from './request-watch';
import { loadFailed, navigateTab } from './navigation-wait';
import { summariseArrival } from './tabs';
import { defineTool, type ToolContext } from './tool';

/** Runs a navigation on the current tab and waits for the page it leads to (navigation-wait.ts). */
async function navigate(context: ToolContext, go: (tabId: number) => Promise<void>) {
  const tab = await contextTab(context);
  // What the page loads by script as it opens, the tab's next tool call waits for.
  watchActionRequests(tab.id, 0, tab.url);
  const arrival = await navigateTab(tab.id, () => go(tab.id), context.signal);
  if (arrival.failed) throw loadFailed(arrival.tab.url ?? 'The page', arrival.failed);
  navigationLoaded(tab.id, arrival.tab.url);
  return summariseArrival(arrival);
}

export const goBack = defineTool({
  name: 'go_back',
  description: 'Go back one page in the current tab’s history.',
  params: z.object({}),
  level: 'navigate',
  effects: {},
  run: (_params, context) => navigate(context, (tabId) => browser.tabs.goBack(tabId)),
});

export const goForward = defineTool({
  name: 'go_forward',
  description: 'Go forward one page in the current tab’s history.',
  params: z.object({}),
  level: 'navigate',
  effects: {},
  run: (_params, context) => navigate(context, (tabId) => browser.tabs.goForward(tabId)),
});

export const reloadTab = defineTool({
  name: 'reload_tab',
  description: 'Reload the current tab.',
  params: z.object({}),
  level: 'navigate',
  effects: {},
  run: (_params, context) => navigate(context, (tabId) => browser.tabs.reload(tabId)),
});
