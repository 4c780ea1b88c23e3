import { describe, expect, it, vi } from 'vitest';

vi.mock('webextension-polyfill', () => ({ default: {} }));
vi.mock('../../src/content/page-agent.iife.ts?script', () => ({ default: 'page-agent.js' }));
vi.mock('../../src/content/reader.iife.ts?script', () => ({ default: 'reader.js' }));
vi.mock('../../src/content/mask.iife.ts?script', () => ({ default: 'mask.js' }));
vi.mock('../../src/content/dialog-opening.iife.ts?script', () => ({ default: 'dialog-opening.js' }));

import { TabCache } from '../../src/background/tab-cache';
import type { TaskTab } from '../../src/background/page-scripts';

/** A browser whose tabs the test moves, and whose change events it sends when it chooses. */
function fakeBrowser() {
  const tabs = new Map<number, TaskTab>([[7, { id: 7, url: 'https://shop.example/p', windowId: 1 }]]);
  let changed: (tabId: number) => void = () => {
    throw new Error('The cache asked for a tab before watching the events');
  };
  const read = vi.fn(async (tabId: number) => tabs.get(tabId));
  const cache = new TabCache(read, (listener) => (changed = listener));
  return { tabs, read, cache, change: (tabId: number) => changed(tabId) };
}

describe('the tabs the bridge looks up', () => {
  it('are read from the browser once, then kept', async () => {
    const { read, cache } = fakeBrowser();
    await expect(cache.get(7)).resolves.toMatchObject({ url: 'https://shop.example/p' });
    await expect(cache.get(7)).resolves.toMatchObject({ url: 'https://shop.example/p' });
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('are read again once the browser says the tab changed (a navigation, a move, a close)', async () => {
    const { tabs, cache, change } = fakeBrowser();
    await cache.get(7);
    tabs.set(7, { id: 7, url: 'https://bank.example/', windowId: 2 });
    change(7);
    await expect(cache.get(7)).resolves.toEqual({ id: 7, url: 'https://bank.example/', windowId: 2 });
    tabs.delete(7);
    change(7);
    await expect(cache.get(7)).resolves.toBeUndefined();
  });

  it('do not keep a lookup that a change overtook: what was read may be older than the change', async () => {
    const { tabs, read, cache, change } = fakeBrowser();
    read.mockImplementationOnce(async (tabId) => {
      const before = tabs.get(tabId);
      tabs.set(7, { id: 7, url: 'https://bank.example/', windowId: 1 });
      change(7);
      return before;
    });
    await expect(cache.get(7)).resolves.toMatchObject({ url: 'https://shop.example/p' });
    await expect(cache.get(7)).resolves.toMatchObject({ url: 'https://bank.example/' });
  });

  it('do not keep a closed tab', async () => {
    const { tabs, read, cache } = fakeBrowser();
    tabs.delete(7);
    await expect(cache.get(7)).resolves.toBeUndefined();
    tabs.set(7, { id: 7, url: 'https://shop.example/p', windowId: 1 });
    await expect(cache.get(7)).resolves.toMatchObject({ id: 7 });
    expect(read).toHaveBeenCalledTimes(2);
  });
});
