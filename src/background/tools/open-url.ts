import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { contextTab } from '../page-scripts';
import { navigationLoaded, watchActionRequests } from './request-watch';
import { loadFailed, navigateTab } from './navigation-wait';
import { summariseArrival, WEB_URL } from './tabs';
import { defineTool } from './tool';

export const openUrl = defineTool({
  name: 'open_url',
  description: 'Open a web address (http or https) in the current tab and wait for it to load (8 s at most: a page still loading then says stillLoading, and what is there can be read).',
  params: z.object({
    url: z.url().check(z.refine((url) => WEB_URL.test(url), 'Only http:// and https:// addresses can be opened')),
  }),
  level: 'navigate',
  effects: { url: 'url' },
  async run({ url }, context) {
    const { signal } = context;
    const tab = await contextTab(context);
    // What the new page loads by script as it opens, the tab's next tool call waits for.
    watchActionRequests(tab.id, 0, tab.url);
    const arrival = await navigateTab(tab.id, () => browser.tabs.update(tab.id, { url }), signal, url);
    if (arrival.failed) throw loadFailed(url, arrival.failed);
    navigationLoaded(tab.id, arrival.tab.url);
    return summariseArrival(arrival);
  },
});
