import { ActionDone, childRequestId, MAX_DIALOGS_LISTED, type PageDialog } from '../../protocol';
import { askPageAgent, type TargetTab } from '../page-scripts';
import { coverPagesOpenedFrom, uncoverOpenedPagesSoon } from './opened-pages';

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
