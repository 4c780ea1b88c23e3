import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The acting frame as a one-line script finds it: held (runs nothing), inside the `beforeunload` an action set off, or free. */
const browser = vi.hoisted(() => {
  const page = { state: 'free' as 'free' | 'held' | 'asked', url: 'https://notes.example/edit' };
  const scripting = {
    executeScript: vi.fn(({ func, args }: { func: (flag: string) => boolean; args: [string] }) => {
      if (page.state === 'held') return new Promise(() => {});
      // The probe's own function, run where the page agent's mark is set, or not.
      const scope = globalThis as Record<string, unknown>;
      if (page.state === 'asked') scope[args[0]] = true;
      const result = func(args[0]);
      delete scope[args[0]];
      return Promise.resolve([{ result }]);
    }),
  };
  const tabs = { get: vi.fn(async () => ({ id: 7, url: page.url })) };
  return { page, scripting, tabs };
});
vi.mock('webextension-polyfill', () => ({ default: { tabs: browser.tabs, scripting: browser.scripting } }));

import { heldByLeavePrompt } from '../../../src/background/tools/leave-prompt';

const tab = { id: 7, url: 'https://notes.example/edit' };

/** Follows whether the wait resolved (the page is taken to ask whether to leave). */
function watch(answered: Promise<unknown>, requestsPending = () => false, signal = new AbortController().signal) {
  const seen = { held: false };
  void heldByLeavePrompt(tab, 0, answered, requestsPending, signal).then(() => (seen.held = true));
  return seen;
}

describe('noticing that an action is held by the browser’s “Leave page?” box', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    browser.page.state = 'free';
    browser.page.url = tab.url;
    browser.scripting.executeScript.mockClear();
  });
  afterEach(() => vi.useRealTimers());

  it('says so once the page agent is inside the beforeunload it set off (Firefox), after a second without an answer', async () => {
    browser.page.state = 'asked';
    const seen = watch(new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(900);
    expect(seen.held).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(seen.held).toBe(true);
  });

  it('says so when the page runs no script at two probes in a row (Chromium), not at one', async () => {
    browser.page.state = 'held';
    const seen = watch(new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(1_600);
    expect(seen.held).toBe(false);
    await vi.advanceTimersByTimeAsync(500);
    expect(seen.held).toBe(true);
  });

  it('does not when the page was only busy for a moment, or waits on a request of the action, or has left', async () => {
    browser.page.state = 'held';
    const busy = watch(new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(1_200);
    browser.page.state = 'free';
    await vi.advanceTimersByTimeAsync(5_000);
    expect(busy.held).toBe(false);

    browser.page.state = 'held';
    const waitingOnRequest = watch(new Promise(() => {}), () => true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(waitingOnRequest.held).toBe(false);

    browser.page.url = 'https://notes.example/tides';
    const left = watch(new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(left.held).toBe(false);
  });

  it('never says so once the action answered or the step stopped, and stops looking', async () => {
    browser.page.state = 'asked';
    const answered = watch(Promise.resolve({ action: 'click' }));
    const stop = new AbortController();
    const stopped = watch(new Promise(() => {}), () => false, stop.signal);
    stop.abort();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(answered.held).toBe(false);
    expect(stopped.held).toBe(false);
    expect(browser.scripting.executeScript).not.toHaveBeenCalled();
  });
});
