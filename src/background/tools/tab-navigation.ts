import type { JawadError } from '../../protocol';
import { contextTab } from '../page-scripts';
import { answersDialogsOfNavigation, stopAnsweringDialogs } from './dialog-aftermath';
import { loadFailed, navigateTab, type Arrival } from './navigation-wait';
import { navigationLoaded, watchActionRequests } from './request-watch';
import { summariseArrival } from './tabs';
import type { ToolContext } from './tool';

/**
 * A tool's navigation of the current tab (`go`: load an address, go back, reload), and the wait for
 * the page it leads to (navigation-wait.ts). What that page loads by script as it opens, the tab's
 * next call waits for; the boxes it shows as it loads are answered and told by that call
 * (dialog-aftermath.ts). `goingTo`: the address asked for, when there is one; `unmoved`: the error,
 * if any, when nothing began and the tab stays on its page.
 */
export async function navigateCurrentTab(context: ToolContext, go: (tabId: number) => Promise<unknown>, { goingTo, unmoved }: { goingTo?: string; unmoved?: (tabId: number) => Promise<JawadError | undefined> } = {}) {
  const tab = await contextTab(context);
  watchActionRequests(tab.id, 0, tab.url);
  const arrived = await answersDialogsOfNavigation(tab, goingTo);
  let arrival: Arrival;
  try {
    arrival = await navigateTab(tab.id, () => go(tab.id), context.signal, goingTo);
  } catch (error) {
    void stopAnsweringDialogs(tab, context.requestId);
    throw error;
  } finally {
    void arrived();
  }
  const failure = arrival.failed ? loadFailed(goingTo ?? arrival.tab.url ?? 'The page', arrival.failed) : arrival.unmoved && (await unmoved?.(tab.id));
  if (failure) {
    void stopAnsweringDialogs(tab, context.requestId);
    throw failure;
  }
  navigationLoaded(tab.id, arrival.tab.url);
  return summariseArrival(arrival);
}
