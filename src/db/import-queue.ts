/**
 * Imported messages and steps wait here, packed, until they are written as rows of their own.
 *
 * IndexedDB costs about 0.15 ms per record written on the reference machine, in Chromium and
 * Firefox alike: an archive of 120k rows took 20 s to write one row per record, and 1 s packed a
 * thousand rows to a record. So an import writes its rows packed (one transaction: all or nothing),
 * answers, and then unpacks them chunk by chunk, each chunk in a transaction of its own that adds
 * its rows and deletes it. Reading a conversation unpacks its chunks first, so nothing that reads
 * rows by conversation ever misses one; the queue outlives a stopped background and is resumed at
 * the next start.
 */
import Dexie from 'dexie';
import type { AgentStep } from '../protocol';
import type { JawadDatabase, MessageRow, QueuedChunk } from './database';

const CHUNK_ROWS = 1_000;

type QueuedRow = MessageRow | AgentStep;

/** Rows cut into chunks, sorted by conversation so that opening one unpacks few chunks. */
export function packRows(table: QueuedChunk['table'], rows: readonly QueuedRow[], idPrefix: string): QueuedChunk[] {
  const sorted = [...rows].sort((a, b) => (a.conversationId < b.conversationId ? -1 : a.conversationId > b.conversationId ? 1 : 0));
  const chunks: QueuedChunk[] = [];
  for (let i = 0; i < sorted.length; i += CHUNK_ROWS) {
    const part = sorted.slice(i, i + CHUNK_ROWS);
    const id = `${idPrefix}-${table}-${String(chunks.length).padStart(6, '0')}`;
    chunks.push({ id, table, conversationIds: [...new Set(part.map((row) => row.conversationId))], rows: part as MessageRow[] | AgentStep[] });
  }
  return chunks;
}

/** A key for this import's chunks that sorts after every earlier import's (they unpack in order). */
export const importPrefix = (now: number): string => now.toString(36).padStart(10, '0');

/** The queued rows of a table by id (usually none: only right after an import). Call inside a transaction over importQueue. */
export async function queuedRows(db: JawadDatabase, table: QueuedChunk['table']): Promise<Map<string, QueuedRow>> {
  const rows = new Map<string, QueuedRow>();
  await db.importQueue.each((chunk) => {
    if (chunk.table === table) for (const row of chunk.rows) rows.set(row.id, row);
  });
  return rows;
}

/** Every queued row of a table, for the export (which need not wait for the queue to empty). */
export async function allQueued<T extends QueuedChunk['table']>(db: JawadDatabase, table: T): Promise<T extends 'messages' ? MessageRow[] : AgentStep[]> {
  return [...(await queuedRows(db, table)).values()] as T extends 'messages' ? MessageRow[] : AgentStep[];
}

/**
 * Writes one chunk's rows and removes the chunk, together. A row whose id exists by now (it cannot
 * from an import, which counts queued rows as present) is left as it is: an import never overwrites.
 */
async function unpack(db: JawadDatabase, id: string): Promise<void> {
  await db.transaction('rw', [db.importQueue, db.messages, db.steps], async () => {
    const chunk = await db.importQueue.get(id);
    if (!chunk) return;
    const table = chunk.table === 'messages' ? db.messages : db.steps;
    await (table as Dexie.Table<QueuedRow, string>).bulkAdd(chunk.rows).catch((error: unknown) => {
      // Only "that id exists" is skipped; anything else (a full disk) fails the chunk, which stays queued.
      if (!(error instanceof Dexie.BulkError) || !error.failures.every((failure) => failure.name === 'ConstraintError')) throw error;
    });
    await db.importQueue.delete(id);
  });
}

/** Unpacks the chunks holding rows of a conversation, before its rows are read. */
export async function settleConversation(db: JawadDatabase, conversationId: string): Promise<void> {
  for (const id of await db.importQueue.where('conversationIds').equals(conversationId).primaryKeys()) await unpack(db, id);
}

const draining = new WeakMap<JawadDatabase, Promise<void>>();

/** Unpacks every chunk, oldest import first; one run at a time per database. */
export function drainImports(db: JawadDatabase): Promise<void> {
  const running = draining.get(db);
  if (running) return running;
  const run = (async () => {
    for (;;) {
      const [id] = await db.importQueue.orderBy(':id').limit(1).primaryKeys();
      if (id === undefined) return;
      await unpack(db, id);
    }
  })().finally(() => draining.delete(db));
  draining.set(db, run);
  return run;
}

/** Drops a conversation's queued rows (it is being deleted). Call inside a transaction over importQueue. */
export async function dropQueued(db: JawadDatabase, conversationId: string): Promise<void> {
  for (const chunk of await db.importQueue.where('conversationIds').equals(conversationId).toArray()) {
    const rows = (chunk.rows as QueuedRow[]).filter((row) => row.conversationId !== conversationId);
    if (rows.length === 0) await db.importQueue.delete(chunk.id);
    else await db.importQueue.put({ ...chunk, rows: rows as MessageRow[] | AgentStep[], conversationIds: chunk.conversationIds.filter((id) => id !== conversationId) });
  }
}
