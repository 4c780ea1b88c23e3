/**
 * Injected on demand (never into every page) when the user asks about the page. Answers READ_PAGE
 * from the background. Runs in the content script's isolated world: the page cannot call it.
 */
import { JawadError, toErrorPayload } from '../protocol/errors';
import type { ContentReply } from '../protocol/messages';
import { parseContentRequest } from '../protocol/parse';
import { extractPage } from './extract';
import { extensionApi } from './extension-api';
import { READER_INSTALLED } from './installed-flags';

const scope = globalThis as typeof globalThis & { [READER_INSTALLED]?: boolean };

function handle(raw: unknown): ContentReply {
  try {
    const request = parseContentRequest(raw);
    if (request.type !== 'READ_PAGE') throw new JawadError('UNKNOWN_MESSAGE_TYPE', `Unsupported: ${request.type}`);
    return { ok: true, data: extractPage(document, request.payload.maxChars) };
  } catch (error) {
    return { ok: false, error: toErrorPayload(error) };
  }
}

if (!scope[READER_INSTALLED]) {
  scope[READER_INSTALLED] = true;
  extensionApi().runtime.onMessage.addListener((raw, sender, sendResponse) => {
    // Other Jawad page scripts share this world and answer their own requests.
    if (sender.id !== extensionApi().runtime.id || (raw as { type?: unknown } | null)?.type !== 'READ_PAGE') return false;
    sendResponse(handle(raw));
    return false;
  });
}
