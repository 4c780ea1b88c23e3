import * as z from 'zod/mini';
import { childRequestId, DEFAULT_WAIT_SECONDS, FrameClaims, framePrefix, PageSnapshot, SnapshotWaitParams, type ContentRequest } from '../../protocol';
import { askFrame, askFrameOrSkip, askPageAgent, contextTab, FRAME_TIMEOUT_MS, injectPageScript, PAGE_AGENT, type TargetTab } from '../page-scripts';
import { mergeFrameSnapshots, placeFrames } from './merge-frames';
import { pause } from './pause';
import { DEFAULT_TOOL_TIMEOUT_MS } from './registry';
import { readAfterLastAction } from './request-watch';
import { stopAnsweringDialogs } from './dialog-aftermath';
import { waitForSnapshot, waitSecondsOf, type WaitFor } from './snapshot-wait';
import { defineTool } from './tool';

/** A frame's claim travels by postMessage and can land after the background asks: ask again a few times. */
const CLAIM_RETRIES = 6;
const CLAIM_RETRY_MS = 30;
/** How long frames may take past the page's own walk. */
const FRAME_GRACE_MS = 250;

interface FrameWalk {
  frameId: number;
  answer: PageSnapshot | undefined;
}

/** The `[frame=t…]` placeholders a frame's walk wrote: one per visible iframe. */
function placeholders(snapshot: PageSnapshot | undefined): string[] {
  return [...(snapshot?.text.matchAll(/\[frame=(t\d+)\]/g) ?? [])].map((match) => match[1]!);
}

/** A fresh single-use claim for every frame but the top one. */
function newClaims(frameIds: number[]): Map<string, number> {
  const claims = new Map<string, number>();
  for (const frameId of frameIds) {
    if (frameId === 0) continue;
    const bytes = crypto.getRandomValues(new Uint8Array(8));
    claims.set(`n${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`, frameId);
  }
  return claims;
}

/**
 * Asks every parent which claims came from each of its visible iframes, until each is placed, no
 * frame that answered is left to place, or time runs out.
 */
async function locateFrames(tab: TargetTab, requestId: string, walks: FrameWalk[], frameOfClaim: Map<string, number>): Promise<Map<string, PageSnapshot | undefined>> {
  const claimsByToken = new Map<string, string[]>();
  // Only a frame that answered can fill a placeholder. Once each one's claim has been seen, a
  // placeholder still unclaimed is a frame the browser keeps extensions out of (an error page, a
  // blocked ad): asking again would only wait.
  const answered = [...frameOfClaim].filter(([, frameId]) => walks.some((walk) => walk.frameId === frameId && walk.answer)).map(([claim]) => claim);
  const unseen = () => {
    const seen = new Set([...claimsByToken.values()].flat());
    return answered.some((claim) => !seen.has(claim));
  };
  let pending = walks.filter((walk) => placeholders(walk.answer).length > 0);
  for (let attempt = 0; attempt <= CLAIM_RETRIES && pending.length > 0 && unseen(); attempt++) {
    if (attempt > 0) await new Promise((done) => setTimeout(done, CLAIM_RETRY_MS));
    await Promise.all(
      pending.map(async (walk) => {
        const request = { type: 'FRAME_CLAIMS' as const, requestId, payload: { tokens: placeholders(walk.answer) } };
        const { claims } = await askFrame(tab, walk.frameId, request, FrameClaims, FRAME_TIMEOUT_MS).catch(() => ({ claims: {} }));
        for (const [token, said] of Object.entries(claims)) claimsByToken.set(token, said);
      }),
    );
    // Only a placeholder nothing has claimed yet is worth asking about again (a frame still posting);
    // a frame that never answered (an ad that never loads) is never claimed, so stop once a retry
    // places nothing more rather than waiting out every retry.
    const before = pending.length;
    pending = pending.filter((walk) => placeholders(walk.answer).some((token) => (claimsByToken.get(token) ?? []).length === 0));
    if (attempt > 0 && pending.length === before) break;
  }
  const byToken = new Map<string, PageSnapshot | undefined>();
  // No claim at all: the frame never answered. Claims that do not add up leave the token out.
  for (const walk of walks) for (const token of placeholders(walk.answer)) if ((claimsByToken.get(token) ?? []).length === 0) byToken.set(token, undefined);
  for (const [token, frameId] of placeFrames(claimsByToken, frameOfClaim)) byToken.set(token, walks.find((walk) => walk.frameId === frameId)?.answer);
  return byToken;
}

/**
 * Tabs whose page showed no frame at its last snapshot. Only frames the page shows are merged into
 * a snapshot, so for such a page probing and walking every frame (hidden trackers, ads) is work
 * for nothing: the agent snapshots the same page again and again, and each probe is a script run in
 * every frame, competing with the page's own walk. Forgotten when a frame shows; in memory only.
 */
const framelessTabs = new Set<number>();
const FRAMELESS_REMEMBERED = 500;

function rememberFrameless(tabId: number): void {
  if (framelessTabs.size >= FRAMELESS_REMEMBERED) framelessTabs.delete(framelessTabs.values().next().value!);
  framelessTabs.add(tabId);
}

type SnapshotRequest = (frameId: number, claim?: string) => Extract<ContentRequest, { type: 'SNAPSHOT' }>;

/** Every frame walks itself (and posts its claim to its parent); each parent tags its visible iframes. */
async function walkFrames(tab: TargetTab, chain: string, request: SnapshotRequest, page: Promise<PageSnapshot>, injected: Promise<number[]>): Promise<PageSnapshot> {
  const frameIds = await injected;
  const frameOfClaim = newClaims(frameIds);
  const claimOf = new Map([...frameOfClaim].map(([claim, frameId]) => [frameId, claim]));
  const ask = (frameId: number) => askFrameOrSkip(tab, frameId, request(frameId, claimOf.get(frameId)), PageSnapshot);
  // A frame still walking FRAME_GRACE_MS after the page is done (hung, still loading) is left
  // out and said to be, rather than holding the whole snapshot up to its time limit.
  const grace = page.then(() => new Promise<undefined>((done) => setTimeout(done, FRAME_GRACE_MS)), () => undefined);
  const walks = await Promise.all(
    frameIds.map(async (frameId) => ({ frameId, answer: frameId === 0 ? await page : await Promise.race([ask(frameId), grace]) })),
  );
  const byToken = await locateFrames(tab, chain, walks, frameOfClaim);
  return mergeFrameSnapshots(walks.find((walk) => walk.frameId === 0)!.answer!, byToken);
}

export const snapshot = defineTool({
  name: 'snapshot',
  description:
    'List everything on the current page a user can act on — links, buttons, fields, checkboxes, menus, custom widgets, inside frames too — each with a ref (e1, e2, …; f12e3 inside a frame) to act on it, its role, name and state (a select’s options too, or how many when there are more than 10), and the visible text around them. Hidden content is left out. Long lists show 20 rows at a time: pass page: 2, 3, … for the next rows. ' +
    `When the page will show something later (a result, "Saved", a "Loading…" that must go): waitForText takes the snapshot once the page shows that text, waitForTextGone once it no longer does, each for up to waitSeconds (${DEFAULT_WAIT_SECONDS} unless given); waitSeconds alone is a plain pause first.`,
  params: z.object({
    maxRefs: z._default(z.int().check(z.minimum(1), z.maximum(20_000)), 3_000),
    timeBudgetMs: z._default(z.int().check(z.minimum(10), z.maximum(10_000)), 800),
    /** Long lists show 20 rows at a time; page 2 shows rows 21–40, and so on. */
    page: z._default(z.int().check(z.minimum(1), z.maximum(100_000)), 1),
    ...SnapshotWaitParams,
  }),
  level: 'read-only',
  effects: {},
  // Text the model waits for is matched against the page, never typed into it.
  inertParams: ['waitForText', 'waitForTextGone'],
  timeoutMs: (params) => DEFAULT_TOOL_TIMEOUT_MS + 1000 * waitSecondsOf(waitOf(params)),
  async run({ waitForText, waitForTextGone, waitSeconds, ...params }, context) {
    const tab = await contextTab(context);
    const take = async (first: boolean) => {
      if (!first) return snapshotOf(tab, params, context.requestId);
      const { value, unanswered } = await readAfterLastAction(tab, context.requestId, context.signal, () => snapshotOf(tab, params, context.requestId));
      const lateDialogs = await stopAnsweringDialogs(tab, context.requestId);
      return { ...value, ...(unanswered > 0 ? { unansweredRequests: unanswered } : {}), ...(lateDialogs.length > 0 ? { lateDialogs } : {}) };
    };
    if (waitForText === undefined && waitForTextGone === undefined && waitSeconds === undefined) return take(true);
    return waitForSnapshot(waitOf({ waitForText, waitForTextGone, waitSeconds }), { take, pause: (ms) => pause(ms, context.signal), now: () => Date.now(), signal: context.signal, from: tab.url });
  },
});

/** The snapshot's wait parameters as the wait reads them. */
function waitOf({ waitForText, waitForTextGone, waitSeconds }: { waitForText?: string; waitForTextGone?: string; waitSeconds?: number }): WaitFor {
  return { ...(waitForText ? { text: waitForText } : {}), ...(waitForTextGone ? { gone: waitForTextGone } : {}), ...(waitSeconds === undefined ? {} : { seconds: waitSeconds }) };
}

type SnapshotParams = Omit<Extract<ContentRequest, { type: 'SNAPSHOT' }>['payload'], 'framePrefix' | 'claim'>;

/** The page's outline with every frame it shows merged in. */
async function snapshotOf(tab: TargetTab, params: SnapshotParams, requestId: string): Promise<PageSnapshot> {
  const chain = childRequestId(requestId, 'snapshot');
  const request = (frameId: number, claim?: string) => ({ type: 'SNAPSHOT' as const, requestId: chain, payload: { ...params, framePrefix: framePrefix(frameId), ...(claim ? { claim } : {}) } });
  if (framelessTabs.has(tab.id)) {
    // The page showed no frame last time: it is asked alone, and the frames only if one shows now.
    const page = await askPageAgent(tab, 0, request(0), PageSnapshot);
    if (placeholders(page).length === 0) return mergeFrameSnapshots(page, new Map());
    framelessTabs.delete(tab.id);
    return walkFrames(tab, chain, request, Promise.resolve(page), injectPageScript(tab, PAGE_AGENT, { allFrames: true }));
  }
  // The page walks while every frame is probed for the agent (and given it where it lacks one):
  // the probe's round trip is not added to the page's own walk. Only a page without the agent yet
  // waits for it, and is then asked again (the request never reached it, so nothing ran twice).
  const injected = injectPageScript(tab, PAGE_AGENT, { allFrames: true });
  const page = askPageAgent(tab, 0, request(0), PageSnapshot, () => injected);
  // Awaited below; when the probe fails first (a page the browser protects), its error is the answer.
  page.catch(() => undefined);
  const snapshot = await walkFrames(tab, chain, request, page, injected);
  if (placeholders(await page).length === 0) rememberFrameless(tab.id);
  return snapshot;
}
