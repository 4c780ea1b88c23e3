import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The browser's registered content scripts, as scripting keeps them. */
const browser = vi.hoisted(() => {
  const registered = new Map<string, Record<string, unknown>>();
  const scripting = {
    registered,
    getRegisteredContentScripts: vi.fn(async ({ ids }: { ids: string[] }) => ids.filter((id) => registered.has(id)).map((id) => registered.get(id))),
    registerContentScripts: vi.fn(async (scripts: Array<{ id: string }>) => void scripts.forEach((script) => registered.set(script.id, script))),
    updateContentScripts: vi.fn(async (scripts: Array<{ id: string }>) => void scripts.forEach((script) => registered.set(script.id, script))),
    unregisterContentScripts: vi.fn(async ({ ids }: { ids: string[] }) => void ids.forEach((id) => registered.delete(id))),
  };
  return { scripting };
});
vi.mock('webextension-polyfill', () => ({ default: browser }));
vi.mock('../../../src/background/page-scripts', () => ({ DIALOG_SHIM_AS_PAGES_OPEN: 'src/content/dialog-opening.iife.js' }));

import { coverPagesOpenedFrom, uncoverOpenedPagesSoon } from '../../../src/background/tools/opened-pages';

const scripts = () => [...browser.scripting.registered.values()];

describe('the dialog shim registered for pages an action opens', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(async () => {
    uncoverOpenedPagesSoon();
    await vi.runAllTimersAsync();
    vi.useRealTimers();
  });

  it('runs in the page’s own world before its scripts, in every frame, for the sites acted on only, and is dropped a minute after the last action', async () => {
    await coverPagesOpenedFrom('https://shop.example/cart?step=2');
    await coverPagesOpenedFrom('http://127.0.0.1:8080/admin/');
    expect(scripts()).toEqual([
      {
        id: expect.any(String),
        js: ['src/content/dialog-opening.iife.js'],
        matches: ['*://shop.example/*', '*://127.0.0.1/*'],
        runAt: 'document_start',
        world: 'MAIN',
        allFrames: true,
        persistAcrossSessions: false,
      },
    ]);
    // A site already covered costs the action nothing.
    await coverPagesOpenedFrom('https://shop.example/checkout');
    expect(browser.scripting.updateContentScripts).toHaveBeenCalledTimes(1);

    uncoverOpenedPagesSoon();
    await vi.advanceTimersByTimeAsync(30_000);
    // Another action, its aftermath still going past the minute.
    await coverPagesOpenedFrom('https://shop.example/orders');
    await vi.advanceTimersByTimeAsync(40_000);
    expect(scripts()).toHaveLength(1);
    uncoverOpenedPagesSoon();
    await vi.advanceTimersByTimeAsync(59_000);
    expect(scripts()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(scripts()).toEqual([]);
  });

  it('covers no page a browser page or a file opens, and never fails the action when the browser refuses (the next action asks again)', async () => {
    await coverPagesOpenedFrom('about:blank');
    await coverPagesOpenedFrom('file:///home/me/form.html');
    expect(scripts()).toEqual([]);
    browser.scripting.registerContentScripts.mockRejectedValueOnce(new Error('Invalid url pattern'));
    await expect(coverPagesOpenedFrom('https://shop.example/')).resolves.toBeUndefined();
    expect(scripts()).toEqual([]);
    await coverPagesOpenedFrom('https://shop.example/');
    expect(scripts()).toMatchObject([{ matches: ['*://shop.example/*'] }]);
  });
});
