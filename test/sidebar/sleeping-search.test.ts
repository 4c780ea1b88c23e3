import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConversationStore } from '../../src/db/conversations';
import { JawadDatabase, type MessageRow } from '../../src/db/database';
import { SearchIndex } from '../../src/db/search-index';
import { release, searchAsleep } from '../../src/sidebar/sleeping-search';

// The sidebar opens the extension's own database, by its real name.
let db: JawadDatabase;
let store: ConversationStore;
/** The background's index, which writes the saved copy. */
let background: SearchIndex;

const message = (id: string, conversationId: string, content: string): MessageRow => ({ id, conversationId, role: 'user', content, status: 'complete', createdAt: 1, requestId: 'user-00000001' });
const SAVE_NEVER = 3_600_000;
const ids = (hits: Array<{ id: string }> | undefined) => hits?.map((hit) => hit.id).sort();

beforeEach(async () => {
  db = new JawadDatabase();
  store = new ConversationStore(db);
  background = new SearchIndex(db, SAVE_NEVER);
  await store.create('c1', 'Kitchen', 1);
  await store.addMessage(message('m1', 'c1', 'The blue kettle is in the attic'));
  await store.addMessage(message('m2', 'c1', 'The copper ladle hangs by the sink'));
  await background.search('kettle');
  await background.save();
});
afterEach(async () => {
  release();
  await db.delete();
});

describe('searchAsleep', () => {
  it('answers from the saved index alone, as the background would', async () => {
    const hits = await searchAsleep('kettle', () => {});
    expect(hits).toEqual(await background.search('kettle'));
    expect(hits?.[0]).toMatchObject({ id: 'm1', conversationTitle: 'Kitchen' });
  });

  it('leaves the search to the background once a write deleted the saved copy', async () => {
    expect(ids(await searchAsleep('ladle', () => {}))).toEqual(['m2']);
    await store.addMessage(message('m3', 'c1', 'A second ladle, wooden'));
    await vi.waitFor(async () => expect(await db.searchSnapshot.get('history')).toBeUndefined());
    expect(await searchAsleep('ladle', () => {})).toBeUndefined();
  });

  it('searches a newer save instead of the copy it read before', async () => {
    expect(ids(await searchAsleep('ladle', () => {}))).toEqual(['m2']);
    await store.addMessage(message('m3', 'c1', 'A second ladle, wooden'));
    await background.search('ladle');
    await background.save();
    expect(ids(await searchAsleep('ladle', () => {}))).toEqual(['m2', 'm3']);
  });

  it('stops trusting a copy that does not cover every row, and says so', async () => {
    // As after a background stopped between a write and deleting the saved head: a row the copy lacks.
    const head = (await db.searchSnapshot.get('history'))!;
    await db.messages.put(message('m9', 'c1', 'An unindexed kettle'));
    await vi.waitFor(async () => expect(await db.searchSnapshot.get('history')).toBeUndefined());
    await db.searchSnapshot.put(head);
    const short = vi.fn();
    expect(ids(await searchAsleep('kettle', short))).toEqual(['m1']);
    await vi.waitFor(() => expect(short).toHaveBeenCalledOnce());
    expect(await searchAsleep('kettle', short)).toBeUndefined();
  });

  it('leaves a copy saved before stamps existed to the background', async () => {
    await db.searchSnapshot.delete('history:stamp');
    expect(await searchAsleep('kettle', () => {})).toBeUndefined();
  });
});
