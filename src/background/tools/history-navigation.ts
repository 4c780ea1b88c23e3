import * as z from 'zod/mini';
import browser from 'webextension-polyfill';
import { JawadError } from '../../protocol';
import { pause } from './pause';
import { navigateCurrentTab } from './tab-navigation';
import { defineTool, type ToolContext } from './tool';

/**
 * One step through the tab's history, as the page's own `history.back()` / `forward()` takes it:
 * Chromium's Back (and tabs.goBack) skips every entry whose page was left without the user's touch,
 * which is every page a tool or an action of Jawad's opened, so an agent's step back went past all
 * of them to the page before. Where no script may run (a page the browser keeps extensions out of),
 * the browser's own call takes the step.
 *
 * With no page that way, the page's history API does nothing, Chromium's call refuses (in words of
 * its own, "Cannot find a next page in history." either way) and Firefox's begins nothing: each is
 * told as such, not as a step taken. Nothing begins either when the step is to an entry the page
 * made of itself at its own address (a photo viewer's, which Back closes): the history entry the
 * page is at (read with the step, and after it) tells the two apart.
 */
function throughHistory(direction: 'back' | 'forward', browserStep: (tabId: number) => Promise<void>) {
  const none = () => new JawadError('EXECUTION_ERROR', `There is no ${direction === 'back' ? 'earlier' : 'later'} page in this tab’s history to go ${direction} to.`, { direction });
  const refusedAsNone = (error: unknown) => {
    throw /cannot find a next page in history/i.test(String((error as Error | undefined)?.message ?? error)) ? none() : error;
  };
  return async (_params: unknown, context: ToolContext) => {
    let before: string | undefined;
    const step = async (tabId: number) => {
      const taken = await inPage(tabId, direction);
      if (taken === 'refused') return browserStep(tabId).catch(refusedAsNone);
      before = taken;
    };
    const stayed = async (tabId: number) => (before !== undefined && (await inPage(tabId, null)) === before ? none() : undefined);
    return navigateCurrentTab(context, step, { unmoved: stayed });
  };
}

/** How long the page may take to run a one-line script: a page held by a box of its own runs none. */
const PAGE_SCRIPT_MS = 500;

/**
 * In the page: the key of the history entry it is at (null without the Navigation API), then the
 * step, if one is asked. Self-contained: executeScript sends its source.
 */
function keyThenStep(step: 'back' | 'forward' | null): string | null {
  const key = (globalThis as { navigation?: { currentEntry?: { key?: string } | null } }).navigation?.currentEntry?.key ?? null;
  if (step === 'back') history.back();
  if (step === 'forward') history.forward();
  return key;
}

/**
 * Runs keyThenStep in the tab's page: the key of the entry it was at (undefined where it cannot be
 * read in time), or `refused` where no script may run. A page that does not answer in time may
 * take the step once it does (a box of its own held it).
 */
async function inPage(tabId: number, step: 'back' | 'forward' | null): Promise<string | undefined | 'refused'> {
  const ran = browser.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: keyThenStep, args: [step], injectImmediately: true }).then(
    ([frame]) => (typeof frame?.result === 'string' ? frame.result : undefined),
    () => 'refused' as const,
  );
  return Promise.race([ran, pause(PAGE_SCRIPT_MS).then(() => undefined)]);
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
