import { describe, expect, it } from 'vitest';
import { childRequestId, newLink, newRequestId, REQUEST_ID_PATTERN } from '../../src/protocol';

describe('request-id chains', () => {
  it('mints user-<8 hex> links that match the pattern', () => {
    const id = newRequestId();
    expect(id).toMatch(/^user-[0-9a-f]{8}$/);
    expect(REQUEST_ID_PATTERN.test(id)).toBe(true);
    expect(newRequestId('error')).toMatch(/^error-[0-9a-f]{8}$/);
  });

  it('mints a different id each time', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newRequestId()));
    expect(ids.size).toBe(50);
  });

  it('extends a chain by one link and keeps it valid', () => {
    const root = newRequestId();
    const chat = childRequestId(root, 'chat');
    const tool = childRequestId(chat, 'tool');
    expect(chat.startsWith(`${root}:chat-`)).toBe(true);
    expect(tool.startsWith(`${chat}:tool-`)).toBe(true);
    expect(tool.split(':')).toHaveLength(3);
    expect(REQUEST_ID_PATTERN.test(tool)).toBe(true);
  });

  it('refuses a link kind that would break the pattern', () => {
    expect(() => newLink('Chat')).toThrow(/Invalid request-id link kind/);
    expect(() => newLink('a:b')).toThrow();
    expect(() => newLink('9lives')).toThrow();
  });

  it('allows at most 16 links in a chain', () => {
    const links = Array.from({ length: 16 }, (_, i) => `l${i}`);
    expect(REQUEST_ID_PATTERN.test(links.join(':'))).toBe(true);
    expect(REQUEST_ID_PATTERN.test([...links, 'l16'].join(':'))).toBe(false);
  });

  it.each(['', 'user-1:', ':user-1', 'user-1::chat-2', 'USER-1', 'user_1', 'user-1 '])('rejects %j', (id) => {
    expect(REQUEST_ID_PATTERN.test(id)).toBe(false);
  });
});
