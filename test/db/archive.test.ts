import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportArchive, exportArchivePieces, importArchive } from '../../src/db/archive';
import { JawadDatabase, type MessageRow } from '../../src/db/database';
import { parseImport } from '../../src/db/import-formats';
import { drainImports } from '../../src/db/import-queue';
import { ConversationStore } from '../../src/db/conversations';
import { StepStore } from '../../src/db/steps';
import type { UsageRecord } from '../../src/protocol';
import { agentStep } from '../support/agent-step';

let db: JawadDatabase;
let other: JawadDatabase;

beforeEach(() => {
  db = new JawadDatabase(`archive-${crypto.randomUUID()}`);
  other = new JawadDatabase(`archive-${crypto.randomUUID()}`);
});
afterEach(async () => {
  await db.delete();
  await other.delete();
});

const message = (id: string, content: string, extra: Partial<MessageRow> = {}): MessageRow => ({
  id, conversationId: 'c1', role: 'user', content, status: 'complete', createdAt: 1000 + Number(id.slice(1)), requestId: 'user-00000001', ...extra,
});
const usage: UsageRecord = {
  requestId: 'user-00000001:chat-00000002:llm-00000003', kind: 'chat', conversationId: 'c1', messageId: 'm2', provider: 'openai', baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o', inputTokens: 1200, outputTokens: 300, cachedInputTokens: 200, reasoningTokens: 0, createdAt: 1002,
};

async function seed(target: JawadDatabase): Promise<void> {
  await target.conversations.add({ id: 'c1', title: 'Trip to Oslo', createdAt: 1000, updatedAt: 1002, pinned: true });
  await target.messages.bulkAdd([message('m1', 'Find me a hotel', { pageContext: 'page text' }), message('m2', 'Here are three hotels', { role: 'assistant', model: 'gpt-4o' })]);
  await target.steps.add(agentStep({ id: 's1', conversationId: 'c1', messageId: 'm2' }));
  await target.usage.add(usage);
  await target.memories.add({ id: 'mem1', text: 'Prefers window seats', source: 'user', pinned: false, createdAt: 1, updatedAt: 1 });
  await target.settings.put({ key: 'prices', value: { 'openai/gpt-4o': { input: 2, output: 8 } } });
  await target.settings.put({ key: 'provider', value: { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o', apiKey: 'sk-never-exported' } as never });
}

const roundTrip = async () => parseImport(JSON.stringify(await exportArchive(db)));

describe('archive export', () => {
  it('holds conversations, messages, steps, usage, memories and prices, but never the API key', async () => {
    await seed(db);
    const text = JSON.stringify(await exportArchive(db));
    expect(text).not.toContain('sk-never-exported');
    const { archive } = parseImport(text);
    expect(archive).toMatchObject({ conversations: [{ id: 'c1', pinned: true }], steps: [{ id: 's1' }], usage: [usage], memories: [{ id: 'mem1' }], prices: { 'openai/gpt-4o': { input: 2, output: 8 } } });
    expect(archive.messages.map((m) => m.content)).toEqual(['Find me a hotel', 'Here are three hotels']);
  });

  it('holds every row of a table read in ranges, once each and in order, with rows an import still holds packed', async () => {
    // Numbered ids, and random ones as the app makes them: the ranges are cut by guessing between the first and last key.
    const ids = [...Array.from({ length: 23 }, (_, i) => `m${String(i).padStart(2, '0')}`), ...Array.from({ length: 300 }, () => crypto.randomUUID())].sort();
    await db.messages.bulkAdd([...ids].reverse().map((id) => message(id, `text of ${id}`)));
    await importArchive(db, parseImport(JSON.stringify({ ...(await exportArchive(other)), messages: [message('q1', 'queued')] })), true);
    expect((await exportArchive(db)).messages.map((m) => m.id)).toEqual([...ids, 'q1']);
  });

  it('gives, in pieces, exactly the text of the whole archive: ranges, packed rows, empty tables and all', async () => {
    await seed(db);
    const ids = Array.from({ length: 23 }, (_, i) => `m${String(10 + i)}`);
    await db.messages.bulkAdd(ids.map((id) => message(id, `text “${id}”`)));
    await importArchive(db, parseImport(JSON.stringify({ ...(await exportArchive(other)), messages: [message('q1', 'queued')] })), true);
    const pieces = await exportArchivePieces(db, (text) => text, 42);
    expect(pieces.length).toBeGreaterThan(8);
    expect(pieces.join('')).toBe(JSON.stringify(await exportArchive(db, 42)));
    // A profile with nothing in it: empty lists, still the same text.
    expect((await exportArchivePieces(other, (text) => text, 7)).join('')).toBe(JSON.stringify(await exportArchive(other, 7)));
  });
});

describe('archive import', () => {
  it('previews without writing, then reproduces everything in a fresh profile', async () => {
    await seed(db);
    const parsed = await roundTrip();
    const preview = await importArchive(other, parsed, false);
    expect(preview).toMatchObject({ format: 'jawad', applied: false, conversations: { add: 1, same: 0, differ: 0 }, messages: { add: 2 }, steps: { add: 1 }, usage: { add: 1 }, memories: { add: 1 }, newTitles: ['Trip to Oslo'] });
    expect(await other.messages.count()).toBe(0);
    await importArchive(other, parsed, true);
    await drainImports(other);
    expect(await other.importQueue.count()).toBe(0);
    expect(await other.messages.toArray()).toEqual(await db.messages.toArray());
    expect(await other.steps.toArray()).toEqual(await db.steps.toArray());
    expect(await other.usage.toArray()).toEqual(await db.usage.toArray());
    expect(await other.conversations.toArray()).toEqual(await db.conversations.toArray());
  });

  it('is idempotent: the same archive twice adds nothing the second time', async () => {
    await seed(db);
    const parsed = await roundTrip();
    await importArchive(other, parsed, true);
    // Still packed in the import queue: they count as here all the same.
    const again = await importArchive(other, parsed, true);
    expect(again.messages).toEqual({ add: 0, same: 2, differ: 0 });
    expect(again.steps).toEqual({ add: 0, same: 1, differ: 0 });
    expect(again.conversations).toEqual({ add: 0, same: 1, differ: 0 });
    await drainImports(other);
    expect(await other.messages.count()).toBe(2);
    expect((await importArchive(other, parsed, true)).messages).toEqual({ add: 0, same: 2, differ: 0 });
  });

  it('never overwrites a record that differs here: it is counted and kept as it is', async () => {
    await seed(db);
    const parsed = await roundTrip();
    await seed(other);
    await other.messages.update('m1', { content: 'Find me a cheap hotel' });
    const result = await importArchive(other, parsed, true);
    expect(result.messages).toEqual({ add: 0, same: 1, differ: 1 });
    expect((await other.messages.get('m1'))!.content).toBe('Find me a cheap hotel');
  });

  it('counts a record listed twice in one archive once', async () => {
    await seed(db);
    const parsed = await roundTrip();
    parsed.archive.messages.push({ ...parsed.archive.messages[0]! });
    expect((await importArchive(other, parsed, false)).messages).toEqual({ add: 2, same: 0, differ: 0 });
  });

  it('imports a real ChatGPT export once, however often it is imported', async () => {
    const text = readFileSync(new URL('../fixtures/imports/chatgpt-conversations.json', import.meta.url), 'utf8');
    await importArchive(db, parseImport(text), true);
    await importArchive(db, parseImport(text), true);
    await drainImports(db);
    expect(await db.conversations.count()).toBe(1);
    expect(await db.messages.count()).toBe(10);
  });
});

describe('rows an import still holds packed', () => {
  it('are there when their conversation is opened, its steps listed, or everything exported, before the queue is drained', async () => {
    await seed(db);
    await importArchive(other, await roundTrip(), true);
    expect(await other.messages.count()).toBe(0);
    const { messages } = await new ConversationStore(other).recentMessages('c1', 50);
    expect(messages.map((m) => m.content)).toEqual(['Find me a hotel', 'Here are three hotels']);
    expect((await new StepStore(other).list('c1')).map((s) => s.id)).toEqual(['s1']);
    expect(await other.importQueue.count()).toBe(0);
  });

  it('are exported with the rest', async () => {
    await seed(db);
    await importArchive(other, await roundTrip(), true);
    const exported = await exportArchive(other);
    expect(exported.messages.map((m) => m.id).sort()).toEqual(['m1', 'm2']);
    expect(exported.steps.map((s) => s.id)).toEqual(['s1']);
  });

  it('go with their conversation when it is deleted, and with history when it is cleared', async () => {
    await seed(db);
    await db.conversations.add({ id: 'c2', title: 'Other', createdAt: 5, updatedAt: 5 });
    await db.messages.add(message('m9', 'kept', { conversationId: 'c2' }));
    await importArchive(other, await roundTrip(), true);
    const store = new ConversationStore(other);
    await store.delete('c1');
    await drainImports(other);
    expect((await other.messages.toArray()).map((m) => m.id)).toEqual(['m9']);
    expect(await other.steps.count()).toBe(0);
    await importArchive(other, await roundTrip(), true);
    await store.clear();
    await drainImports(other);
    expect(await other.messages.count()).toBe(0);
  });

  it('never overwrite a row written in the meantime', async () => {
    await seed(db);
    await importArchive(other, await roundTrip(), true);
    await other.messages.add(message('m1', 'written meanwhile'));
    await drainImports(other);
    expect((await other.messages.get('m1'))!.content).toBe('written meanwhile');
    expect((await other.messages.get('m2'))!.content).toBe('Here are three hotels');
  });
});
