/**
 * The browser's "Leave page?" box. A page that holds unsaved changes (text typed into a form, an
 * editor) asks the user before it is left, whether a tool navigates the tab or an action follows a
 * link; the browser shows a box no extension can see or answer, and Jawad must not answer it for
 * the user: leaving would lose their work. What can be seen of it:
 * - Chromium holds the page, scripts and all, until the user answers: a one-line script does not
 *   run within PROBE_MS.
 * - Firefox runs the page's scripts meanwhile. A navigation a tool asked for does not begin, and an
 *   action stays inside the `beforeunload` it set off. The page agent marks that event during an
 *   action, and `watchLeavePrompt` during a tool's navigation (LEAVE_ASKED): nothing beginning is no
 *   sign by itself, as going back to an entry of the same page and address (history.pushState) begins nothing either.
 * - A navigation an action set off may begin only after the action answered (a form its script
 *   sends a moment later; Firefox begins a link's in a task of its own): the page agent then keeps
 *   marking, and the wait for that navigation looks for the box as a tool's navigation does.
 */
import browser from 'webextension-polyfill';
import { LEAVE_ASKED, LEAVE_WATCH } from '../../content/installed-flags';
import { markUnload } from '../../content/leave-mark';
import { JawadError } from '../../protocol';
import { pause } from './pause';

/** How long the page may take to run a one-line script before it is taken to be held. */
const PROBE_MS = 500;
/** How long an action may go unanswered before its page is looked at. */
const ACTION_UNANSWERED_MS = 1_000;

/**
 * The error a tool answers with when the page being left kept the tab, `url`: it is most likely
 * asking the user whether to leave.
 */
export function pageHeldTab(url: string): JawadError {
  return new JawadError(
    'EXECUTION_ERROR',
    `The page ${url} did not let the tab leave it: it is most likely asking the user whether to leave (a “Leave page?” box, which pages show while they hold unsaved changes, such as text typed into a form). Only the user can answer it: ask them whether to stay (and save their changes first) or to leave. Until it is answered the page may not answer either.`,
    { url, held: true },
  );
}

type FrameSeen = 'held' | 'asked' | 'free';

/**
 * What the frame shows of the box within PROBE_MS: `held`, it runs no script (Chromium); `asked`,
 * an action of its page agent is inside the `beforeunload` it set off (Firefox); `free`, neither,
 * or the browser keeps extensions out of the page.
 */
async function probeFrame(tabId: number, frameId: number): Promise<FrameSeen> {
  const ran = browser.scripting
    .executeScript({ target: { tabId, frameIds: [frameId] }, func: (flag: string) => flag in globalThis, args: [LEAVE_ASKED], injectImmediately: true })
    .then(([frame]): FrameSeen => (frame?.result === true ? 'asked' : 'free'), (): FrameSeen => 'free');
  return Promise.race([ran, pause(PROBE_MS).then((): FrameSeen => 'held')]);
}

/**
 * Whether the tab's page is seen asking whether to leave: it runs no script within PROBE_MS
 * (Chromium), or it was asked to unload under `watchLeavePrompt` and is still there (Firefox). A
 * page that answers, or one the browser keeps extensions out of, is not.
 */
export async function pageAsksToLeave(tabId: number): Promise<boolean> {
  return (await probeFrame(tabId, 0)) !== 'free';
}

/**
 * Before a tool asks the browser to navigate the tab: marks the page's `beforeunload` (LEAVE_ASKED)
 * until the returned `stop` is called, which the wait calls once it knows the page did not unload.
 * A page the browser keeps extensions out of is not marked: nothing there can ask.
 */
export async function watchLeavePrompt(tabId: number): Promise<{ stop(): void }> {
  // A page held already (by a box of its own) runs no script: the navigation is not kept waiting on it.
  await Promise.race([markFrameUnload(tabId, true), pause(PROBE_MS)]);
  return { stop: () => stopWatchingLeave(tabId) };
}

/**
 * Stops marking the page's `beforeunload` (armed by watchLeavePrompt, or by the page agent for a
 * navigation its action set off that had not begun when it answered): the page is still there.
 */
export function stopWatchingLeave(tabId: number): void {
  void markFrameUnload(tabId, false);
}

const markFrameUnload = (tabId: number, on: boolean) =>
  browser.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: markUnload, args: [LEAVE_ASKED, LEAVE_WATCH, on], injectImmediately: true }).then(() => undefined, () => undefined);

/**
 * For an action its page has not `answered` for ACTION_UNANSWERED_MS: resolves once the page is
 * seen asking whether to leave; never, when the answer comes first (or the step stops). Chromium's
 * held page must stay held for two probes on the page it acted on (`url`), with none of the
 * action's requests under way (`requestsPending`): a click whose handler waits on a synchronous
 * request, or computes for a moment, holds the page too.
 */
export async function heldByLeavePrompt(tab: { id: number; url?: string }, frameId: number, answered: Promise<unknown>, requestsPending: () => boolean, signal: AbortSignal): Promise<void> {
  let over = false;
  void answered.finally(() => (over = true));
  const stopped = () => over || signal.aborted;
  await Promise.race([answered, pause(ACTION_UNANSWERED_MS, signal)]);
  let heldBefore = false;
  while (!stopped()) {
    const seen = await probeFrame(tab.id, frameId);
    if (stopped()) break;
    if (seen === 'asked') return;
    const stillThere = (await browser.tabs.get(tab.id).catch(() => undefined))?.url === tab.url;
    const held = seen === 'held' && stillThere && !requestsPending();
    if (held && heldBefore && !stopped()) return;
    heldBefore = held;
    if (!held) await Promise.race([answered, pause(PROBE_MS, signal)]);
  }
  return new Promise<never>(() => {});
}
