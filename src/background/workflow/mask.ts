/**
 * Keeps each research tab's mask in step with seed 001's rule (mask-rule.ts): it follows which
 * tabs a step drives, which tab is active in each window and which window has focus, and tells
 * the page. After a reload the page has lost its overlay: the tab's next "complete" brings it back.
 */
import browser from 'webextension-polyfill';
import { injectPageScript, MASK } from '../page-scripts';
import { maskVisible } from './mask-rule';

interface Driven {
  windowId: number;
  shown: boolean | undefined;
}

export class MaskController {
  private readonly driven = new Map<number, Driven>();
  private readonly activeByWindow = new Map<number, number>();
  private focusedWindow: number | undefined;

  /** Listeners go in at start-up (synchronously), like every listener of the background. */
  listen(): void {
    browser.tabs.onActivated.addListener(({ tabId, windowId }) => {
      this.activeByWindow.set(windowId, tabId);
      this.syncAll();
    });
    browser.windows.onFocusChanged.addListener((windowId) => {
      this.focusedWindow = windowId === browser.windows.WINDOW_ID_NONE ? undefined : windowId;
      this.syncAll();
    });
    browser.tabs.onUpdated.addListener((tabId, change) => {
      const driven = this.driven.get(tabId);
      if (!driven || change.status !== 'complete') return;
      driven.shown = undefined; // a new document: its overlay is gone
      void this.sync(tabId);
    });
  }

  /** A step started driving the tab. */
  async drive(tabId: number): Promise<void> {
    const tab = await browser.tabs.get(tabId);
    const windowId = tab.windowId ?? -1;
    this.driven.set(tabId, { windowId, shown: undefined });
    const [active] = await browser.tabs.query({ active: true, windowId });
    if (active?.id !== undefined) this.activeByWindow.set(windowId, active.id);
    const focused = await browser.windows.getLastFocused().catch(() => undefined);
    if (focused?.focused && focused.id !== undefined) this.focusedWindow = focused.id;
    await this.sync(tabId);
  }

  /** The step is over: the mask goes. */
  async release(tabId: number): Promise<void> {
    const driven = this.driven.get(tabId);
    this.driven.delete(tabId);
    if (driven?.shown) await this.tell(tabId, false).catch(() => undefined);
  }

  private syncAll(): void {
    for (const tabId of this.driven.keys()) void this.sync(tabId);
  }

  private async sync(tabId: number): Promise<void> {
    const driven = this.driven.get(tabId);
    if (!driven) return;
    const visible = maskVisible({ agentRunning: true, windowHasFocus: this.focusedWindow === driven.windowId, activeTabId: this.activeByWindow.get(driven.windowId), agentTabId: tabId });
    if (driven.shown === visible) return;
    driven.shown = visible;
    // A page Jawad may not script (or one closing) just goes without a mask.
    await this.tell(tabId, visible).catch(() => undefined);
  }

  private async tell(tabId: number, visible: boolean): Promise<void> {
    const tab = await browser.tabs.get(tabId);
    await injectPageScript({ id: tabId, url: tab.url ?? '' }, MASK);
    await browser.tabs.sendMessage(tabId, { type: 'MASK', visible }, { frameId: 0 });
  }
}
