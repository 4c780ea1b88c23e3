import browser, { type Tabs } from 'webextension-polyfill';
import { ActionDone, childRequestId, MAX_DIALOGS_LISTED, type PageDialog } from '../../protocol';
import { askPageAgent, type TargetTab } from '../page-scripts';
import { coverPagesOpenedFrom, markNavigationsOf, uncoverOpenedPagesSoon } from './opened-pages';

/**
 * A page may show its own alert, confirmation or prompt box after an action has answered: in its
 * answer to the request a click made ("Saved!"), which Firefox may report only after the click's
 * step returned. The acting frame's page agent answers such boxes until the tab's next step has
 * waited for what the action set off (src/content/actions/dialogs.ts); this is the background's
 * side: which frame is still answering, and the boxes it told of so far.
 */
const answering = new Map<number, { frameId: number; told: PageDialog[] }>();

/**
 * An action that may raise boxes runs in this frame of the tab; a page it opens answers its boxes
 * as it loads too (opened-pages.ts).
 */
export async function answersDialogs(tab: TargetTab, frameId: number): Promise<void> {
  answering.set(tab.id, { frameId, told: [] });
  await coverPagesOpenedFrom(tab.url);
}

/**
 * A tool navigates the tab (open_url, go_back, reload_tab…) from `tab.url`, to `goingTo` when
 * known: the page it opens answers the boxes it shows as it loads (opened-pages.ts), and the tab's
 * next step tells them, as it tells those of a page an action opened. Call the returned `arrived`
 * once the wait for the page is over: the tab's later loads are not the tool's.
 */
export async function answersDialogsOfNavigation(tab: { id: number; url?: string }, goingTo?: string): Promise<() => Promise<void>> {
  // With no address asked for (a reload, a step through history), the page is most often of the site the tab shows.
  const destination = goingTo ?? tab.url;
  if (destination) await coverPagesOpenedFrom(destination);
  answersInOpenedPage(tab.id);
  return markNavigationsOf({ tabIds: [tab.id] });
}

/**
 * new_tab's tab, to be made (`open`) on `url`: its page answers the boxes it shows as it loads.
 * Marked before it is made, as every tab that is not there yet, for its page's load may begin
 * before its id is known; then as itself, once it is.
 */
export async function openTabAnsweringDialogs(url: string, open: () => Promise<Tabs.Tab>): Promise<{ tab: Tabs.Tab; arrived: () => Promise<void> }> {
  await coverPagesOpenedFrom(url);
  const others = (await browser.tabs.query({})).flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
  const beforeMade = await markNavigationsOf({ excludedTabIds: others });
  let tab: Tabs.Tab;
  try {
    tab = await open();
  } finally {
    void beforeMade();
  }
  answersInOpenedPage(tab.id!);
  return { tab, arrived: await markNavigationsOf({ tabIds: [tab.id!] }) };
}

/** The tab's next step tells what the page opened in it answered as it loaded (and what its last action answered and no step told yet). */
function answersInOpenedPage(tabId: number): void {
  answering.set(tabId, { frameId: 0, told: answering.get(tabId)?.told ?? [] });
}

/** Boxes the acting frame answered, told while the page showed an answer (SETTLE). */
export function noteDialogs(tabId: number, dialogs: PageDialog[]): void {
  const entry = answering.get(tabId);
  if (entry) entry.told.push(...dialogs.slice(0, MAX_DIALOGS_LISTED - entry.told.length));
}

/** The boxes told so far, for the step that is returning now; the frame goes on answering. */
export function dialogsSoFar(tabId: number): PageDialog[] {
  return answering.get(tabId)?.told.splice(0) ?? [];
}

/**
 * What the tab's last action set off is over: its frame leaves the page's boxes to the browser
 * again. Resolves with the boxes it answered that no step has told yet. A frame whose document
 * went away has none to give; a page the action opened there is given its agent, which adopted
 * what the page's shim answered as it loaded.
 */
export async function stopAnsweringDialogs(tab: TargetTab, requestId: string): Promise<PageDialog[]> {
  const entry = answering.get(tab.id);
  if (!entry) return [];
  answering.delete(tab.id);
  if (answering.size === 0) uncoverOpenedPagesSoon();
  const request = { type: 'ACTION_DONE' as const, requestId: childRequestId(requestId, 'done'), payload: {} };
  const rest = await askPageAgent(tab, entry.frameId, request, ActionDone).then(({ dialogs }) => dialogs, () => []);
  return [...entry.told, ...rest].slice(0, MAX_DIALOGS_LISTED);
}

/** The tab was closed: nothing of it is left to tell. */
export function forgetClosedTab(tabId: number): void {
  if (answering.delete(tabId) && answering.size === 0) uncoverOpenedPagesSoon();
}
