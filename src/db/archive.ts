/**
 * The archive: everything Jawad keeps in one versioned JSON file (never API keys or settings), and
 * its import, which adds only what is missing. A record already here is never overwritten: when
 * the archive's copy differs it is counted as "differ" and left as it is.
 */
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type Archive, type ImportCount, type ImportPreview } from '../protocol';
import type { JawadDatabase } from './database';
import type { ParsedImport } from './import-formats';

const NEW_TITLES_SHOWN = 20;

export async function exportArchive(db: JawadDatabase, now = Date.now()): Promise<Archive> {
  return db.transaction('r', [db.conversations, db.messages, db.steps, db.usage, db.memories, db.settings], async () => {
    const prices = await db.settings.get('prices');
    return {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      exportedAt: now,
      conversations: await db.conversations.toArray(),
      messages: await db.messages.toArray(),
      steps: await db.steps.toArray(),
      usage: await db.usage.toArray(),
      memories: await db.memories.toArray(),
      prices: prices?.key === 'prices' ? prices.value : {},
    };
  });
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
 * profile reads none).
 */
async function sort<T>(incoming: T[], keyOf: (row: T) => string, table: KeyedTable, same: (a: T, b: T) => boolean): Promise<Sorted<T>> {
  const unique = [...new Map(incoming.map((row) => [keyOf(row), row])).values()];
  const present = new Set((await table.toCollection().primaryKeys()).map(String));
  const here = unique.filter((row) => present.has(keyOf(row)));
  const found = new Map(here.map((row, i) => [keyOf(row), i]));
  const rows = await table.bulkGet(here.map(keyOf));
  const stored = unique.map((row) => (found.has(keyOf(row)) ? rows[found.get(keyOf(row))!] : undefined));
  const count: ImportCount = { add: 0, same: 0, differ: 0 };
  const add: T[] = [];
  unique.forEach((row, i) => {
    const here = stored[i] as T | undefined;
    if (here === undefined) {
      count.add++;
      add.push(row);
    } else if (same(here, row)) count.same++;
    else count.differ++;
  });
  return { count, add };
}

const sameJson = <T>(a: T, b: T) => canonical(a) === canonical(b);

/** Compares what the user sees of a message; bookkeeping fields are not a conflict. */
const sameMessage = (a: Archive['messages'][number], b: Archive['messages'][number]) => a.content === b.content && a.role === b.role && a.conversationId === b.conversationId;

/**
 * What importing would add (`apply` false), or adds it (`apply` true) in one transaction: either
 * all of it is written or none of it.
 */
export async function importArchive(db: JawadDatabase, { format, archive }: ParsedImport, apply: boolean): Promise<ImportPreview> {
  const tables = [db.conversations, db.messages, db.steps, db.usage, db.memories];
  return db.transaction(apply ? 'rw' : 'r', tables, async () => {
    const conversations = await sort(archive.conversations, (c) => c.id, db.conversations, (a, b) => a.createdAt === b.createdAt);
    const messages = await sort(archive.messages, (m) => m.id, db.messages, sameMessage);
    const steps = await sort(archive.steps, (s) => s.id, db.steps, sameJson);
    const usage = await sort(archive.usage, (u) => u.requestId, db.usage, sameJson);
    const memories = await sort(archive.memories, (m) => m.id, db.memories, sameJson);
    if (apply) {
      await db.conversations.bulkAdd(conversations.add);
      await db.messages.bulkAdd(messages.add);
      await db.steps.bulkAdd(steps.add);
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
