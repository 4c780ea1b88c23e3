import { beforeEach, describe, expect, it, vi } from 'vitest';

const browser = vi.hoisted(() => ({
  tabs: { get: vi.fn(), query: vi.fn(), sendMessage: vi.fn() },
  scripting: { executeScript: vi.fn() },
}));
vi.mock('webextension-polyfill', () => ({ default: browser }));
// The page scripts' built files (their names are all the background needs).
vi.mock('../../src/content/page-agent.iife.ts?script', () => ({ default: 'page-agent.js' }));
vi.mock('../../src/content/reader.iife.ts?script', () => ({ default: 'reader.js' }));
vi.mock('../../src/content/mask.iife.ts?script', () => ({ default: 'mask.js' }));
vi.mock('../../src/content/dialog-opening.iife.ts?script', () => ({ default: 'dialog-opening.js' }));

import { askPageAgent, contextTab, injectPageScript, PAGE_AGENT } from '../../src/background/page-scripts';
import { JawadError, TargetDescription } from '../../src/protocol';

const describeRequest = { type: 'DESCRIBE' as const, requestId: 'user-00000001:describe-00000002', payload: { target: { ref: 'e1' } } };

describe('the tab a tool acts on', () => {
  beforeEach(() => vi.resetAllMocks());

  it('is the one the step gate just read, without asking the browser again', async () => {
    await expect(contextTab({ tabId: 7, tabUrl: 'https://shop.example/p' })).resolves.toEqual({ id: 7, url: 'https://shop.example/p' });
    expect(browser.tabs.get).not.toHaveBeenCalled();
  });

  it('is read again when only its id is known (a step the user took time to approve)', async () => {
    browser.tabs.get.mockResolvedValue({ id: 7, url: 'https://shop.example/cart' });
    await expect(contextTab({ tabId: 7 })).resolves.toEqual({ id: 7, url: 'https://shop.example/cart' });
    browser.tabs.get.mockRejectedValue(new Error('No tab with id: 7.'));
    await expect(contextTab({ tabId: 7 })).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/has been closed/) });
  });

  // The wordings of Chromium 156 and Firefox 153 for executeScript into a tab closed a moment ago.
  it.each(['No tab with id: 7.', 'Invalid tab ID: 7'])('says a tab closed since it was read has been closed (%s), not that the page is protected', async (wording) => {
    browser.tabs.sendMessage.mockRejectedValue(new Error('Could not establish connection. Receiving end does not exist.'));
    browser.scripting.executeScript.mockRejectedValue(new Error(wording));
    const asked = askPageAgent({ id: 7, url: 'https://shop.example/p' }, 0, describeRequest, TargetDescription);
    await expect(asked).rejects.toBeInstanceOf(JawadError);
    await expect(asked).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/has been closed/) });
  });

  it('still says a protected page is protected', async () => {
    browser.scripting.executeScript.mockRejectedValue(new Error('Cannot access contents of url "https://chromewebstore.google.com/". Extension manifest must request permission to access this host.'));
    await expect(injectPageScript({ id: 7, url: 'https://chromewebstore.google.com/' }, PAGE_AGENT)).rejects.toMatchObject({ code: 'PAGE_UNREADABLE' });
  });
});
