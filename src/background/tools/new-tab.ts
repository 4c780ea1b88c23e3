import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { summarise, WEB_URL, whenLoaded } from './tabs';
import { defineTool } from './tool';

export const newTab = defineTool({
  name: 'new_tab',
  description: 'Open a web address (http or https) in a new tab of this window and wait for it to load.',
  params: z.object({
    url: z.url().check(z.refine((url) => WEB_URL.test(url), 'Only http:// and https:// addresses can be opened')),
    active: z._default(z.boolean(), true),
  }),
  level: 'navigate',
  effects: { url: 'url', opensTab: true },
  async run({ url, active }, { windowId, signal }) {
    const tab = await browser.tabs.create({ url, active, ...(windowId === undefined ? {} : { windowId }) });
    if (tab.status === 'complete' && tab.url === url) return summarise(tab);
    return summarise(await whenLoaded(tab.id!, signal));
  },
});
