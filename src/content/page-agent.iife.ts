/**
 * Injected on demand when Jawad needs to see the page: answers SNAPSHOT (and, next, the actions
 * by ref). Runs in the content script's isolated world, where refs persist between injections.
 */
import { toErrorPayload } from '../protocol/errors';
import type { ContentReply } from '../protocol/messages';
import { parseContentRequest } from '../protocol/parse';
import { act } from './actions';
import { extensionApi } from './extension-api';
import { RefRegistry } from './snapshot/refs';
import { takeSnapshot } from './snapshot/walk';

const HANDLED = new Set(['SNAPSHOT', 'ACT']);
const scope = globalThis as typeof globalThis & { __jawadPageAgent?: { refs: RefRegistry } };

async function handle(raw: unknown, refs: RefRegistry): Promise<ContentReply> {
  try {
    const request = parseContentRequest(raw);
    if (request.type === 'SNAPSHOT') return { ok: true, data: takeSnapshot(document, refs, request.payload) };
    if (request.type === 'ACT') {
      const { action, target, value, options } = request.payload;
      return { ok: true, data: await act(action, target, value, options, refs) };
    }
    return { ok: false, error: { code: 'UNKNOWN_MESSAGE_TYPE', message: `Unsupported: ${request.type}` } };
  } catch (error) {
    return { ok: false, error: toErrorPayload(error) };
  }
}

if (!scope.__jawadPageAgent) {
  const agent = { refs: new RefRegistry() };
  scope.__jawadPageAgent = agent;
  extensionApi().runtime.onMessage.addListener((raw, sender, sendResponse) => {
    const type = (raw as { type?: unknown } | null)?.type;
    if (sender.id !== extensionApi().runtime.id || typeof type !== 'string' || !HANDLED.has(type)) return false;
    void handle(raw, agent.refs).then(sendResponse);
    return true; // the answer comes asynchronously
  });
}
