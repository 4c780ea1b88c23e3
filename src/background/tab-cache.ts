import browser from 'webextension-polyfill';
import { taskTabOf, type TaskTab } from './page-scripts';

/** Tells `changed` of every tab whose URL, window or existence may have changed. */
export type WatchTabs = (changed: (tabId: number) => void) => void;

/**
 * Tabs as the browser last described them, kept until one of its events says a tab changed. The
 * bridge looks up its client's tabs on every command; asking the browser each time is a round trip
 * to its main process (about 1 ms per command in Firefox, a third of the bridge's overhead).
 *
 * The events are watched from the first lookup on, never at load: they must not wake a stopped
 * background. A lookup that an event overtakes is not kept, so what is kept is never older than
 * the events that have arrived.
 */
export class TabCache {
  private readonly known = new Map<number, TaskTab>();
  /** How many change events have arrived, of any tab: a lookup any of them overtook is not kept. */
  private changes = 0;
  private watching = false;

  constructor(
    private readonly read: (tabId: number) => Promise<TaskTab | undefined>,
    private readonly watch: WatchTabs = watchBrowserTabs,
  ) {}

  /** The tab, or undefined once it is closed. */
  async get(tabId: number): Promise<TaskTab | undefined> {
    this.startWatching();
    const kept = this.known.get(tabId);
    if (kept) return kept;
    const seen = this.changes;
    const tab = await this.read(tabId);
    if (tab && this.changes === seen) this.known.set(tabId, tab);
    return tab;
  }

  private startWatching(): void {
    if (this.watching) return;
    this.watching = true;
    this.watch((tabId) => {
      this.known.delete(tabId);
      this.changes++;
    });
  }
}

/** The browser's tab events that change what a TaskTab says (its URL, window, opener) or end it. */
function watchBrowserTabs(changed: (tabId: number) => void): void {
  browser.tabs.onUpdated.addListener((tabId, change) => {
    if (change.url !== undefined || 'openerTabId' in change) changed(tabId);
  });
  browser.tabs.onRemoved.addListener((tabId) => changed(tabId));
  browser.tabs.onAttached.addListener((tabId) => changed(tabId));
  // Chromium swaps a tab's id when it replaces the tab (a discarded tab reloaded, a prerender).
  browser.tabs.onReplaced.addListener((_added, removed) => changed(removed));
}

/** The browser's own lookup of one tab. */
export const readTab = (tabId: number): Promise<TaskTab | undefined> => browser.tabs.get(tabId).then(taskTabOf, () => undefined);
