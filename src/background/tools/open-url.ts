import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { navigateCurrentTab } from './tab-navigation';
import { WEB_URL } from './tabs';
import { defineTool } from './tool';

export const openUrl = defineTool({
  name: 'open_url',
  description: 'Open a web address (http or https) in the current tab and wait for it to load (8 s at most: a page still loading then says stillLoading, and what is there can be read).',
  params: z.object({
    url: z.url().check(z.refine((url) => WEB_URL.test(url), 'Only http:// and https:// addresses can be opened')),
  }),
  level: 'navigate',
  effects: { url: 'url' },
  run: ({ url }, context) => navigateCurrentTab(context, (tabId) => browser.tabs.update(tabId, { url }), { goingTo: url }),
});
