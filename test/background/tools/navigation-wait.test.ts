import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** One tab as the browser reports it: its state now, and the onUpdated listeners told of each change. */
const browser = vi.hoisted(() => {
  type Tab = { id: number; url: string; title: string; status: 'loading' | 'complete' };
  const listeners = new Set<(id: number, change: { status?: string }, tab: Tab) => void>();
  type RequestDetails = { tabId: number; frameId: number; requestId?: string; error?: string; url?: string; redirectUrl?: string; statusCode?: number };
  type Listener = (details: RequestDetails) => void;
  const requestListeners = { onBeforeRequest: new Map<Listener, { tabId?: number }>(), onCompleted: new Map<Listener, { tabId?: number }>(), onErrorOccurred: new Map<Listener, { tabId?: number }>(), onBeforeRedirect: new Map<Listener, { tabId?: number }>() };
  const state = { tab: { id: 7, url: 'https://shop.example/cart', title: 'Cart', status: 'complete' } as Tab };
  const tabs = {
    get: vi.fn(async () => ({ ...state.tab })),
    onUpdated: { addListener: (listener: never) => listeners.add(listener), removeListener: (listener: never) => listeners.delete(listener) },
  };
  const event = (listeners: Map<Listener, { tabId?: number }>) => ({
    addListener: (listener: Listener, filter: { tabId?: number }) => listeners.set(listener, filter),
    removeListener: (listener: Listener) => listeners.delete(listener),
  });
  const webRequest = { onBeforeRequest: event(requestListeners.onBeforeRequest), onCompleted: event(requestListeners.onCompleted), onErrorOccurred: event(requestListeners.onErrorOccurred), onBeforeRedirect: event(requestListeners.onBeforeRedirect) };
  /** The tab changes: listeners hear the new status, as the browser tells them. */
  const change = (tab: Partial<Tab>) => {
    state.tab = { ...state.tab, ...tab };
    for (const listener of listeners) listener(state.tab.id, tab.status ? { status: tab.status } : {}, state.tab);
  };
  /** webRequest tells of a request of a tab (to the listeners whose filter takes the tab). */
  const request = (kind: keyof typeof requestListeners, details: RequestDetails) => {
    for (const [listener, filter] of requestListeners[kind]) if (filter.tabId === undefined || filter.tabId === details.tabId) listener({ url: state.tab.url, requestId: 'r1', ...details });
  };
  const fail = (details: RequestDetails) => request('onErrorOccurred', details);
  const listening = () => listeners.size + Object.values(requestListeners).reduce((sum, map) => sum + map.size, 0);
  /**
   * The page: held by the browser's box, it runs no script until the box is answered (Chromium);
   * `asks`, it was asked to unload and asks the user, running on (Firefox); `watched`, the tool's
   * navigation marks its unloading (watchLeavePrompt).
   */
  const page = { held: false, asks: false, watched: false };
  const scripting = {
    executeScript: vi.fn(({ args }: { args: unknown[] }) => {
      if (page.held) return new Promise(() => {});
      // The watch is armed or stopped (the marks' names and on/off), or the probe reads the mark.
      if (args.length === 3) page.watched = args[2] === true;
      return Promise.resolve([{ result: args.length === 3 ? undefined : page.watched && page.asks }]);
    }),
  };
  return { tabs, webRequest, scripting, page, state, change, request, fail, listening };
});
// Firefox's figure: its reports of a page's load may come after the tab shows the page.
vi.mock('../../../src/platform', () => ({ PAGE_LOAD_REPORT_LAG_MS: 300 }));
vi.mock('webextension-polyfill', () => ({ default: { tabs: browser.tabs, webRequest: browser.webRequest, scripting: browser.scripting, runtime: { getPlatformInfo: async () => ({ os: 'linux' }) } } }));

import { describeLoadFailure, navigateTab, openTabAndWait } from '../../../src/background/tools/navigation-wait';
import { JawadError } from '../../../src/protocol';

const signal = new AbortController().signal;

describe('waiting for the page a navigation opens', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    browser.state.tab = { id: 7, url: 'https://shop.example/cart', title: 'Cart', status: 'complete' };
    Object.assign(browser.page, { held: false, asks: false, watched: false });
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
    expect(browser.listening()).toBe(0);
  });

  it('says why a page could not be loaded, and takes a load only stopped (another navigation, a download) for none', async () => {
    const refused = navigateTab(7, async () => {
      browser.fail({ tabId: 8, frameId: 0, error: 'net::ERR_NAME_NOT_RESOLVED', url: 'http://127.0.0.1:9/' });
      browser.fail({ tabId: 7, frameId: 3, error: 'net::ERR_NAME_NOT_RESOLVED', url: 'http://127.0.0.1:9/' });
      browser.fail({ tabId: 7, frameId: 0, error: 'net::ERR_CONNECTION_REFUSED', url: 'http://127.0.0.1:9/' });
    }, signal);
    // The tab still shows the page left, "complete": answered only once the browser's error page is
    // there, so the next read is not of the page left.
    await vi.advanceTimersByTimeAsync(200);
    let settled = false;
    void refused.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    browser.change({ status: 'complete', url: 'http://127.0.0.1:9/', title: '127.0.0.1' });
    await vi.advanceTimersByTimeAsync(50);
    await expect(refused).resolves.toMatchObject({ tab: { title: '127.0.0.1' }, failed: 'net::ERR_CONNECTION_REFUSED', stillLoading: false });

    browser.state.tab = { id: 7, url: 'https://shop.example/cart', title: 'Cart', status: 'complete' };
    const stopped = navigateTab(7, async () => {
      browser.change({ status: 'loading' });
      browser.fail({ tabId: 7, frameId: 0, error: 'NS_BINDING_ABORTED' });
    }, signal);
    await vi.advanceTimersByTimeAsync(100);
    browser.change({ status: 'complete', url: 'https://shop.example/orders' });
    await vi.advanceTimersByTimeAsync(50);
    await expect(stopped).resolves.toEqual({ tab: expect.objectContaining({ url: 'https://shop.example/orders' }), stillLoading: false });
    expect(browser.listening()).toBe(0);
  });

  it('waits past the page being left shown "complete" again while its failed load is still to be told (Firefox)', async () => {
    const failing = navigateTab(7, async () => {
      browser.request('onBeforeRequest', { tabId: 7, frameId: 0, url: 'http://127.0.0.1:9/' });
      browser.change({ status: 'loading' });
    }, signal);
    await vi.advanceTimersByTimeAsync(100);
    browser.change({ status: 'complete' });
    await vi.advanceTimersByTimeAsync(100);
    browser.fail({ tabId: 7, frameId: 0, error: 'NS_ERROR_CONNECTION_REFUSED', url: 'http://127.0.0.1:9/' });
    await vi.advanceTimersByTimeAsync(100);
    browser.change({ status: 'loading', url: 'http://127.0.0.1:9/' });
    await vi.advanceTimersByTimeAsync(100);
    browser.change({ status: 'complete', title: 'Problem loading page' });
    await vi.advanceTimersByTimeAsync(50);
    await expect(failing).resolves.toMatchObject({ tab: { url: 'http://127.0.0.1:9/', title: 'Problem loading page' }, failed: 'NS_ERROR_CONNECTION_REFUSED' });
  });

  it('takes a reload its service worker answers as loaded once the tab is, though the load is never told to end (Firefox)', async () => {
    const cart = 'https://shop.example/cart';
    const reloaded = navigateTab(7, async () => {
      browser.request('onBeforeRequest', { tabId: 7, frameId: 0, url: cart });
      browser.change({ status: 'loading' });
      // Handed to the worker: a redirect to its own address, with no status; no end is told after.
      browser.request('onBeforeRedirect', { tabId: 7, frameId: 0, url: cart, redirectUrl: cart, statusCode: 0 });
    }, signal);
    await vi.advanceTimersByTimeAsync(100);
    browser.change({ status: 'complete', title: 'Cart (2)' });
    await vi.advanceTimersByTimeAsync(50);
    let settled = false;
    void reloaded.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
    await expect(reloaded).resolves.toEqual({ tab: expect.objectContaining({ url: cart, title: 'Cart (2)' }), stillLoading: false });

    // A real redirect to the same page (a 302 that set a cookie) goes on as the same load.
    browser.state.tab = { id: 7, url: cart, title: 'Cart', status: 'complete' };
    const redirected = navigateTab(7, async () => {
      browser.request('onBeforeRequest', { tabId: 7, frameId: 0, url: cart });
      browser.change({ status: 'loading' });
      browser.request('onBeforeRedirect', { tabId: 7, frameId: 0, url: cart, redirectUrl: cart, statusCode: 302 });
      browser.request('onBeforeRequest', { tabId: 7, frameId: 0, url: cart });
    }, signal);
    await vi.advanceTimersByTimeAsync(100);
    browser.change({ status: 'complete' });
    await vi.advanceTimersByTimeAsync(100);
    settled = false;
    void redirected.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    browser.request('onCompleted', { tabId: 7, frameId: 0, url: cart });
    await vi.advanceTimersByTimeAsync(50);
    await expect(redirected).resolves.toMatchObject({ stillLoading: false });
  });

  it('waits past the page being left shown "complete" again before Firefox tells of its load at all, when it goes elsewhere', async () => {
    const nowhere = 'http://127.0.0.1:9/';
    const failing = navigateTab(7, async () => browser.change({ status: 'loading' }), signal, nowhere);
    await vi.advanceTimersByTimeAsync(50);
    browser.change({ status: 'complete' });
    await vi.advanceTimersByTimeAsync(500);
    let settled = false;
    void failing.then(() => (settled = true), () => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    // The error page first, then webRequest's late reports.
    browser.change({ status: 'complete', url: nowhere, title: '127.0.0.1' });
    await vi.advanceTimersByTimeAsync(100);
    expect(settled).toBe(false);
    browser.request('onBeforeRequest', { tabId: 7, frameId: 0, url: nowhere });
    browser.fail({ tabId: 7, frameId: 0, error: 'NS_ERROR_CONNECTION_REFUSED', url: nowhere });
    await vi.advanceTimersByTimeAsync(50);
    await expect(failing).resolves.toMatchObject({ tab: { url: nowhere }, failed: 'NS_ERROR_CONNECTION_REFUSED' });

    // Asked for the page it shows (written another way): its own "complete" is the arrival, and its
    // load's report is given the time it may take to come.
    browser.state.tab = { id: 7, url: 'https://shop.example/cart', title: 'Cart', status: 'complete' };
    const again = navigateTab(7, async () => browser.change({ status: 'loading' }), signal, 'HTTPS://shop.example/cart#top');
    await vi.advanceTimersByTimeAsync(50);
    browser.change({ status: 'complete' });
    await vi.advanceTimersByTimeAsync(350);
    await expect(again).resolves.toMatchObject({ tab: { url: 'https://shop.example/cart' }, stillLoading: false });
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
    await expect(arrival).resolves.toEqual({ tab: expect.objectContaining({ url: 'https://shop.example/cart#total' }), stillLoading: false, withinPage: true });
    expect(browser.page.watched).toBe(false);
  });

  it('takes the very address the tab shows, with a #fragment, for a jump within the page (nothing begins in Firefox), not a page that kept the tab', async () => {
    browser.state.tab = { ...browser.state.tab, url: 'https://shop.example/cart#total' };
    const arrival = navigateTab(7, async () => {}, signal, 'https://shop.example/cart#total');
    await vi.advanceTimersByTimeAsync(1_100);
    await expect(arrival).resolves.toEqual({ tab: expect.objectContaining({ url: 'https://shop.example/cart#total' }), stillLoading: false, unmoved: true });
  });

  it('says the page being left kept the tab when nothing begins and the page asks whether to leave (Firefox behind its “Leave page?” box)', async () => {
    const kept = navigateTab(7, async () => void (browser.page.asks = true), signal);
    const failed = expect(kept).rejects.toThrow(/did not let the tab leave it: it is most likely asking the user whether to leave/);
    await vi.advanceTimersByTimeAsync(1_100);
    await failed;
    await expect(kept).rejects.toMatchObject({ code: 'EXECUTION_ERROR', details: { url: 'https://shop.example/cart', held: true } });
    expect(browser.listening()).toBe(0);
  });

  it('takes a move to another entry of the page it shows (history.pushState, one address) for no navigation, and stops watching the page', async () => {
    const arrival = navigateTab(7, async () => expect(browser.page.watched).toBe(true), signal);
    await vi.advanceTimersByTimeAsync(1_100);
    await expect(arrival).resolves.toEqual({ tab: expect.objectContaining({ url: 'https://shop.example/cart' }), stillLoading: false, unmoved: true });
    expect(browser.page.watched).toBe(false);
  });

  it('says so within two seconds when the tab reports loading but loads nothing and its page runs no script (Chromium, held by the box)', async () => {
    const kept = navigateTab(7, async () => {
      browser.page.held = true;
      browser.change({ status: 'loading' });
    }, signal);
    const failed = expect(kept).rejects.toBeInstanceOf(JawadError);
    await vi.advanceTimersByTimeAsync(1_600);
    await failed;
    await expect(kept).rejects.toThrow(/did not let the tab leave it/);
  });

  it('waits on for a page that still runs its scripts while nothing is reported loading (a service worker answering the navigation)', async () => {
    const arrival = navigateTab(7, async () => browser.change({ status: 'loading' }), signal);
    await vi.advanceTimersByTimeAsync(2_000);
    browser.change({ status: 'complete', url: 'https://shop.example/orders' });
    await vi.advanceTimersByTimeAsync(50);
    await expect(arrival).resolves.toMatchObject({ tab: { url: 'https://shop.example/orders' }, stillLoading: false });
  });

  it('stops listening when the navigation cannot be made', async () => {
    await expect(navigateTab(7, async () => Promise.reject(new Error('No previous page')), signal)).rejects.toThrow('No previous page');
    expect(browser.listening()).toBe(0);
  });

  it('waits in a new tab past the blank page it holds before the address asked for begins loading', async () => {
    browser.state.tab = { id: 7, url: 'about:blank', title: '', status: 'complete' };
    const arrival = openTabAndWait(async () => ({ ...browser.state.tab, index: 0, highlighted: true, active: true, pinned: false, incognito: false }), 'https://news.example/', signal);
    await vi.advanceTimersByTimeAsync(100);
    browser.change({ status: 'loading', url: 'https://news.example/' });
    browser.request('onBeforeRequest', { tabId: 7, frameId: 0 });
    browser.request('onCompleted', { tabId: 7, frameId: 0 });
    await vi.advanceTimersByTimeAsync(100);
    browser.change({ status: 'complete', title: 'News' });
    await vi.advanceTimersByTimeAsync(50);
    await expect(arrival).resolves.toEqual({ tab: expect.objectContaining({ url: 'https://news.example/', title: 'News' }), stillLoading: false });
  });

  it('hears a new tab’s page fail even before the tab is made known', async () => {
    const arrival = openTabAndWait(async () => {
      browser.state.tab = { id: 9, url: 'https://nowhere.example/', title: '', status: 'complete' };
      browser.fail({ tabId: 9, frameId: 0, error: 'NS_ERROR_UNKNOWN_HOST' });
      return { ...browser.state.tab, index: 0, highlighted: true, active: true, pinned: false, incognito: false };
    }, 'https://nowhere.example/', signal);
    await expect(arrival).resolves.toMatchObject({ failed: 'NS_ERROR_UNKNOWN_HOST' });
    expect(browser.listening()).toBe(0);
  });
});

describe('describeLoadFailure', () => {
  it('tells the common reasons in words, in both browsers’ codes, keeping the code', () => {
    expect(describeLoadFailure('net::ERR_CONNECTION_REFUSED')).toBe('the server refused the connection (nothing answers at that address) (net::ERR_CONNECTION_REFUSED)');
    expect(describeLoadFailure('NS_ERROR_CONNECTION_REFUSED')).toMatch(/^the server refused the connection/);
    expect(describeLoadFailure('net::ERR_NAME_NOT_RESOLVED')).toMatch(/^no site has that name/);
    expect(describeLoadFailure('NS_ERROR_UNKNOWN_HOST')).toMatch(/^no site has that name/);
    expect(describeLoadFailure('NS_ERROR_NET_TIMEOUT')).toMatch(/^the server did not answer in time/);
    expect(describeLoadFailure('net::ERR_CERT_AUTHORITY_INVALID')).toMatch(/certificate is not trusted/);
    expect(describeLoadFailure('net::ERR_SOMETHING_NEW')).toBe('the browser reports net::ERR_SOMETHING_NEW');
  });
});
