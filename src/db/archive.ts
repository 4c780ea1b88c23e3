/**
 * The archive: everything Jawad keeps in one versioned JSON file (never API keys or settings), and
 * its import, which adds only what is missing. A record already here is never overwritten: when
 * the archive's copy differs it is counted as "differ" and left as it is.
 */
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type AgentStep, type Archive, type ImportCount, type ImportPreview } from '../protocol';
import type { Table } from 'dexie';
import type { JawadDatabase, MessageRow } from './database';
import type { ParsedImport } from './import-formats';
import { allQueued, importPrefix, packRows, queuedRows } from './import-queue';
import { keyCuts } from './key-cuts';

const NEW_TITLES_SHOWN = 20;

export async function exportArchive(db: JawadDatabase, now = Date.now()): Promise<Archive> {
  const read = await readArchive(db, (rows) => rows, (rows) => rows);
  return {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exportedAt: now,
    conversations: read.conversations,
    messages: [...read.messages.flat(), ...read.queuedMessages],
    steps: [...read.steps.flat(), ...read.queuedSteps],
    usage: read.usage,
    memories: read.memories,
    prices: read.prices,
  };
}

/**
 * The archive as the text of its file — the same text as JSON.stringify(exportArchive(…)) — in
 * pieces, in file order. The big tables' key ranges become text as each arrives, while the
 * database still reads the others; `piece` turns each text into what the file is made of (the
 * sidebar: a Blob, so the browser copies it out of the page then, not all at the end). For 100k
 * messages Chromium spent ~0.2 s on one JSON.stringify and ~0.5 s on one 51 MB Blob after the reads.
 */
export async function exportArchivePieces<P>(db: JawadDatabase, piece: (text: string) => P, now = Date.now()): Promise<P[]> {
  const rowsText = (rows: readonly unknown[]) => (rows.length ? piece(JSON.stringify(rows).slice(1, -1)) : undefined);
  const read = await readArchive(db, rowsText, rowsText);
  const list = (pieces: Array<P | undefined>): P[] => pieces.filter((part): part is P => part !== undefined).flatMap((part, index) => (index ? [piece(','), part] : [part]));
  const head = JSON.stringify({ format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: now, conversations: read.conversations }).slice(0, -1);
  const tail = JSON.stringify({ usage: read.usage, memories: read.memories, prices: read.prices }).slice(1);
  return [
    piece(`${head},"messages":[`),
    ...list([...read.messages, rowsText(read.queuedMessages)]),
    piece('],"steps":['),
    ...list([...read.steps, rowsText(read.queuedSteps)]),
    piece(`],${tail}`),
  ];
}

/** Everything the archive holds, read in one transaction; each key range of messages and steps goes through its callback as it arrives. */
function readArchive<M, S>(db: JawadDatabase, eachMessages: (rows: MessageRow[]) => M, eachSteps: (rows: AgentStep[]) => S) {
  return db.transaction('r', [db.conversations, db.messages, db.steps, db.usage, db.memories, db.settings, db.importQueue], async () => {
    // Rows an import still holds packed are part of history already.
    const [prices, conversations, messages, queuedMessages, steps, queuedSteps, usage, memories] = await Promise.all([
      db.settings.get('prices'),
      db.conversations.toArray(),
      readInRanges(db.messages, eachMessages),
      allQueued(db, 'messages'),
      readInRanges(db.steps, eachSteps),
      allQueued(db, 'steps'),
      db.usage.toArray(),
      db.memories.toArray(),
    ]);
    return { prices: prices?.key === 'prices' ? prices.value : {}, conversations, messages, queuedMessages, steps, queuedSteps, usage, memories };
  });
}

/**
 * How many key ranges a big table is read in, side by side. Cut by a guess (key-cuts.ts), many are
 * empty: 64 leave no range with more than a tenth of random UUIDs.
 */
const READ_RANGES = 64;

/**
 * A whole table, in key order, read as key ranges side by side rather than one request: the
 * database reads one range while the page decodes (and the export turns to text) another. For 100k
 * messages that took Firefox 1.3–1.6 s instead of 1.9–2.3 s in one request. The ranges are cut
 * between the first and the last key (key-cuts.ts); a read transaction sees one state, so they
 * cannot miss a row. `each` gets each range's rows as they arrive; the results are in key order.
 */
async function readInRanges<T, Insert, R>(table: Table<T, string, Insert>, each: (rows: T[]) => R): Promise<R[]> {
  const [[first], [last]] = await Promise.all([table.toCollection().limit(1).primaryKeys(), table.toCollection().reverse().limit(1).primaryKeys()]);
  if (first === undefined || last === undefined) return [];
  const bounds = [first, ...keyCuts(first, last, READ_RANGES), last];
  return Promise.all(bounds.slice(1).map((upper, i) => table.where(':id').between(bounds[i]!, upper, true, i === bounds.length - 2).toArray().then(each)));
}

/** JSON with keys in a fixed order, for comparing a stored record with the archive's copy. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1))) : inner,
  );
}

interface Sorted<T> {
  count: ImportCount;
  add: T[];
}

type KeyedTable = { toCollection(): { primaryKeys(): Promise<unknown[]> }; bulkGet(keys: string[]): Promise<unknown[]> };

/**
 * Splits incoming records into new ones, ones here already, and ones here with other content. All
 * keys of the table come in one request; only records that exist are read to compare (a fresh
 * profile reads none). `queued` holds rows an earlier import has not unpacked yet: they are here too.
 */
async function sort<T>(incoming: T[], keyOf: (row: T) => string, table: KeyedTable, same: (a: T, b: T) => boolean, queued = new Map<string, unknown>()): Promise<Sorted<T>> {
  const unique = [...new Map(incoming.map((row) => [keyOf(row), row])).values()];
  const present = new Set((await table.toCollection().primaryKeys()).map(String));
  const here = unique.filter((row) => present.has(keyOf(row)));
  const rows = await table.bulkGet(here.map(keyOf));
  const stored = new Map<string, unknown>(queued);
  here.forEach((row, i) => stored.set(keyOf(row), rows[i]));
  const count: ImportCount = { add: 0, same: 0, differ: 0 };
  const add: T[] = [];
  for (const row of unique) {
    const existing = stored.get(keyOf(row)) as T | undefined;
    if (existing === undefined) {
      count.add++;
      add.push(row);
    } else if (same(existing, row)) count.same++;
    else count.differ++;
  }
  return { count, add };
}

const sameJson = <T>(a: T, b: T) => canonical(a) === canonical(b);

/** Compares what the user sees of a message; bookkeeping fields are not a conflict. */
const sameMessage = (a: Archive['messages'][number], b: Archive['messages'][number]) => a.content === b.content && a.role === b.role && a.conversationId === b.conversationId;

/**
 * What importing would add (`apply` false), or adds it (`apply` true) in one transaction: either
 * all of it is written or none of it. Messages and steps are written packed into the import queue
 * (src/db/import-queue.ts); `drainImports` then makes rows of them.
 */
export async function importArchive(db: JawadDatabase, { format, archive }: ParsedImport, apply: boolean, now = Date.now()): Promise<ImportPreview> {
  const tables = [db.conversations, db.messages, db.steps, db.usage, db.memories, db.importQueue];
  return db.transaction(apply ? 'rw' : 'r', tables, async () => {
    const conversations = await sort(archive.conversations, (c) => c.id, db.conversations, (a, b) => a.createdAt === b.createdAt);
    const messages = await sort(archive.messages, (m) => m.id, db.messages, sameMessage, await queuedRows(db, 'messages'));
    const steps = await sort(archive.steps, (s) => s.id, db.steps, sameJson, await queuedRows(db, 'steps'));
    const usage = await sort(archive.usage, (u) => u.requestId, db.usage, sameJson);
    const memories = await sort(archive.memories, (m) => m.id, db.memories, sameJson);
    if (apply) {
      const prefix = importPrefix(now);
      await db.conversations.bulkAdd(conversations.add);
      await db.importQueue.bulkAdd([...packRows('messages', messages.add, prefix), ...packRows('steps', steps.add, prefix)]);
      await db.usage.bulkAdd(usage.add);
      await db.memories.bulkAdd(memories.add);
    }
    return {
      format,
      conversations: conversations.count,
      messages: messages.count,
      steps: steps.count,
      usage: usage.count,
      memories: memories.count,
      newTitles: conversations.add.slice(0, NEW_TITLES_SHOWN).map((c) => c.title),
      applied: apply,
    };
  });
}
