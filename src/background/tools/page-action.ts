import * as z from 'zod/mini';
import { ActionOutcome, CAPS, childRequestId, clipText, documentChanged, frameOfRef, JawadError, MAX_DIALOGS_LISTED, REF_PATTERN, RUNS_PAGE_HANDLERS, TargetDescription, targetOf, type Action, type ActOptions, type ContentRequest, type PageDialog, type Target } from '../../protocol';
import { askFrame, askPageAgent, contextTab, injectPageScript, isUndelivered, PAGE_AGENT, type TargetTab } from '../page-scripts';
import { answersDialogs, dialogsSoFar, stopAnsweringDialogs } from './dialog-aftermath';
import { heldByLeavePrompt, pageHeldTab, stopWatchingLeave } from './leave-prompt';
import { describeLoadFailure, watchNavigation } from './navigation-wait';
import { actionRequestsPending, forgetActionRequests, linkTakenOver, navigationLoaded, onlyFramesLoaded, settleActionRequests, watchActionRequests } from './request-watch';
import type { ToolContext } from './tool';

/** Tool parameters that name the element to act on: a snapshot ref, or a CSS selector. */
export const targetParams = {
  ref: z.optional(z.string().check(z.regex(REF_PATTERN, 'A ref looks like e12 (from the snapshot tool)'))),
  selector: z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
};

export { targetOf };

/**
 * Actions on an element need one of ref or selector. Models do send both; the ref (what the model
 * just read in a snapshot) wins, and the selector is ignored (targetOf), rather than refusing.
 * Actions that may also apply to the page as a whole (scroll, press, get) take neither or either.
 */
export const needsOneTarget = z.refine<{ ref?: string; selector?: string }>(
  (params) => Boolean(params.ref || params.selector),
  'Give ref (from the snapshot tool) or a CSS selector of the element to act on',
);

/** Actions that only read: nothing they do sets off a request to wait for. */
const READS_ONLY = new Set<Action>(['get', 'is']);

/**
 * The tab a tool reads or acts on, once what the tab's last action set off (the view it loads by
 * script) has come: `unanswered` requests of it were still pending when the wait ended. The
 * requests are followed with the browser's webRequest events (request-watch.ts).
 */
export async function tabAfterLastAction(context: ToolContext): Promise<{ tab: TargetTab; unanswered: number; lateDialogs: PageDialog[] }> {
  const tab = await contextTab(context);
  const unanswered = await settleActionRequests(tab, context.requestId, context.signal, true);
  return { tab, unanswered, lateDialogs: await stopAnsweringDialogs(tab, context.requestId) };
}

/** Runs one action in the page agent of the frame the ref names (f12e3: frame 12) and returns what it read back. */
export async function runPageAction(context: ToolContext, action: Action, target: Target, value?: string, options: ActOptions = {}): Promise<ActionOutcome> {
  const request = {
    type: 'ACT' as const,
    requestId: childRequestId(context.requestId, 'act'),
    payload: { action, target, options, ...(value === undefined ? {} : { value }), ...(context.binding ? { expect: context.binding } : {}) },
  };
  const { tab, lateDialogs } = await tabAfterLastAction(context);
  const frameId = frameOfRef(target.ref);
  // A bound step was judged by this frame's agent a moment ago: when it is gone, so is the document
  // the step was approved on, and a fresh agent must not be put there to act on the new page.
  if (!context.binding) await injectPageScript(tab, PAGE_AGENT, { frameIds: [frameId] });
  if (READS_ONLY.has(action)) {
    const read = await askFrame(tab, frameId, request, ActionOutcome).catch((error: unknown) => rethrow(error, context));
    return withDialogs(read, [], lateDialogs);
  }
  watchActionRequests(tab.id, frameId, tab.url);
  if (RUNS_PAGE_HANDLERS.has(action)) await answersDialogs(tab, frameId);
  let answer: ActionOutcome;
  try {
    answer = await actAndFollow(context, tab, frameId, request, action, target);
  } catch (error) {
    forgetActionRequests(tab.id);
    void stopAnsweringDialogs(tab, context.requestId);
    throw error;
  }
  const { linkTakenOver: tookLink, leavingFor: _, ...outcome } = answer;
  if (outcome.navigatedTo) navigationLoaded(tab.id, outcome.navigatedTo);
  if (tookLink) linkTakenOver(tab.id);
  // Followed through a navigation too: the requests a new page sends as it opens (phpMyAdmin
  // builds its navigation tree by script) are part of what the click led to, and an app that
  // changes its address with history.pushState (which Chromium reports as a page loading) stays
  // the same document, still loading its view.
  const unanswered = await settleActionRequests(tab, context.requestId, context.signal, false);
  const told = withDialogs(outcome, dialogsSoFar(tab.id), lateDialogs);
  return unanswered > 0 ? { ...told, unansweredRequests: unanswered } : told;
}

/**
 * The outcome with the page's boxes Jawad answered: `after`, shown as the page answered what the
 * action set off, join the action's own; `late`, after the tab's previous step returned, are told
 * apart. Empty lists are left out.
 */
function withDialogs(outcome: ActionOutcome, after: PageDialog[], late: PageDialog[]): ActionOutcome {
  const dialogs = [...(outcome.dialogs ?? []), ...after].slice(0, MAX_DIALOGS_LISTED);
  const { dialogs: _, ...rest } = outcome;
  return { ...rest, ...(dialogs.length > 0 ? { dialogs } : {}), ...(late.length > 0 ? { lateDialogs: late } : {}) };
}

/** The action's page did not answer: it asks the user whether to leave (leave-prompt.ts). */
const HELD = Symbol('held');

/** Acts, and when the action may lead to another page, waits for that page to load. */
async function actAndFollow(context: ToolContext, tab: TargetTab, frameId: number, request: ContentRequest, action: Action, target: Target): Promise<ActionOutcome> {
  if (!RUNS_PAGE_HANDLERS.has(action)) return askFrame(tab, frameId, request, ActionOutcome).catch((error: unknown) => rethrow(error, context));
  const navigation = watchNavigation(tab.id);
  const answered = askFrame(tab, frameId, request, ActionOutcome).catch((error: unknown) => error as Error);
  // A link or a script taking the tab away from a page with unsaved changes: the browser asks the user, and the page's answer waits.
  const held = heldByLeavePrompt(tab, frameId, answered, () => actionRequestsPending(tab.id), context.signal).then((): typeof HELD => HELD);
  const answer = await Promise.race([answered, held]);
  if (answer === HELD) {
    navigation.stop();
    throw pageHeldTab(tab.url ?? 'acted on');
  }
  // The page's own refusal (STALE_REF, COVERED …) is an answer; a lost answer may mean the page left.
  const answerLost = answer instanceof Error && !(answer instanceof JawadError && answer.code !== 'TIMEOUT');
  const announced = !(answer instanceof Error) && answer.navigates === true;
  const goingTo = answer instanceof Error ? undefined : answer.leavingFor;
  // Announced from the top frame: the page may yet ask whether to leave, its box marked by the
  // page agent (a navigation that begins after the answer, as Firefox begins a link's).
  const watched = announced && frameId === 0;
  const arrival = await navigation.settle(context.signal, answerLost || announced, watched, goingTo);
  if (watched && (!arrival || arrival.held || arrival.withinPage)) stopWatchingLeave(tab.id);
  if (arrival?.held) throw pageHeldTab(tab.url ?? 'acted on');
  const loadedTo = arrival?.tab.url === undefined ? undefined : clipText(arrival.tab.url, CAPS.url);
  // Chromium reports a frame's loading as the tab's: an action that loaded a frame and left the
  // page's address as it was, announcing nothing, kept its page (the frame's load is waited for).
  const framesOnly = !answerLost && !announced && loadedTo === clipText(tab.url, CAPS.url) && onlyFramesLoaded(tab.id);
  const navigatedTo = framesOnly ? undefined : loadedTo;
  const opened = navigatedTo ? { navigatedTo, ...(arrival?.failed ? { navigationFailed: describeLoadFailure(arrival.failed) } : {}) } : {};
  // A page that unloads at once can drop the agent's answer; the navigation says the action worked.
  if (answer instanceof Error) {
    if (navigatedTo) return { action, target: target.ref ?? target.selector ?? 'the page', ...opened };
    return rethrow(answer, context);
  }
  return { ...answer, ...opened };
}

function rethrow(error: unknown, context: ToolContext): never {
  throw context.binding && isUndelivered(error) ? documentChanged() : error;
}

/** What DESCRIBE takes: the target, and the action and value whose effect the page should judge. */
export type DescribePayload = Extract<ContentRequest, { type: 'DESCRIBE' }>['payload'];

/** Asks the page what an action's target is and what the action would do to it, without touching it. */
export async function describePageTarget(context: { requestId: string; windowId?: number; tabId?: number; tabUrl?: string }, payload: DescribePayload): Promise<TargetDescription> {
  const request = { type: 'DESCRIBE' as const, requestId: childRequestId(context.requestId, 'describe'), payload };
  const tab = await contextTab(context);
  return askPageAgent(tab, frameOfRef(payload.target.ref), request, TargetDescription);
}
