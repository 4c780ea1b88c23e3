import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore, publicMessage, titleFrom } from '../../src/db/conversations';
import { JawadDatabase, type MessageRow } from '../../src/db/database';

let db: JawadDatabase;
let store: ConversationStore;

beforeEach(() => {
  db = new JawadDatabase(`test-${crypto.randomUUID()}`);
  store = new ConversationStore(db);
});
afterEach(async () => {
  await db.delete();
});

function row(id: string, conversationId: string, createdAt: number, extra: Partial<MessageRow> = {}): MessageRow {
  return { id, conversationId, role: 'user', content: `text ${id}`, status: 'complete', createdAt, requestId: 'user-00000000', ...extra };
}

describe('titleFrom', () => {
  it('uses the first text on one line, cut to 60 characters', () => {
    expect(titleFrom('  What is\n\nthis   page? ')).toBe('What is this page?');
    const long = titleFrom('x'.repeat(100));
    expect(long).toHaveLength(60);
    expect(long.endsWith('…')).toBe(true);
    expect(titleFrom('   ')).toBe('New conversation');
  });
});

describe('ConversationStore', () => {
  it('creates conversations and lists them newest first', async () => {
    await store.create('a', 'First', 1000);
    await store.create('b', 'Second', 2000);
    await store.create('c', 'Third', 1500);
    expect((await store.list()).map((c) => c.id)).toEqual(['b', 'c', 'a']);
    expect(await store.get('a')).toEqual({ id: 'a', title: 'First', createdAt: 1000, updatedAt: 1000 });
  });

  it('moves a conversation to the top when a message is added', async () => {
    await store.create('a', 'First', 1000);
    await store.create('b', 'Second', 2000);
    await store.addMessage(row('m1', 'a', 3000));
    expect((await store.list()).map((c) => c.id)).toEqual(['a', 'b']);
    expect((await store.get('a'))?.updatedAt).toBe(3000);
  });

  it('honours the list limit', async () => {
    for (let i = 0; i < 5; i++) await store.create(`c${i}`, 't', i);
    expect((await store.list(2)).map((c) => c.id)).toEqual(['c4', 'c3']);
  });

  it('returns a conversation’s messages in time order, and only its own', async () => {
    await store.create('a', 'A', 0);
    await store.create('b', 'B', 0);
    await store.addMessage(row('m3', 'a', 30));
    await store.addMessage(row('m1', 'a', 10));
    await store.addMessage(row('x1', 'b', 15));
    await store.addMessage(row('m2', 'a', 20, { role: 'assistant' }));
    expect((await store.messages('a')).map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
    expect((await store.messages('b')).map((m) => m.id)).toEqual(['x1']);
    expect(await store.messages('nope')).toEqual([]);
  });

  it('updates a message and returns the stored result', async () => {
    await store.create('a', 'A', 0);
    await store.addMessage(row('m1', 'a', 10, { role: 'assistant', content: '', status: 'streaming' }));
    const updated = await store.updateMessage('m1', { content: 'Done', status: 'complete', usage: { inputTokens: 1, outputTokens: 2 } });
    expect(updated).toMatchObject({ id: 'm1', content: 'Done', status: 'complete', usage: { inputTokens: 1, outputTokens: 2 } });
    expect(await store.getMessage('m1')).toEqual(updated);
  });

  it('truncateFrom removes the given message and everything after it, in that conversation only', async () => {
    await store.create('a', 'A', 0);
    await store.create('b', 'B', 0);
    for (const [id, at] of [['m1', 10], ['m2', 20], ['m3', 30], ['m4', 40]] as const) await store.addMessage(row(id, 'a', at));
    await store.addMessage(row('other', 'b', 35));
    await store.truncateFrom('a', 20);
    expect((await store.messages('a')).map((m) => m.id)).toEqual(['m1']);
    expect((await store.messages('b')).map((m) => m.id)).toEqual(['other']);
  });

  it('deletes a conversation with its messages and leaves others alone', async () => {
    await store.create('a', 'A', 0);
    await store.create('b', 'B', 0);
    await store.addMessage(row('m1', 'a', 10));
    await store.addMessage(row('m2', 'b', 10));
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
    expect(await store.getMessage('m1')).toBeUndefined();
    expect((await store.list()).map((c) => c.id)).toEqual(['b']);
    expect(await store.getMessage('m2')).toBeDefined();
  });

  it('clear removes every conversation and message', async () => {
    await store.create('a', 'A', 0);
    await store.addMessage(row('m1', 'a', 10));
    await store.clear();
    expect(await store.list()).toEqual([]);
    expect(await db.messages.count()).toBe(0);
  });

  it('markInterrupted marks streaming answers interrupted, keeping their partial text', async () => {
    await store.create('a', 'A', 0);
    await store.addMessage(row('u1', 'a', 10));
    await store.addMessage(row('a1', 'a', 11, { role: 'assistant', content: 'Half an ans', status: 'streaming' }));
    await store.addMessage(row('a0', 'a', 5, { role: 'assistant', content: 'Old', status: 'complete' }));
    expect(await store.markInterrupted()).toBe(1);
    const interrupted = await store.getMessage('a1');
    expect(interrupted).toMatchObject({ status: 'interrupted', content: 'Half an ans' });
    expect(interrupted?.error?.message).toMatch(/Interrupted.*Retry/);
    expect(await store.getMessage('a0')).toMatchObject({ status: 'complete' });
    expect((await store.getMessage('a0'))?.error).toBeUndefined();
    expect(await store.markInterrupted()).toBe(0);
  });
});

describe('publicMessage', () => {
  it('drops the attached page text and the hidden prompt', () => {
    const message = publicMessage(row('m1', 'a', 1, { pageContext: 'SECRET PAGE', prompt: 'hidden', page: { title: 'T', url: 'https://x' } }));
    expect(message).not.toHaveProperty('pageContext');
    expect(message).not.toHaveProperty('prompt');
    expect(message.page).toEqual({ title: 'T', url: 'https://x' });
    expect(message.content).toBe('text m1');
  });
});
