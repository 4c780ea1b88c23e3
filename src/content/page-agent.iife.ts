/**
 * Injected on demand (into every frame of the tab) when Jawad needs to see or act on the page:
 * answers SNAPSHOT and ACT. Runs in the content script's isolated world, where refs persist
 * between injections.
 */
import { toErrorPayload } from '../protocol/errors';
import type { ContentReply } from '../protocol/messages';
import { parseContentRequest } from '../protocol/parse';
import { act } from './actions';
import { checkBinding, describeTarget } from './describe';
import { extensionApi } from './extension-api';
import { answerHighlight, clearHighlights, clearHighlightsEverywhere } from './highlight';
import { PAGE_AGENT_INSTALLED } from './installed-flags';
import { RefRegistry } from './snapshot/refs';
import { takeSnapshot } from './snapshot/walk';

const HANDLED = new Set(['SNAPSHOT', 'ACT', 'FRAME_TOKEN', 'DESCRIBE', 'HIGHLIGHT']);
const TOKEN_KEY = '__jawadFrameToken';

interface Agent {
  /** Made on the first snapshot, when the frame learns its ref prefix (f12 in frame 12). */
  refs: RefRegistry | undefined;
  /** The token this frame's parent sent it during the parent's snapshot. */
  token: string | null;
  /** Tokens this frame gave its own iframes. */
  childTokens: WeakMap<Element, string>;
  /**
   * This document's id. The isolated world (and so this agent) is new on every page load, so a
   * new id means a new document: what approvals and snapshot refs are bound to.
   */
  documentId: string;
}
const scope = globalThis as typeof globalThis & { [PAGE_AGENT_INSTALLED]?: Agent };

/**
 * Gives a visible iframe a random token and posts it to the frame, where Jawad's agent (in that
 * frame's isolated world) keeps it. Chromium has no runtime.getFrameId in content scripts; this
 * works the same in both browsers, across origins.
 */
function tokenFor(agent: Agent, frame: Element): string | undefined {
  const target = (frame as HTMLIFrameElement).contentWindow;
  if (!target) return undefined;
  let token = agent.childTokens.get(frame);
  if (!token) {
    token = `t${crypto.getRandomValues(new Uint32Array(2)).join('')}`;
    agent.childTokens.set(frame, token);
  }
  target.postMessage({ [TOKEN_KEY]: token }, '*');
  return token;
}

async function handle(raw: unknown, agent: Agent): Promise<ContentReply> {
  try {
    const request = parseContentRequest(raw);
    if (request.type === 'SNAPSHOT') {
      clearHighlights(); // outlines from before this snapshot may point at the wrong things now
      agent.refs ??= new RefRegistry(request.payload.framePrefix);
      const snapshot = takeSnapshot(document, agent.refs, { ...request.payload, frameTokenFor: (frame) => tokenFor(agent, frame) });
      return { ok: true, data: { ...snapshot, documents: { [request.payload.framePrefix]: agent.documentId } } };
    }
    if (request.type === 'FRAME_TOKEN') return { ok: true, data: { token: agent.token } };
    if (request.type === 'ACT') {
      const { action, target, value, options, expect } = request.payload;
      const refs = (agent.refs ??= new RefRegistry());
      if (expect) checkBinding(expect, { target, action, ...(value === undefined ? {} : { value }) }, refs, agent.documentId);
      clearHighlightsEverywhere();
      return { ok: true, data: await act(action, target, value, options, refs) };
    }
    if (request.type === 'DESCRIBE') {
      return { ok: true, data: describeTarget(request.payload, (agent.refs ??= new RefRegistry()), agent.documentId) };
    }
    if (request.type === 'HIGHLIGHT') return { ok: true, data: answerHighlight(request.payload, (agent.refs ??= new RefRegistry())) };
    return { ok: false, error: { code: 'UNKNOWN_MESSAGE_TYPE', message: `Unsupported: ${request.type}` } };
  } catch (error) {
    return { ok: false, error: toErrorPayload(error) };
  }
}

if (!scope[PAGE_AGENT_INSTALLED]) {
  const agent: Agent = { refs: undefined, token: null, childTokens: new WeakMap(), documentId: `d${crypto.getRandomValues(new Uint32Array(2)).join('')}` };
  scope[PAGE_AGENT_INSTALLED] = agent;
  addEventListener('message', (event) => {
    const token = (event.data as Record<string, unknown> | null)?.[TOKEN_KEY];
    if (event.source === parent && parent !== window && typeof token === 'string' && /^t\d+$/.test(token)) agent.token = token;
  });
  extensionApi().runtime.onMessage.addListener((raw, sender, sendResponse) => {
    const type = (raw as { type?: unknown } | null)?.type;
    if (sender.id !== extensionApi().runtime.id || typeof type !== 'string' || !HANDLED.has(type)) return false;
    void handle(raw, agent).then(sendResponse);
    return true; // the answer comes asynchronously
  });
}
