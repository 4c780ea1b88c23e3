import { describe, expect, it } from 'vitest';
import {
  JawadError,
  MAX_CHAT_CHARS,
  PageContent,
  PageSnapshot,
  parseBackgroundEvent,
  parseContentReply,
  parseContentRequest,
  parseSidebarRequest,
  requestIdOf,
} from '../../src/protocol';

const REQ = 'user-1a2b3c4d';

/** Runs `fn` and returns the JawadError it throws (fails the test if it does not throw one). */
function caught(fn: () => unknown): JawadError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(JawadError);
    return error as JawadError;
  }
  throw new Error('expected a JawadError, but nothing was thrown');
}

function detailPaths(error: JawadError): string[] {
  return (error.details as Array<{ path: string }>).map((d) => d.path);
}

const settings = { provider: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' };

describe('parseSidebarRequest', () => {
  it('accepts a chat message and fills in the defaults', () => {
    const request = parseSidebarRequest({ type: 'CHAT_MESSAGE', requestId: REQ, payload: { content: 'Hello' } });
    expect(request).toEqual({
      type: 'CHAT_MESSAGE',
      requestId: REQ,
      payload: { conversationId: null, content: 'Hello', attachPage: false, agent: false },
    });
  });

  it('trims the chat text the user typed', () => {
    const request = parseSidebarRequest({ type: 'CHAT_MESSAGE', requestId: REQ, payload: { content: '  hi there \n' } });
    expect(request.type === 'CHAT_MESSAGE' && request.payload.content).toBe('hi there');
  });

  it('keeps an explicit conversation, attachPage and windowId', () => {
    const request = parseSidebarRequest({
      type: 'CHAT_MESSAGE',
      requestId: REQ,
      payload: { conversationId: 'c1', content: 'x', attachPage: true, windowId: 7 },
    });
    expect(request.payload).toEqual({ conversationId: 'c1', content: 'x', attachPage: true, agent: false, windowId: 7 });
  });

  it('fills an empty payload for messages that carry none', () => {
    expect(parseSidebarRequest({ type: 'LIST_CONVERSATIONS', requestId: REQ })).toEqual({ type: 'LIST_CONVERSATIONS', requestId: REQ, payload: {} });
    expect(parseSidebarRequest({ type: 'PING', requestId: REQ }).payload).toEqual({});
  });

  it('applies the 60 s timeout default to SAVE_SETTINGS and TEST_CONNECTION', () => {
    const save = parseSidebarRequest({ type: 'SAVE_SETTINGS', requestId: REQ, payload: settings });
    expect(save.payload).toEqual({ ...settings, timeoutSeconds: 60 });
    const test = parseSidebarRequest({ type: 'TEST_CONNECTION', requestId: REQ, payload: { ...settings, timeoutSeconds: 5 } });
    expect(test.payload).toMatchObject({ timeoutSeconds: 5 });
  });

  it('trims a pasted base URL and model name', () => {
    const request = parseSidebarRequest({
      type: 'SAVE_SETTINGS',
      requestId: REQ,
      payload: { ...settings, baseUrl: '  http://localhost:11434/v1 \n', model: ' llama3.1 ' },
    });
    expect(request.payload).toMatchObject({ baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' });
  });

  it('accepts a long request-id chain', () => {
    const requestId = 'user-1a2b3c4d:chat-00ff00ff:tool-12345678';
    expect(parseSidebarRequest({ type: 'PING', requestId, payload: {} }).requestId).toBe(requestId);
  });

  it('refuses an unknown type with UNKNOWN_MESSAGE_TYPE', () => {
    const error = caught(() => parseSidebarRequest({ type: 'FORMAT_DISK', requestId: REQ, payload: {} }));
    expect(error.code).toBe('UNKNOWN_MESSAGE_TYPE');
    expect(error.message).toContain('FORMAT_DISK');
  });

  it('refuses a message with no type, or a non-string type, as malformed', () => {
    expect(caught(() => parseSidebarRequest({ requestId: REQ })).code).toBe('VALIDATION_ERROR');
    expect(caught(() => parseSidebarRequest({ type: 7, requestId: REQ, payload: {} })).code).toBe('VALIDATION_ERROR');
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'CHAT_MESSAGE'],
    ['a number', 42],
    ['an array', [{ type: 'PING', requestId: REQ }]],
  ])('refuses %s with VALIDATION_ERROR', (_label, raw) => {
    expect(caught(() => parseSidebarRequest(raw)).code).toBe('VALIDATION_ERROR');
  });

  it('refuses empty and whitespace-only chat text, naming the field', () => {
    for (const content of ['', '   \n\t ']) {
      const error = caught(() => parseSidebarRequest({ type: 'CHAT_MESSAGE', requestId: REQ, payload: { content } }));
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(detailPaths(error)).toContain('payload.content');
    }
  });

  it('accepts text at MAX_CHAT_CHARS and refuses one character more', () => {
    const ok = parseSidebarRequest({ type: 'CHAT_MESSAGE', requestId: REQ, payload: { content: 'a'.repeat(MAX_CHAT_CHARS) } });
    expect(ok.type).toBe('CHAT_MESSAGE');
    const error = caught(() =>
      parseSidebarRequest({ type: 'CHAT_MESSAGE', requestId: REQ, payload: { content: 'a'.repeat(MAX_CHAT_CHARS + 1) } }),
    );
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(detailPaths(error)).toEqual(['payload.content']);
  });

  it.each(['', 'User-1', '1abc', 'user 1', 'user-1::x', 'a'.repeat(42)])('refuses the requestId %j', (requestId) => {
    const error = caught(() => parseSidebarRequest({ type: 'PING', requestId, payload: {} }));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(detailPaths(error)).toContain('requestId');
  });

  it.each(['javascript:alert(1)', 'ftp://x', 'file:///etc/passwd', 'not a url'])('refuses the base URL %j', (baseUrl) => {
    const error = caught(() => parseSidebarRequest({ type: 'SAVE_SETTINGS', requestId: REQ, payload: { ...settings, baseUrl } }));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(detailPaths(error)).toContain('payload.baseUrl');
  });

  it('lists every bad field in the details', () => {
    const error = caught(() =>
      parseSidebarRequest({
        type: 'SAVE_SETTINGS',
        requestId: REQ,
        payload: { provider: 'skynet', baseUrl: 'ftp://x', model: ' ', timeoutSeconds: 0 },
      }),
    );
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toBe('Invalid SAVE_SETTINGS message.');
    expect(detailPaths(error)).toEqual(
      expect.arrayContaining(['payload.provider', 'payload.baseUrl', 'payload.model', 'payload.timeoutSeconds']),
    );
  });

  it('refuses a missing payload where one is required', () => {
    const error = caught(() => parseSidebarRequest({ type: 'OPEN_CONVERSATION', requestId: REQ }));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(detailPaths(error)).toContain('payload');
  });

  it('produces errors whose payload survives messaging as plain JSON', () => {
    const error = caught(() => parseSidebarRequest({ type: 'CHAT_MESSAGE', requestId: REQ, payload: { content: '' } }));
    const payload = error.toPayload();
    expect(JSON.parse(JSON.stringify(payload))).toEqual(payload);
  });
});

describe('parseBackgroundEvent', () => {
  it('accepts an ERROR event', () => {
    const event = { type: 'ERROR', requestId: REQ, payload: { code: 'LLM_ERROR', message: 'boom' } };
    expect(parseBackgroundEvent(event)).toEqual(event);
  });

  it('accepts a null SETTINGS payload (nothing configured yet)', () => {
    expect(parseBackgroundEvent({ type: 'SETTINGS', requestId: REQ, payload: null }).payload).toBeNull();
  });

  it('requires hasApiKey on SETTINGS', () => {
    const error = caught(() =>
      parseBackgroundEvent({ type: 'SETTINGS', requestId: REQ, payload: { ...settings, timeoutSeconds: 60 } }),
    );
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(detailPaths(error)).toContain('payload.hasApiKey');
  });

  it('strips an API key from SETTINGS, so it can never reach the sidebar', () => {
    const event = parseBackgroundEvent({
      type: 'SETTINGS',
      requestId: REQ,
      payload: { ...settings, timeoutSeconds: 60, hasApiKey: true, apiKey: 'sk-secret-1234' },
    });
    expect(JSON.stringify(event)).not.toContain('sk-secret');
  });

  it('refuses an unknown chat phase and an unknown event type', () => {
    const badPhase = caught(() =>
      parseBackgroundEvent({ type: 'CHAT_RESPONSE', requestId: REQ, payload: { phase: 'middle', conversationId: 'c', messageId: 'm', text: '' } }),
    );
    expect(badPhase.code).toBe('VALIDATION_ERROR');
    expect(caught(() => parseBackgroundEvent({ type: 'CHAT_MESSAGE', requestId: REQ, payload: {} })).code).toBe('UNKNOWN_MESSAGE_TYPE');
  });

  it('refuses an ERROR with a code outside the standard list', () => {
    const error = caught(() => parseBackgroundEvent({ type: 'ERROR', requestId: REQ, payload: { code: 'OOPS', message: 'x' } }));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(detailPaths(error)).toContain('payload.code');
  });
});

describe('parseContentRequest / parseContentReply', () => {
  it('defaults READ_PAGE maxChars to 60 000', () => {
    expect(parseContentRequest({ type: 'READ_PAGE', requestId: REQ, payload: {} })).toEqual({
      type: 'READ_PAGE',
      requestId: REQ,
      payload: { maxChars: 60_000 },
    });
  });

  it('refuses a non-positive maxChars and unknown types', () => {
    expect(caught(() => parseContentRequest({ type: 'READ_PAGE', requestId: REQ, payload: { maxChars: 0 } })).code).toBe('VALIDATION_ERROR');
    expect(caught(() => parseContentRequest({ type: 'CHAT_MESSAGE', requestId: REQ, payload: { content: 'x' } })).code).toBe(
      'UNKNOWN_MESSAGE_TYPE',
    );
    expect(caught(() => parseContentRequest(null)).code).toBe('VALIDATION_ERROR');
  });

  it('accepts ok and error replies and refuses a malformed one', () => {
    const data = { title: 'T', url: 'https://example.com', markdown: '# T', truncated: false };
    expect(parseContentReply({ ok: true, data })).toEqual({ ok: true, data });
    const failure = { ok: false, error: { code: 'PAGE_UNREADABLE', message: 'no' } };
    expect(parseContentReply(failure)).toEqual(failure);
    expect(caught(() => parseContentReply({ ok: 'yes', data })).code).toBe('VALIDATION_ERROR');
    expect(caught(() => parseContentReply({ ok: false, error: { code: 'NOT_A_CODE', message: 'x' } })).code).toBe('VALIDATION_ERROR');
    // The data's shape depends on the request; askPageScript checks it against that request's schema.
    expect(PageContent.safeParse({ title: 'T' }).success).toBe(false);
    expect(PageSnapshot.safeParse({ url: 'u', title: 't', text: '', refs: [], elementCount: 0, partial: false }).success).toBe(true);
  });
});

describe('requestIdOf', () => {
  it('returns a string requestId from a message that failed validation, and nothing otherwise', () => {
    expect(requestIdOf({ type: 'NOPE', requestId: REQ })).toBe(REQ);
    expect(requestIdOf({ requestId: 5 })).toBeUndefined();
    expect(requestIdOf(null)).toBeUndefined();
    expect(requestIdOf({ requestId: 'x'.repeat(701) })).toBeUndefined();
  });
});
