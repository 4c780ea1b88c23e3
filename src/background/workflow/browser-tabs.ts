/** The workflow's tabs, with the browser's tabs API (groups behind src/platform). */
import browser, { type Tabs } from 'webextension-polyfill';
import { JawadError } from '../../protocol';
import { groupTabs } from '../../platform/tab-groups';
import type { WorkflowTabs } from './runner';

const LOAD_TIMEOUT_MS = 20_000;

/** Resolves once the tab has finished loading (or after the time limit: a slow page is still read as it is). */
function loaded(tabId: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      browser.tabs.onUpdated.removeListener(onUpdated);
      browser.tabs.onRemoved.removeListener(onRemoved);
      resolve();
    };
    const onUpdated = (id: number, change: Tabs.OnUpdatedChangeInfoType) => void (id === tabId && change.status === 'complete' && done());
    const onRemoved = (id: number) => void (id === tabId && done());
    const timer = setTimeout(done, LOAD_TIMEOUT_MS);
    browser.tabs.onUpdated.addListener(onUpdated);
    browser.tabs.onRemoved.addListener(onRemoved);
    // It may have finished before the listener was added.
    void browser.tabs.get(tabId).then((tab) => void (tab.status === 'complete' && tab.url !== 'about:blank' && done()), done);
  });
}

export const browserTabs: WorkflowTabs = {
  async window(windowId) {
    if (windowId !== undefined) return windowId;
    const focused = await browser.windows.getLastFocused();
    if (focused.id === undefined) throw new JawadError('NOT_FOUND', 'No browser window to work in.');
    return focused.id;
  },
  async open(url, windowId) {
    const tab = await browser.tabs.create({ url, windowId, active: false });
    if (tab.id === undefined) throw new JawadError('EXECUTION_ERROR', `The browser did not open ${url}.`);
    await loaded(tab.id);
    return tab.id;
  },
  url: (tabId) => browser.tabs.get(tabId).then((tab) => tab.url, () => undefined),
  async close(tabIds) {
    await browser.tabs.remove(tabIds);
  },
  group: groupTabs,
};
