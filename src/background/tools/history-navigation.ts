import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { JawadError } from '../../protocol';
import { pause } from './pause';
import { navigateCurrentTab } from './tab-navigation';
import { defineTool, type ToolContext } from './tool';

/**
 * One step through the tab's history. With no page that way, Chromium refuses the call (in words
 * of its own, "Cannot find a next page in history." either way) and Firefox takes it and begins
 * nothing: both are told as such, not as a step taken. Nothing begins either when the step is to
 * an entry the page made of itself at its own address (a photo viewer's, which Back closes): the
 * history entry the page is at tells the two apart.
 */
function throughHistory(direction: 'back' | 'forward', go: (tabId: number) => Promise<void>) {
  const none = () => new JawadError('EXECUTION_ERROR', `There is no ${direction === 'back' ? 'earlier' : 'later'} page in this tab’s history to go ${direction} to.`, { direction });
  const refusedAsNone = (error: unknown) => {
    throw /cannot find a next page in history/i.test(String((error as Error | undefined)?.message ?? error)) ? none() : error;
  };
  return async (_params: unknown, context: ToolContext) => {
    let before: string | undefined;
    const step = async (tabId: number) => {
      before = await historyEntryOf(tabId);
      await go(tabId).catch(refusedAsNone);
    };
    const stayed = async (tabId: number) => (before !== undefined && (await historyEntryOf(tabId)) === before ? none() : undefined);
    return navigateCurrentTab(context, step, { unmoved: stayed });
  };
}

/** How long the page may take to say which entry it is at: a page held by a box of its own runs no script. */
const ENTRY_READ_MS = 500;

/**
 * The key of the history entry the tab's page is at (Navigation API); undefined where it cannot be
 * read in time (a page the browser keeps extensions out of, one held by a box).
 */
async function historyEntryOf(tabId: number): Promise<string | undefined> {
  const entryKey = () => (globalThis as { navigation?: { currentEntry?: { key?: string } | null } }).navigation?.currentEntry?.key ?? null;
  const read = browser.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: entryKey, injectImmediately: true }).then(([frame]) => frame?.result, () => undefined);
  const key = await Promise.race([read, pause(ENTRY_READ_MS)]);
  return typeof key === 'string' ? key : undefined;
}

export const goBack = defineTool({
  name: 'go_back',
  description: 'Go back one page in the current tab’s history.',
  params: z.object({}),
  level: 'navigate',
  effects: {},
  run: throughHistory('back', (tabId) => browser.tabs.goBack(tabId)),
});

export const goForward = defineTool({
  name: 'go_forward',
  description: 'Go forward one page in the current tab’s history.',
  params: z.object({}),
  level: 'navigate',
  effects: {},
  run: throughHistory('forward', (tabId) => browser.tabs.goForward(tabId)),
});

export const reloadTab = defineTool({
  name: 'reload_tab',
  description: 'Reload the current tab.',
  params: z.object({}),
  level: 'navigate',
  effects: {},
  run: (_params, context) => navigateCurrentTab(context, (tabId) => browser.tabs.reload(tabId)),
});
