import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { openTabAnsweringDialogs, stopAnsweringDialogs } from './dialog-aftermath';
import { loadFailed, openTabAndWait } from './navigation-wait';
import { summariseArrival, WEB_URL } from './tabs';
import { defineTool } from './tool';

export const newTab = defineTool({
  name: 'new_tab',
  description: 'Open a web address (http or https) in a new tab of this window and wait for it to load (8 s at most: a page still loading then says stillLoading, and what is there can be read).',
  params: z.object({
    url: z.url().check(z.refine((url) => WEB_URL.test(url), 'Only http:// and https:// addresses can be opened')),
    active: z._default(z.boolean(), true),
  }),
  level: 'navigate',
  effects: { url: 'url', opensTab: true },
  async run({ url, active }, { windowId, signal, requestId }) {
    let arrived = () => Promise.resolve();
    const open = async () => {
      const opened = await openTabAnsweringDialogs(url, () => browser.tabs.create({ url, active, ...(windowId === undefined ? {} : { windowId }) }));
      arrived = opened.arrived;
      return opened.tab;
    };
    try {
      const arrival = await openTabAndWait(open, url, signal);
      if (!arrival.failed) return summariseArrival(arrival);
      void stopAnsweringDialogs({ id: arrival.tab.id!, url }, requestId);
      throw loadFailed(url, arrival.failed, arrival.tab.id);
    } finally {
      void arrived();
    }
  },
});
