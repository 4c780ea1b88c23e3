import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConversationStore } from '../../src/db/conversations';
import { JawadDatabase, type MessageRow } from '../../src/db/database';
import { SearchIndex } from '../../src/db/search-index';
import { parseQuery } from '../../src/db/text-index';
import { StepStore } from '../../src/db/steps';
import { agentStep } from '../support/agent-step';

let db: JawadDatabase;
let store: ConversationStore;
let search: SearchIndex;

const message = (id: string, conversationId: string, content: string, createdAt = 1): MessageRow => ({ id, conversationId, role: 'user', content, status: 'complete', createdAt, requestId: 'user-00000001' });

beforeEach(async () => {
  db = new JawadDatabase(`search-${crypto.randomUUID()}`);
  store = new ConversationStore(db);
  search = new SearchIndex(db);
  await store.create('c1', 'Kitchen', 1);
  await store.create('c2', 'Garden', 1);
});
afterEach(async () => {
  await db.delete();
});

/** A save delay no test waits out: the test saves when it means to. */
const SAVE_NEVER = 3_600_000;
const found = async (query: string) => (await search.search(query)).map((hit) => `${hit.kind}:${hit.id}`);

describe('SearchIndex', () => {
  it('finds messages stored before it loaded, with the conversation title and a marked snippet', async () => {
    await store.addMessage(message('m1', 'c1', 'The kettle is blue'));
    const [hit] = await search.search('kettle');
    expect(hit).toMatchObject({ kind: 'message', id: 'm1', conversationId: 'c1', conversationTitle: 'Kitchen', messageId: 'm1' });
    expect(hit!.snippet.marks.map(([s, e]) => hit!.snippet.text.slice(s, e))).toEqual(['kettle']);
  });

  it('follows every write after loading: add, streamed update, step, delete and clear', async () => {
    await search.ready();
    await store.addMessage(message('m1', 'c1', 'Thinking…'));
    await store.updateMessage('m1', { content: 'Buy a new kettle' });
    expect(await found('kettle')).toEqual(['message:m1']);
    expect(await found('thinking')).toEqual([]);

    await new StepStore(db).put(agentStep({ id: 's1', conversationId: 'c2', messageId: 'm9', thinking: 'I will open the seed catalogue', result: { success: true, summary: 'clicked “Tulips”' } }));
    expect(await found('tulips')).toEqual(['step:s1']);

    await store.addMessage(message('m2', 'c2', 'Plant tulips near the kettle shed', 2));
    await store.delete('c1');
    expect(await found('kettle')).toEqual(['message:m2']);
    await store.clear();
    expect(await found('tulips')).toEqual([]);
  });

  it('tells a research report from other messages, and memory recalls it too', async () => {
    await store.addMessage({ ...message('report-w1', 'c1', 'Boreal sells the trail jacket for less'), role: 'assistant', requestId: 'user-0000000a:workflow-0000000b:report-0000000c' });
    await store.addMessage({ ...message('m2', 'c1', 'Which trail jacket is cheapest?', 2), requestId: 'user-0000000a' });
    expect((await search.search('trail jacket ')).map((hit) => `${hit.kind}:${hit.id}`).sort()).toEqual(['message:m2', 'report:report-w1']);
    expect((await search.related(parseQuery('boreal trail jacket '), 'other', 3)).map((hit) => hit.text)).toEqual(['Boreal sells the trail jacket for less', 'Which trail jacket is cheapest?']);
  });

  it('leaves out hits whose conversation is gone', async () => {
    await store.addMessage(message('m1', 'c1', 'orphan kettle'));
    await db.conversations.delete('c1');
    expect(await found('kettle')).toEqual([]);
  });
});

describe('SearchIndex saved to the database', () => {
  it('is read back by the next background instead of being rebuilt from every row', async () => {
    await store.addMessage(message('m1', 'c1', 'The kettle is blue'));
    await search.ready();
    await search.save();
    const next = new SearchIndex(db);
    // What every background start does: it changes nothing, so the saved copy stays good.
    await store.markInterrupted();
    await new StepStore(db).markInterrupted();
    const readRows = vi.spyOn(db.messages, 'toArray');
    expect((await next.search('kettle')).map((hit) => hit.snippet.text)).toEqual(['The kettle is blue']);
    expect(readRows).not.toHaveBeenCalled();
  });

  it('is deleted by the first write after it, so a background that stops before saving again leaves no stale copy', async () => {
    await store.addMessage(message('m1', 'c1', 'Thinking…'));
    await search.ready();
    await search.save();
    await store.updateMessage('m1', { content: 'Buy a new kettle' });
    await vi.waitFor(async () => expect(await db.searchSnapshot.get('history')).toBeUndefined());
    expect((await new SearchIndex(db).search('kettle')).map((hit) => hit.id)).toEqual(['m1']);
  });

  it('is dropped, and the index rebuilt, when the rows it covers changed in number behind its back', async () => {
    await store.addMessage(message('m1', 'c1', 'The kettle is blue'));
    await search.ready();
    await search.save();
    // As if a background stopped between writing this row and deleting the copy's head.
    await db.searchSnapshot.get('history').then((row) => db.messages.add(message('m2', 'c2', 'A red kettle', 2)).then(() => db.searchSnapshot.put(row!)));
    const next = new SearchIndex(db);
    await next.ready();
    // The first answer may come from the copy before its counts are checked; the rebuilt index follows at once.
    await vi.waitFor(async () => expect((await next.search('kettle')).map((hit) => hit.id).sort()).toEqual(['m1', 'm2']));
    expect(await db.searchSnapshot.get('history')).toBeUndefined();
  });

  it('answers a new background’s search from the shards of the words asked for, not the whole copy', async () => {
    const words = ['apple', 'banana', 'cherry', 'damson', 'elder', 'fig', 'grape', 'hazel'];
    for (let i = 0; i < 40; i++) await store.addMessage(message(`m${i}`, i % 2 ? 'c1' : 'c2', `${words[i % 8]} ${words[(i + 3) % 8]} tart`, i));
    const writer = new SearchIndex(db, SAVE_NEVER, 8);
    const before = await writer.search('grape');
    await writer.save();
    const shards = (await db.searchSnapshot.where('id').startsWith('history:p').count());
    expect(shards).toBeGreaterThan(3);
    const read = vi.spyOn(db.searchSnapshot, 'bulkGet');
    const next = new SearchIndex(db);
    const after = await next.search('grape');
    expect(after.map((hit) => hit.id)).toEqual(before.map((hit) => hit.id));
    expect(after.length).toBe(10);
    // The head and its stamp, then one shard and the key piece naming the hits, each with the stamp:
    // not the rest, not the other shards, not the other keys.
    expect(read.mock.calls.map(([keys]) => keys)).toEqual([
      ['history', 'history:stamp'],
      ['history:stamp', expect.stringMatching(/^history:p\d+$/)],
      ['history:stamp', 'history:k0'],
    ]);
    expect(await db.messages.count()).toBe(40);
  });

  it('never mixes the pieces of two saves: a copy replaced under a background is searched anew', async () => {
    const words = ['apple', 'banana', 'cherry', 'damson', 'elder', 'fig', 'grape', 'hazel'];
    for (let i = 0; i < 40; i++) await store.addMessage(message(`m${i}`, i % 2 ? 'c1' : 'c2', `${words[i % 8]} ${words[(i + 3) % 8]} tart`, i));
    // One term to a shard: shard i is the i-th term of its save.
    const writer = new SearchIndex(db, SAVE_NEVER, 1);
    await writer.ready();
    await writer.save();
    // A background holding the saved copy's head (in its own connection, as another context would)…
    const other = new JawadDatabase(db.name);
    try {
      const reader = new SearchIndex(other, SAVE_NEVER, 1);
      await reader.ready();
      // …when a later one rewrites history and saves again, under the same pieces' ids (new words
      // move every term's place, so a shard of the new save read with the old head answers wrong).
      await store.delete('c2');
      await store.create('c3', 'Pantry', 2);
      for (let i = 0; i < 12; i++) await store.addMessage(message(`n${i}`, 'c3', `grape ${['acorn', 'bramble', 'currant', 'date'][i % 4]} jam`, 100 + i));
      const expected = (await writer.search('grape')).map((hit) => hit.id).sort();
      await writer.save();
      expect(expected).toHaveLength(17);
      expect((await reader.search('grape')).map((hit) => hit.id).sort()).toEqual(expected);
    } finally {
      other.close();
    }
  });

  it('reads the copy whole at the first write, and from then on finds the old rows and the new, and loses deleted ones', async () => {
    await store.addMessage(message('m1', 'c1', 'The kettle is blue'));
    await store.addMessage({ ...message('m2', 'c2', 'A green kettle to forget'), forgotten: true });
    await new StepStore(db).put(agentStep({ id: 's1', conversationId: 'c2', messageId: 'm2', thinking: 'kettle green shop' }));
    await search.ready();
    await search.save();
    const next = new SearchIndex(db, SAVE_NEVER);
    expect((await next.related(parseQuery('green kettle '), undefined, 5)).map((hit) => hit.key)).toEqual([]);
    expect((await next.search('kettle')).map((hit) => hit.id).sort()).toEqual(['m1', 'm2', 's1']);
    const rebuilt = vi.spyOn(db.messages, 'toArray');
    await store.addMessage(message('m3', 'c2', 'A copper kettle, green with age', 3));
    expect((await next.search('kettle')).map((hit) => hit.id).sort()).toEqual(['m1', 'm2', 'm3', 's1']);
    expect((await next.related(parseQuery('green kettle '), undefined, 5)).map((hit) => hit.key)).toEqual(['m:m3']);
    await store.delete('c1');
    expect((await next.search('kettle')).map((hit) => hit.id).sort()).toEqual(['m2', 'm3', 's1']);
    expect(rebuilt).not.toHaveBeenCalled();
  });

  it('saves itself a while after the last write', async () => {
    const quick = new SearchIndex(db, 10);
    await quick.ready();
    await store.addMessage(message('m1', 'c1', 'The kettle is blue'));
    await vi.waitFor(async () => expect(await db.searchSnapshot.get('history')).toBeDefined());
    const readRows = vi.spyOn(db.messages, 'toArray');
    expect((await new SearchIndex(db).search('kettle')).map((hit) => hit.id)).toEqual(['m1']);
    expect(readRows).not.toHaveBeenCalled();
  });
});

describe('ConversationStore.recentMessages', () => {
  it('reads the latest messages, or back to a focused older one, and counts the rest', async () => {
    for (let i = 0; i < 10; i++) await store.addMessage(message(`m${i}`, 'c1', `text ${i}`, 10 + i));
    const latest = await store.recentMessages('c1', 3);
    expect(latest.messages.map((m) => m.id)).toEqual(['m7', 'm8', 'm9']);
    expect(latest.earlier).toBe(7);
    const focused = await store.recentMessages('c1', 3, 'm2');
    expect(focused.messages.map((m) => m.id)).toEqual(['m2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
    expect(focused.earlier).toBe(2);
  });

  it('lists pinned conversations first', async () => {
    await store.addMessage(message('m1', 'c2', 'newer', 50));
    expect((await store.list()).map((c) => c.id)).toEqual(['c2', 'c1']);
    await store.setPinned('c1', true);
    expect((await store.list()).map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(await store.rename('c1', '  Kettles ')).toBe(true);
    expect((await store.get('c1'))!.title).toBe('Kettles');
    expect(await store.rename('gone', 'x')).toBe(false);
  });
});
