import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportArchive, importArchive } from '../../src/db/archive';
import { ConversationStore } from '../../src/db/conversations';
import { JawadDatabase, type MessageRow } from '../../src/db/database';
import { parseImport } from '../../src/db/import-formats';
import { drainImports } from '../../src/db/import-queue';
import { QUOTA_MESSAGE, toErrorPayload } from '../../src/protocol';

/**
 * A full disk, as IndexedDB reports it: every write to the tables in `full` fails with a
 * QuotaExceededError DOMException, below Dexie (at DBCore), the way the browser's would.
 */
let full = new Set<string>();
let db: JawadDatabase;
let source: JawadDatabase;

function diskFullDatabase(name: string): JawadDatabase {
  const target = new JawadDatabase(name);
  target.use({
    stack: 'dbcore',
    name: 'full-disk',
    create: (down) => ({
      ...down,
      table: (tableName) => {
        const table = down.table(tableName);
        return { ...table, mutate: (request) => (full.has(tableName) ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) : table.mutate(request)) };
      },
    }),
  });
  return target;
}

const message = (id: string, content: string, createdAt: number, conversationId = 'c1'): MessageRow => ({ id, conversationId, role: 'user', content, status: 'complete', createdAt, requestId: 'user-00000001' });

beforeEach(async () => {
  full = new Set();
  db = diskFullDatabase(`quota-${crypto.randomUUID()}`);
  source = new JawadDatabase(`quota-src-${crypto.randomUUID()}`);
  const store = new ConversationStore(db);
  await store.create('c1', 'Saved before', 1);
  await store.addMessage(message('m1', 'kept safe', 2));
  await new ConversationStore(source).create('c2', 'Imported', 10);
  await source.messages.bulkAdd([message('i1', 'first imported', 11, 'c2'), message('i2', 'second imported', 12, 'c2')]);
});
afterEach(async () => {
  await db.delete();
  await source.delete();
});

const archiveText = async () => JSON.stringify(await exportArchive(source));

describe('a write that fails because the disk is full', () => {
  it('says so in words and keeps what was saved before', async () => {
    full = new Set(['messages', 'conversations']);
    const error = await new ConversationStore(db).addMessage(message('m2', 'lost to a full disk', 3)).catch((e: unknown) => e);
    expect(toErrorPayload(error)).toEqual({ code: 'EXECUTION_ERROR', message: QUOTA_MESSAGE });
    full = new Set();
    expect((await db.messages.toArray()).map((m) => m.content)).toEqual(['kept safe']);
  });

  it('fails an import whole: nothing half-written, and the same import succeeds once there is room', async () => {
    full = new Set(['importQueue']);
    const error = await importArchive(db, parseImport(await archiveText()), true).catch((e: unknown) => e);
    expect(toErrorPayload(error).message).toBe(QUOTA_MESSAGE);
    full = new Set();
    expect((await db.conversations.toArray()).map((c) => c.id)).toEqual(['c1']);
    expect(await db.importQueue.count()).toBe(0);
    expect((await importArchive(db, parseImport(await archiveText()), true)).messages).toEqual({ add: 2, same: 0, differ: 0 });
  });

  it('leaves imported rows queued when they cannot be unpacked yet, and unpacks them later', async () => {
    await importArchive(db, parseImport(await archiveText()), true);
    full = new Set(['messages']);
    await expect(drainImports(db)).rejects.toMatchObject({ name: 'QuotaExceededError' });
    full = new Set();
    expect(await db.importQueue.count()).toBe(1);
    expect((await exportArchive(db)).messages.map((m) => m.id).sort()).toEqual(['i1', 'i2', 'm1']);
    await drainImports(db);
    expect((await db.messages.toArray()).map((m) => m.id).sort()).toEqual(['i1', 'i2', 'm1']);
  });
});
