import browser from 'webextension-polyfill';
import { parseWebUrl } from '../harbor/site';
import { DIALOG_SHIM_AS_PAGES_OPEN } from '../page-scripts';

/**
 * A page an action opens may show a box as it loads (`<script>alert("Saved")</script>` in a form's
 * answer page). The box holds the page before Jawad's scripts, injected once a page has loaded,
 * could answer it. So before an action that may open a page, the dialog shim is registered to run
 * in the page's own world as each page of the acting tab's site begins to load
 * (src/content/dialog-opening.iife.ts); it answers only in a tab where the action left its answers
 * for that origin (src/content/actions/dialogs.ts). Only sites Jawad acts on, and only while it
 * does: the registration is dropped a minute after the last action's aftermath, and never outlives
 * the browser's session.
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
