import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** One tab as the browser reports it: its state now, and the onUpdated listeners told of each change. */
const browser = vi.hoisted(() => {
  type Tab = { id: number; url: string; title: string; status: 'loading' | 'complete' };
  const listeners = new Set<(id: number, change: { status?: string }, tab: Tab) => void>();
  const state = { tab: { id: 7, url: 'https://shop.example/cart', title: 'Cart', status: 'complete' } as Tab };
  const tabs = {
    get: vi.fn(async () => ({ ...state.tab })),
    onUpdated: { addListener: (listener: never) => listeners.add(listener), removeListener: (listener: never) => listeners.delete(listener) },
  };
  /** The tab changes: listeners hear the new status, as the browser tells them. */
  const change = (tab: Partial<Tab>) => {
    state.tab = { ...state.tab, ...tab };
    for (const listener of listeners) listener(state.tab.id, tab.status ? { status: tab.status } : {}, state.tab);
  };
  return { tabs, state, change, listeners };
});
vi.mock('webextension-polyfill', () => ({ default: { tabs: browser.tabs } }));

import { navigateTab, newTabArrival } from '../../../src/background/tools/navigation-wait';

const signal = new AbortController().signal;

describe('waiting for the page a navigation opens', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    browser.state.tab = { id: 7, url: 'https://shop.example/cart', title: 'Cart', status: 'complete' };
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('does not take the page being left for the new one when the browser begins loading a moment after the call', async () => {
    // The page being left reports "complete" as the call is made (its load had just ended).
    const arrival = navigateTab(7, async () => browser.change({ status: 'complete' }), signal);
    await vi.advanceTimersByTimeAsync(200);
    browser.change({ status: 'loading' });
    await vi.advanceTimersByTimeAsync(300);
    browser.change({ status: 'complete', url: 'https://shop.example/orders', title: 'Orders' });
    await vi.advanceTimersByTimeAsync(100);
    await expect(arrival).resolves.toEqual({ tab: expect.objectContaining({ url: 'https://shop.example/orders', title: 'Orders' }), stillLoading: false });
    expect(browser.listeners.size).toBe(0);
  });

  it('takes a page that never finishes loading as it stands after 8 s, said to be still loading', async () => {
    const arrival = navigateTab(7, async () => browser.change({ status: 'loading', url: 'https://news.example/', title: 'News' }), signal);
    await vi.advanceTimersByTimeAsync(7_900);
    let settled = false;
    void arrival.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    await expect(arrival).resolves.toEqual({ tab: expect.objectContaining({ url: 'https://news.example/', status: 'loading' }), stillLoading: true });
  });

  it('answers at once with the tab as it is when no load begins (a jump within the page), after giving it a second', async () => {
    const arrival = navigateTab(7, async () => browser.change({ url: 'https://shop.example/cart#total' }), signal);
    await vi.advanceTimersByTimeAsync(1_100);
    await expect(arrival).resolves.toEqual({ tab: expect.objectContaining({ url: 'https://shop.example/cart#total' }), stillLoading: false });
  });

  it('stops listening when the navigation cannot be made', async () => {
    await expect(navigateTab(7, async () => Promise.reject(new Error('No previous page')), signal)).rejects.toThrow('No previous page');
    expect(browser.listeners.size).toBe(0);
  });

  it('waits in a new tab past the blank page it holds before the address asked for begins loading', async () => {
    browser.state.tab = { id: 7, url: 'about:blank', title: '', status: 'complete' };
    const arrival = newTabArrival({ ...browser.state.tab, index: 0, highlighted: true, active: true, pinned: false, incognito: false }, signal);
    await vi.advanceTimersByTimeAsync(100);
    browser.change({ status: 'loading', url: 'https://news.example/' });
    await vi.advanceTimersByTimeAsync(100);
    browser.change({ status: 'complete', title: 'News' });
    await vi.advanceTimersByTimeAsync(50);
    await expect(arrival).resolves.toEqual({ tab: expect.objectContaining({ url: 'https://news.example/', title: 'News' }), stillLoading: false });
  });
});
