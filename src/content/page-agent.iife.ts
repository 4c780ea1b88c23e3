/**
 * Injected on demand (into every frame of the tab) when Jawad needs to see or act on the page:
 * answers SNAPSHOT, ACT and the requests around them. Runs in the content script's isolated world, where refs persist
 * between injections.
 */
import { toErrorPayload } from '../protocol/errors';
import { type ContentReply, type ContentRequest, FRAME_CLAIM_PATTERN, TAKEN_OVER_LINK_MS } from '../protocol/messages';
import { parseContentRequest } from '../protocol/parse';
import { act, capOutcome } from './actions';
import { checkBinding, describeTarget } from './describe';
import { extensionApi } from './extension-api';
import { answerHighlight, clearHighlights, clearHighlightsEverywhere } from './highlight';
import { PAGE_AGENT_INSTALLED } from './installed-flags';
import { documentChanges, pageAnswers, whenQuiet, whenReceived } from './quiet';
import { settle } from './snapshot/at-rest';
import { RefRegistry } from './snapshot/refs';
import { takeSnapshot } from './snapshot/walk';
import { Pointer } from './actions/pointer';
import { DialogAnswers } from './actions/dialogs';

const CLAIM_KEY = '__jawadFrameClaim';
/** Kept so claims and tokens of a snapshot still in progress are not lost to a newer one. */
const MAX_KEPT = 200;

interface Agent {
  /** Made on the first snapshot, when the frame learns its ref prefix (f12 in frame 12). */
  refs: RefRegistry | undefined;
  /** The tokens this frame's snapshots gave its visible iframes: never posted anywhere, only told to the background. */
  frameTokens: Map<string, Element>;
  /** The claims child frames posted: which window (the browser says, the page cannot forge it) sent which claim. */
  claims: Array<{ source: MessageEventSource; claim: string }>;
  /**
   * This document's id. The isolated world (and so this agent) is new on every page load, so a
   * new id means a new document: what approvals and snapshot refs are bound to.
   */
  documentId: string;
  /** Where the pointer rests, as `:hover` sees it (actions/pointer.ts). */
  pointer: Pointer;
  /** Its answers to the page's own alert, confirmation and prompt boxes during an action and its aftermath. */
  dialogs: DialogAnswers;
  /**
   * Ends once the page's timers set by the last click on a link it took over have run: a timer of
   * ours set after theirs, for as long as any of them may be, fires after them however busy the
   * page is. A snapshot answers only then, so the background hears of what they started.
   */
  takenOverLinkTimers: Promise<void>;
}
const scope = globalThis as typeof globalThis & { [PAGE_AGENT_INSTALLED]?: Agent };

function keepLast<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.set(key, value);
  if (map.size > MAX_KEPT) map.delete(map.keys().next().value!);
}

/**
 * Where a frame's outline goes. The parent's walk tags each visible <iframe> with a fresh token that
 * stays in Jawad's isolated world; the frame itself posts the claim the background gave it to its
 * parent, and the browser names the window it came from. A claim counts for an <iframe> only when
 * it came from that very element's window, so a page re-posting claims or tokens to another
 * (hidden) frame cannot put that frame's text where a visible one sits. Works the same in both
 * browsers, across origins (Chromium has no runtime.getFrameId in content scripts).
 */
function tokenFor(agent: Agent, frame: Element): string | undefined {
  if (!(frame as HTMLIFrameElement).contentWindow) return undefined;
  const token = `t${crypto.getRandomValues(new Uint32Array(2)).join('')}`;
  keepLast(agent.frameTokens, token, frame);
  return token;
}

/** For each token asked about, every distinct claim that came from its <iframe>'s own window. */
function claimsFor(agent: Agent, tokens: string[]): Record<string, string[]> {
  const answer: Record<string, string[]> = {};
  for (const token of tokens) {
    const window = (agent.frameTokens.get(token) as HTMLIFrameElement | undefined)?.contentWindow;
    if (!window) continue;
    answer[token] = [...new Set(agent.claims.filter((claim) => claim.source === window).map((claim) => claim.claim))];
  }
  return answer;
}

/** Everything but READ_PAGE, which the reader script answers. */
type AgentRequest = Exclude<ContentRequest, { type: 'READ_PAGE' }>;
type Handlers = { [T in AgentRequest['type']]: (payload: Extract<AgentRequest, { type: T }>['payload'], agent: Agent) => unknown };

const HANDLERS: Handlers = {
  async SNAPSHOT(payload, agent) {
    clearHighlights(); // outlines from before this snapshot may point at the wrong things now
    await settle(document);
    agent.refs ??= new RefRegistry(payload.framePrefix);
    const { claim, ...options } = payload;
    if (claim && parent !== window) parent.postMessage({ [CLAIM_KEY]: claim }, '*');
    const snapshot = takeSnapshot(document, agent.refs, { ...options, frameTokenFor: (frame) => tokenFor(agent, frame) });
    await agent.takenOverLinkTimers;
    return { ...snapshot, documents: { [options.framePrefix]: agent.documentId } };
  },
  FRAME_CLAIMS: (payload, agent) => ({ claims: claimsFor(agent, payload.tokens) }),
  async ACT({ action, target, value, options, expect }, agent) {
    const refs = (agent.refs ??= new RefRegistry());
    if (expect) checkBinding(expect, { target, action, ...(value === undefined ? {} : { value }) }, refs, agent.documentId);
    clearHighlightsEverywhere();
    const outcome = await act(action, target, value, options, { refs, pointer: agent.pointer, dialogs: agent.dialogs });
    if (outcome.linkTakenOver) agent.takenOverLinkTimers = new Promise((resolve) => setTimeout(resolve, TAKEN_OVER_LINK_MS));
    return capOutcome(outcome);
  },
  async SETTLE({ quietMs, maxMs, received }, agent) {
    const answers = pageAnswers(performance);
    await whenReceived(answers, received, maxMs);
    const quiet = await whenQuiet(documentChanges(document), quietMs, maxMs);
    return { quiet, startedAt: received.map((url) => answers.startedAt(url) ?? null), dialogs: agent.dialogs.answeredSoFar() };
  },
  ACTION_DONE: (_payload, agent) => ({ dialogs: agent.dialogs.done() }),
  DESCRIBE: (payload, agent) => describeTarget(payload, (agent.refs ??= new RefRegistry()), agent.documentId),
  HIGHLIGHT: (payload, agent) => answerHighlight(payload, (agent.refs ??= new RefRegistry())),
};
const HANDLED: ReadonlySet<string> = new Set(Object.keys(HANDLERS));

async function handle(raw: unknown, agent: Agent): Promise<ContentReply> {
  try {
    const request = parseContentRequest(raw) as AgentRequest;
    // The listener passes only HANDLED types, so the request's type picks its own handler.
    const handler = HANDLERS[request.type] as (payload: AgentRequest['payload'], agent: Agent) => unknown;
    return { ok: true, data: await handler(request.payload, agent) };
  } catch (error) {
    return { ok: false, error: toErrorPayload(error) };
  }
}

if (!scope[PAGE_AGENT_INSTALLED]) {
  const agent: Agent = { refs: undefined, pointer: new Pointer(), dialogs: new DialogAnswers(), takenOverLinkTimers: Promise.resolve(), frameTokens: new Map(), claims: [], documentId: `d${crypto.getRandomValues(new Uint32Array(2)).join('')}` };
  scope[PAGE_AGENT_INSTALLED] = agent;
  addEventListener('message', (event) => {
    const claim = (event.data as Record<string, unknown> | null)?.[CLAIM_KEY];
    if (!event.source || typeof claim !== 'string' || !FRAME_CLAIM_PATTERN.test(claim)) return;
    agent.claims.push({ source: event.source, claim });
    if (agent.claims.length > MAX_KEPT) agent.claims.shift();
  });
  extensionApi().runtime.onMessage.addListener((raw, sender, sendResponse) => {
    const type = (raw as { type?: unknown } | null)?.type;
    if (sender.id !== extensionApi().runtime.id || typeof type !== 'string' || !HANDLED.has(type)) return false;
    void handle(raw, agent).then(sendResponse);
    return true; // the answer comes asynchronously
  });
}
