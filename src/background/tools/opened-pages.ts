import browser from 'webextension-polyfill';
import { DIALOG_CHANNEL } from '../../protocol';
import { sessionRules, type SessionRule } from '../../platform';
import { parseWebUrl } from '../harbor/site';
import { DIALOG_SHIM_AS_PAGES_OPEN } from '../page-scripts';

/**
 * A page an action opens may show a box as it loads (`<script>alert("Saved")</script>` in a form's
 * answer page). The box holds the page before Jawad's scripts, injected once a page has loaded,
 * could answer it. So before an action that may open a page, the dialog shim is registered to run
 * in the page's own world as each page of the acting tab's site begins to load
 * (src/content/dialog-opening.iife.ts); it answers only in a tab where the action left its answers
 * for that origin (src/content/actions/dialogs.ts), or whose page a tool's navigation opened
 * (`markNavigationsOf`). Only sites Jawad acts on, and only while it does: the registration is
 * dropped a minute after the last action's aftermath, and never outlives the browser's session.
 */
const SCRIPT_ID = 'jawad-dialogs-as-pages-open';
/** So an agent's run of clicks does not register and drop the script around each one. */
const LINGER_MS = 60_000;

/** The host names (any port) whose pages run the shim as they open. */
const hosts = new Set<string>();
let applied: Promise<void> = Promise.resolve();
let linger: ReturnType<typeof setTimeout> | undefined;

/**
 * Pages of the site at `url` opening from now on run the shim. Never fails: if the browser refuses,
 * a page the action opens shows its boxes as before.
 */
export function coverPagesOpenedFrom(url: string): Promise<void> {
  clearTimeout(linger);
  const host = parseWebUrl(url)?.hostname;
  if (host === undefined || hosts.has(host)) return applied;
  hosts.add(host);
  // Refused: the next action on the site asks again.
  return apply(() => hosts.delete(host));
}

/** No action's aftermath is left: pages load without the shim again, unless an action comes first. */
export function uncoverOpenedPagesSoon(): void {
  clearTimeout(linger);
  linger = setTimeout(() => {
    hosts.clear();
    void apply();
  }, LINGER_MS);
}

function apply(refused = () => {}): Promise<void> {
  applied = applied.then(register).catch(() => void refused());
  return applied;
}

async function register(): Promise<void> {
  // Asked each time: a background that was stopped and started again left it as it was.
  const registered = (await browser.scripting.getRegisteredContentScripts({ ids: [SCRIPT_ID] })).length > 0;
  if (hosts.size === 0) {
    if (registered) await browser.scripting.unregisterContentScripts({ ids: [SCRIPT_ID] });
    return;
  }
  const script = {
    id: SCRIPT_ID,
    js: [DIALOG_SHIM_AS_PAGES_OPEN],
    matches: [...hosts].map((host) => `*://${host}/*`),
    runAt: 'document_start',
    allFrames: true,
    persistAcrossSessions: false,
    world: 'MAIN',
  } as Parameters<typeof browser.scripting.registerContentScripts>[0][number]; // The polyfill's types predate `world` (both browsers take it; Firefox since 128).
  await (registered ? browser.scripting.updateContentScripts([script]) : browser.scripting.registerContentScripts([script]));
}

/**
 * The session rules that mark a tab's pages as opened by a tool's navigation take ids from here
 * (below: src/platform/provider-origin.ts's).
 */
const FIRST_MARK_RULE_ID = 1_000;
/** The rules of the navigations tools wait for now. */
const marked = new Set<number>();
let marking: Promise<unknown> = Promise.resolve();

/** The tabs a mark is for: one tab, or a tab not made yet (every tab but those there now). */
export type MarkedTabs = { tabIds: [number] } | { excludedTabIds: number[] };

/**
 * A tool navigates the tab (open_url, reload_tab…): until the returned `unmark` is called (its wait
 * for the page is over), the tab's responses, the page's and its frames', carry a Server-Timing
 * metric the dialog shim reads as the page opens, and answers the page's boxes with (alert OK,
 * confirm and prompt cancelled). The browser adds it in its network stack, for those tabs alone;
 * the page's server sees nothing. Never fails: if the browser refuses, the page's boxes are the
 * browser's own, as before.
 */
export async function markNavigationsOf(tabs: MarkedTabs): Promise<() => Promise<void>> {
  const id = await inTurn(() => addMark(tabs));
  return async () => {
    if (id === undefined) return;
    marked.delete(id);
    await inTurn(() => sessionRules().updateSessionRules({ removeRuleIds: [id], addRules: [] }));
  };
}

/** Drops the marks no tool waits on: those a background that stopped while a tool waited left. */
export async function unmarkLeftNavigations(): Promise<void> {
  await inTurn(async () => sessionRules().updateSessionRules({ removeRuleIds: (await marks()).filter((id) => !marked.has(id)), addRules: [] }));
}

const marks = async () => (await sessionRules().getSessionRules()).map((rule) => rule.id).filter((id) => id >= FIRST_MARK_RULE_ID);

async function addMark(tabs: MarkedTabs): Promise<number> {
  const id = Math.max(FIRST_MARK_RULE_ID - 1, ...(await marks())) + 1;
  const rule: SessionRule = {
    id,
    priority: 1,
    action: { type: 'modifyHeaders', responseHeaders: [{ header: 'server-timing', operation: 'append', value: `${DIALOG_CHANNEL};desc=cancel` }] },
    condition: { ...tabs, resourceTypes: ['main_frame', 'sub_frame'] },
  };
  await sessionRules().updateSessionRules({ removeRuleIds: [], addRules: [rule] });
  marked.add(id);
  return id;
}

/** Rule changes one after another, each reading the rules the one before left; one the browser refuses resolves undefined. */
function inTurn<T>(change: () => Promise<T>): Promise<T | undefined> {
  const done = marking.then(change).catch(() => undefined);
  marking = done;
  return done;
}
