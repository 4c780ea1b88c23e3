import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { JawadDatabase } from '../../src/db/database';
import { agentStep } from '../support/agent-step';

/**
 * Each earlier schema as it shipped, filled with real-looking data, then opened by today's
 * JawadDatabase: nothing may be lost and the new tables must work.
 */
const SCHEMAS: Record<number, Record<string, string>> = {
  1: { conversations: 'id, updatedAt', messages: 'id, conversationId, [conversationId+createdAt], status', settings: 'key' },
  2: { steps: 'id, conversationId, [conversationId+createdAt], status', grants: 'id, [site+level]' },
  3: { usage: 'requestId, createdAt, conversationId, messageId, [provider+model]' },
  5: { memories: 'id, updatedAt, site', pages: 'url, visitedAt' },
  6: { bridgeClients: 'id, tokenHash' },
  7: { workflows: 'id, status, updatedAt', workflowJournal: '++seq, workflowId' },
};

const names: string[] = [];
afterEach(async () => {
  for (const name of names.splice(0)) await Dexie.delete(name);
});

async function oldDatabase(version: number): Promise<string> {
  const name = `migrate-${version}-${crypto.randomUUID()}`;
  names.push(name);
  const old = new Dexie(name);
  for (let v = 1; v <= version; v++) if (SCHEMAS[v]) old.version(v).stores(SCHEMAS[v]!);
  await old.table('conversations').add({ id: 'c1', title: 'Old chat', createdAt: 1, updatedAt: 2 });
  await old.table('messages').add({ id: 'm1', conversationId: 'c1', role: 'user', content: 'remember the blue kettle', status: 'complete', createdAt: 1, requestId: 'user-00000001' });
  await old.table('settings').add({ key: 'provider', value: { provider: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' } });
  if (version >= 2) await old.table('steps').add(agentStep({ id: 's1', result: { success: true, summary: 'clicked “Kettle”' } }));
  if (version >= 3) {
    await old.table('usage').add({ requestId: 'user-00000001:llm-00000002', kind: 'chat', provider: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1', inputTokens: 5, outputTokens: 7, cachedInputTokens: 0, reasoningTokens: 0, createdAt: 2 });
  }
  old.close();
  return name;
}

describe.each([1, 2, 3, 5, 6, 7])('opening a version %i database', (version) => {
  it('keeps every record and adds the new tables', async () => {
    const db = new JawadDatabase(await oldDatabase(version));
    expect(await db.conversations.get('c1')).toMatchObject({ title: 'Old chat' });
    expect((await db.messages.get('m1'))!.content).toBe('remember the blue kettle');
    expect(await db.settings.get('provider')).toMatchObject({ value: { model: 'llama3.1' } });
    if (version >= 2) expect((await db.steps.get('s1'))!.result!.summary).toBe('clicked “Kettle”');
    if (version >= 3) expect(await db.usage.count()).toBe(1);
    // Version 8: the import queue (found by conversation) and the saved search index.
    await db.importQueue.add({ id: 'q1', table: 'messages', conversationIds: ['c1'], rows: [] });
    expect(await db.importQueue.where('conversationIds').equals('c1').count()).toBe(1);
    await db.searchSnapshot.put({ id: 'history', data: null });
    expect(await db.searchSnapshot.count()).toBe(1);
    await db.memories.add({ id: 'x', text: 'fact', source: 'user', pinned: false, createdAt: 3, updatedAt: 3 });
    expect(await db.memories.where('updatedAt').above(0).count()).toBe(1);
    await db.pages.put({ url: 'https://a.test/', site: 'https://a.test', title: 'A', markdown: '', product: null, visitedAt: 1 });
    expect(await db.pages.count()).toBe(1);
    await db.conversations.update('c1', { pinned: true });
    expect((await db.conversations.get('c1'))!.pinned).toBe(true);
    db.close();
  });
});
