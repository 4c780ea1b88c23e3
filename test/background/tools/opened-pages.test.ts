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
  /** The browser's declarativeNetRequest session rules, by id. */
  const rules = new Map<number, Record<string, unknown>>();
  const declarativeNetRequest = {
    rules,
    getSessionRules: vi.fn(async () => [...rules.values()]),
    updateSessionRules: vi.fn(async ({ removeRuleIds, addRules }: { removeRuleIds: number[]; addRules: Array<{ id: number }> }) => {
      if (addRules.some((rule) => rules.has(rule.id))) throw new Error('Rule with id already exists');
      removeRuleIds.forEach((id) => rules.delete(id));
      addRules.forEach((rule) => rules.set(rule.id, rule));
    }),
  };
  return { scripting, declarativeNetRequest };
});
vi.mock('webextension-polyfill', () => ({ default: browser }));
vi.mock('../../../src/background/page-scripts', () => ({ DIALOG_SHIM_AS_PAGES_OPEN: 'src/content/dialog-opening.iife.js' }));
vi.mock('../../../src/platform', () => ({ sessionRules: () => browser.declarativeNetRequest }));

import { coverPagesOpenedFrom, markNavigationsOf, uncoverOpenedPagesSoon, unmarkLeftNavigations } from '../../../src/background/tools/opened-pages';

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

describe('the marks of pages a tool’s navigation opens', () => {
  const rules = browser.declarativeNetRequest.rules;
  /** The provider's Origin rule (src/platform/provider-origin.ts), which marks must leave alone. */
  const originRule = { id: 1, action: { type: 'modifyHeaders', requestHeaders: [{ header: 'origin', operation: 'set', value: 'http://127.0.0.1:11434' }] } };
  beforeEach(() => {
    rules.clear();
    rules.set(1, originRule);
  });

  it('adds Server-Timing to the responses of that tab alone, its page’s and frames’, until the wait is over, each navigation its own rule', async () => {
    const [first, second] = await Promise.all([markNavigationsOf({ tabIds: [7] }), markNavigationsOf({ excludedTabIds: [7, 8] })]);
    expect([...rules.values()]).toEqual([
      originRule,
      {
        id: 1000,
        priority: 1,
        action: { type: 'modifyHeaders', responseHeaders: [{ header: 'server-timing', operation: 'append', value: 'jawad-dialogs;desc=cancel' }] },
        condition: { tabIds: [7], resourceTypes: ['main_frame', 'sub_frame'] },
      },
      expect.objectContaining({ id: 1001, condition: { excludedTabIds: [7, 8], resourceTypes: ['main_frame', 'sub_frame'] } }),
    ]);
    await second!();
    expect([...rules.keys()]).toEqual([1, 1000]);
    await first!();
    expect([...rules.keys()]).toEqual([1]);
  });

  it('drops at start the marks a stopped background left, not those of waits under way, and never fails the tool when the browser refuses', async () => {
    rules.set(1004, { id: 1004, condition: { tabIds: [3] } });
    const waiting = await markNavigationsOf({ tabIds: [9] });
    await unmarkLeftNavigations();
    expect([...rules.keys()]).toEqual([1, 1005]);
    await waiting();

    browser.declarativeNetRequest.updateSessionRules.mockRejectedValueOnce(new Error('Too many rules'));
    const refused = await markNavigationsOf({ tabIds: [9] });
    await expect(refused()).resolves.toBeUndefined();
    expect([...rules.keys()]).toEqual([1]);
    // The next one is asked again.
    await markNavigationsOf({ tabIds: [9] });
    expect([...rules.keys()]).toEqual([1, 1000]);
  });
});
