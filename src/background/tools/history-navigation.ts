import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { navigateCurrentTab } from './tab-navigation';
import { defineTool } from './tool';

export const goBack = defineTool({
  name: 'go_back',
  description: 'Go back one page in the current tab’s history.',
  params: z.object({}),
  level: 'navigate',
  effects: {},
  run: (_params, context) => navigateCurrentTab(context, (tabId) => browser.tabs.goBack(tabId)),
});

export const goForward = defineTool({
  name: 'go_forward',
  description: 'Go forward one page in the current tab’s history.',
  params: z.object({}),
  level: 'navigate',
  effects: {},
  run: (_params, context) => navigateCurrentTab(context, (tabId) => browser.tabs.goForward(tabId)),
});

export const reloadTab = defineTool({
  name: 'reload_tab',
  description: 'Reload the current tab.',
  params: z.object({}),
  level: 'navigate',
  effects: {},
  run: (_params, context) => navigateCurrentTab(context, (tabId) => browser.tabs.reload(tabId)),
});
