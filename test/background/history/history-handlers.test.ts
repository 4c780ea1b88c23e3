import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CostService } from '../../../src/background/history/cost-service';
import { createHistoryHandlers, type HistoryHandlers } from '../../../src/background/history/history-handlers';
import { MemoryService } from '../../../src/background/memory/memory-service';
import { ConversationStore } from '../../../src/db/conversations';
import { exportArchive } from '../../../src/db/archive';
import { JawadDatabase } from '../../../src/db/database';
import { SearchIndex } from '../../../src/db/search-index';
import { drainImports } from '../../../src/db/import-queue';
import { StepStore } from '../../../src/db/steps';
import type { BackgroundEvent } from '../../../src/protocol';

const REQ = 'user-0000000a';
let db: JawadDatabase;
let handlers: HistoryHandlers;
let replies: BackgroundEvent[];
let broadcasts: BackgroundEvent[];
const context = () => ({ reply: (e: BackgroundEvent) => replies.push(e), broadcast: (e: BackgroundEvent) => broadcasts.push(e) });

beforeEach(async () => {
  db = new JawadDatabase(`handlers-${crypto.randomUUID()}`);
  replies = [];
  broadcasts = [];
  const conversations = new ConversationStore(db);
  const search = new SearchIndex(db);
  handlers = createHistoryHandlers({
    db, conversations, steps: new StepStore(db), search, costs: new CostService(db), memory: new MemoryService({ db, search, activeUrl: async () => undefined }),
    budget: { respond: () => undefined },
    sendConversations: async (requestId, send) => send({ type: 'CONVERSATIONS', requestId, payload: { conversations: await conversations.list() } }),
  });
  await conversations.create('c1', 'Lamps', 1);
  await conversations.addMessage({ id: 'm1', conversationId: 'c1', role: 'user', content: 'Which lamp for reading?', status: 'complete', createdAt: 2, requestId: `${REQ}:chat-00000001` });
});
afterEach(async () => {
  await db.delete();
});

async function importText(text: string, apply: boolean, partSize = 50): Promise<void> {
  const count = Math.ceil(text.length / partSize);
  for (let index = 0; index < count; index++) {
    await handlers.IMPORT_PART({ type: 'IMPORT_PART', requestId: REQ, payload: { transferId: `t-${apply}`, index, count, text: text.slice(index * partSize, (index + 1) * partSize), apply } }, context());
  }
}

describe('history handlers', () => {
  it('imports an export in parts, previewing first, then telling every sidebar about the new list', async () => {
    const text = JSON.stringify(await exportArchive(db));
    await db.conversations.clear();
    await db.messages.clear();
    replies = [];
    await importText(text, false);
    expect(replies).toEqual([expect.objectContaining({ type: 'IMPORT_RESULT', payload: expect.objectContaining({ applied: false, messages: { add: 1, same: 0, differ: 0 } }) })]);
    expect(await db.messages.count()).toBe(0);
    await importText(text, true);
    await drainImports(db);
    expect(await db.messages.count()).toBe(1);
    expect(broadcasts.at(-1)).toMatchObject({ type: 'CONVERSATIONS', payload: { conversations: [{ id: 'c1', title: 'Lamps' }] } });
  });

  it('refuses a damaged file with a clear error and writes nothing', async () => {
    await expect(importText('{"format":"jawad-archive","version":1,"conversations":"oops"}', true)).rejects.toThrow(/damaged/);
    expect(await db.conversations.count()).toBe(1);
  });

  it('searches, renames and pins, and says when the conversation is gone', async () => {
    await handlers.SEARCH_HISTORY({ type: 'SEARCH_HISTORY', requestId: REQ, payload: { query: 'lamp readi' } }, context());
    expect(replies[0]).toMatchObject({ type: 'SEARCH_RESULTS', payload: { query: 'lamp readi', hits: [{ id: 'm1', conversationTitle: 'Lamps' }] } });
    await handlers.RENAME_CONVERSATION({ type: 'RENAME_CONVERSATION', requestId: REQ, payload: { conversationId: 'c1', title: 'Reading lamps' } }, context());
    await handlers.PIN_CONVERSATION({ type: 'PIN_CONVERSATION', requestId: REQ, payload: { conversationId: 'c1', pinned: true } }, context());
    expect(broadcasts.at(-1)).toMatchObject({ payload: { conversations: [{ title: 'Reading lamps', pinned: true }] } });
    await expect(handlers.RENAME_CONVERSATION({ type: 'RENAME_CONVERSATION', requestId: REQ, payload: { conversationId: 'gone', title: 'x' } }, context())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(handlers.GET_TRACE({ type: 'GET_TRACE', requestId: REQ, payload: { messageId: 'gone' } }, context())).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('traces a message back to its chain root', async () => {
    await handlers.GET_TRACE({ type: 'GET_TRACE', requestId: REQ, payload: { messageId: 'm1' } }, context());
    expect(replies[0]).toMatchObject({ type: 'TRACE', payload: { root: REQ, conversationId: 'c1', from: 'm1', entries: [{ kind: 'user-message', title: 'Which lamp for reading?' }] } });
  });
});
