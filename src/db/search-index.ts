import Dexie from 'dexie';
import type { AgentStep, SearchHit } from '../protocol';
import type { JawadDatabase, MessageRow, RowChange, SearchSnapshot } from './database';
import { joinIndex, keyPieceCount, packHead, SavedIndex, splitIndex, unpackHead, type IndexRest, type IndexShard, type KeyPiece, type RankedKey, type RankedSlot } from './saved-index';
import { parseQuery, snippet, TextIndex, type Query, type Ranked, type SearchOptions } from './text-index';

export interface HistoryDocMeta {
  kind: 'message' | 'step' | 'report';
  conversationId: string;
  messageId: string;
  createdAt: number;
  /** Left out of memory's recall at the user's request. */
  forgotten?: boolean;
}

const SEARCH_LIMIT = 30;
const REBUILD_AFTER = 1_000;
/** Quiet time after the last write before the index is saved (saving 100k messages' index takes ~0.3 s). */
const SAVE_AFTER_MS = 5_000;

export type RankedText = Ranked<HistoryDocMeta> & { text: string };

/** What a search finds in a step: what the model said, what it did, on what, and what came of it. */
export function stepText(step: AgentStep): string {
  const params = Object.values(step.params).filter((value): value is string => typeof value === 'string');
  return [step.thinking, step.tool, step.target?.name, step.result?.summary, step.url, ...params].filter(Boolean).join('\n');
}

/** A research report is saved as a message under the workflow's `report-…` request link. */
const isReport = (row: MessageRow) => /(^|:)report-[0-9a-f]+$/.test(row.requestId);

function messageDoc(row: MessageRow) {
  const meta: HistoryDocMeta = { kind: isReport(row) ? 'report' : 'message', conversationId: row.conversationId, messageId: row.id, createdAt: row.createdAt, ...(row.forgotten ? { forgotten: true } : {}) };
  return { key: `m:${row.id}`, text: row.content, meta };
}

function stepDoc(step: AgentStep) {
  return { key: `s:${step.id}`, text: stepText(step), meta: { kind: 'step', conversationId: step.conversationId, messageId: step.messageId, createdAt: step.createdAt } as const };
}

const HEAD = 'history';
const REST = 'history:rest';
/** Which save the copy is: a reader that kept an earlier head knows it was replaced. */
const STAMP = 'history:stamp';
const shardId = (index: number) => `history:p${index}`;
const keysId = (index: number) => `history:k${index}`;
/** The head's parts, numbered so that their ids sort in their order. */
const headPartId = (index: number) => `history:h${String(index).padStart(6, '0')}`;
const HEAD_PARTS = ['history:h', 'history:h\uffff'] as const;
/** Hits read from the database at a time when some may be filtered out (memory's recall). */
const ROWS_AT_ONCE = 60;
/** How long after a restart the saved copy is checked when no search came (and between tries). */
const VERIFY_AFTER_MS = 1_000;

/**
 * Full-text search over messages and agent steps. The index lives in memory, kept current from the
 * database's change feed, so no write path (chat, agent, import, delete, clear) can leave it stale.
 * It is saved to the database a few seconds after the last write, in pieces (saved-index.ts). A
 * background that starts searches the saved copy a piece at a time — only the shards of the words
 * asked for — until the first write, which makes it read the copy whole and follow writes from
 * there. The saved copy's head is deleted at the first write after it, so a background that stops
 * before saving again leaves none, and the next one rebuilds rather than trust a stale copy.
 */
export class SearchIndex {
  private index: TextIndex<HistoryDocMeta> | undefined;
  /** The saved copy, searched a piece at a time, while nothing has been written since it was read. */
  private view: SavedIndex | undefined;
  /** Writes that arrived while the index was being read, applied once it is. */
  private pending: RowChange[] | undefined;
  private loading: Promise<void> | undefined;
  /** The saved copy the index in memory was read from, if it was. */
  private indexFrom: SavedIndex | undefined;
  /** Saved copies found not to cover every row. */
  private readonly distrusted = new WeakSet<SavedIndex>();
  /** The saved copy read at start, until its check begins (after the first search's reads). */
  private unverified: SavedIndex | undefined;
  private verifyTimer: ReturnType<typeof setTimeout> | undefined;
  /** Writes followed so far: a check that saw this change while counting rows tries again. */
  private changes = 0;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** A saved copy may exist (from an earlier background) until this one deletes or replaces it. */
  private saved = true;

  constructor(
    private readonly db: JawadDatabase,
    private readonly saveAfterMs = SAVE_AFTER_MS,
    /** Posting numbers per saved shard (tests make it small to get several). */
    private readonly shardNumbers?: number,
  ) {
    db.onChange((change) => this.follow(change));
  }

  /** Gets the index ready now rather than at the first search (e.g. while the user types). */
  ready(): Promise<void> {
    if (this.index || this.view) return Promise.resolve();
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /**
   * Reads the saved copy's head and searches from it at once; whether the copy covers every row is
   * checked once that first search has had its reads (verify).
   */
  private async load(): Promise<void> {
    const view = await readSavedCopy(this.db);
    if (!view) return this.rebuild();
    this.saved = true;
    this.unverified = view;
    this.verifyTimer = setTimeout(() => this.verifySoon(), VERIFY_AFTER_MS);
    // Written to while the head was read: the copy is read whole and the writes applied to it.
    if (this.pending) return this.readWhole(view);
    this.view = view;
  }

  /** Starts the check of the copy read at start, if it has not begun: after a search's reads, or a while after the start. */
  private verifySoon(): void {
    const view = this.unverified;
    this.unverified = undefined;
    clearTimeout(this.verifyTimer);
    if (view) void this.verify(view);
  }

  /**
   * Drops the saved copy, for an index rebuilt from the rows, if it does not cover every row (a
   * background stopped between a write and deleting the head): a complete index has one document
   * per message and step. Counted in a transaction of its own, after the first search: counting
   * 100k rows took Chromium a quarter of a second after a restart, and held back every read beside
   * it. Writes followed while counting make the comparison meaningless: it is tried again.
   */
  private async verify(view: SavedIndex): Promise<void> {
    try {
      for (;;) {
        await this.ready();
        const seen = this.changes;
        const rows = await countRows(this.db);
        if (this.changes !== seen) {
          await new Promise((resolve) => setTimeout(resolve, VERIFY_AFTER_MS));
          continue;
        }
        const documents = this.view === view ? view.size : this.indexFrom === view ? this.index?.size : undefined;
        // undefined: no longer searching this copy (already distrusted, or replaced).
        if (documents !== undefined && documents !== rows) this.distrust(view);
        return;
      }
    } catch (error) {
      console.warn('Jawad: the saved search index was not checked against the rows', error);
    }
  }

  /** Drops a saved copy found stale, and whatever was made from it, for an index rebuilt from the rows. */
  private distrust(view: SavedIndex): void {
    this.distrusted.add(view);
    void this.db.searchSnapshot.delete(HEAD).catch((error: unknown) => console.warn('Jawad: a stale search index copy was not deleted', error));
    this.saved = false;
    if (this.view === view) this.view = undefined;
    if (this.indexFrom === view) this.index = undefined;
    // readWhole, if under way, sees it distrusted and rebuilds.
    this.loading ??= this.rebuild()
      .catch((error: unknown) => console.warn('Jawad: the search index is rebuilt at the next search', error))
      .finally(() => (this.loading = undefined));
  }

  /** Builds the index from every row, then applies what was written meanwhile (again: it is idempotent). */
  private async rebuild(): Promise<void> {
    const index = new TextIndex<HistoryDocMeta>();
    // toArray reads with getAll, one request per table: a cursor (each()) costs a round trip per row.
    for (const row of await this.db.messages.toArray()) index.upsert(messageDoc(row));
    for (const step of await this.db.steps.toArray()) index.upsert(stepDoc(step));
    this.settle(index);
  }

  /** The saved copy read whole (its pieces outlive the deleted head until the next save). */
  private async readWhole(view: SavedIndex): Promise<void> {
    const shardIds = Array.from({ length: view.head.shardStarts.length - 1 }, (_, i) => shardId(i));
    const keyIds = Array.from({ length: keyPieceCount(view.head) }, (_, i) => keysId(i));
    const pieces = await readPieces(this.db, view, [REST, ...shardIds, ...keyIds]);
    if (!pieces || this.distrusted.has(view)) return this.rebuild();
    const [rest, ...others] = pieces;
    const shards = others.slice(0, shardIds.length) as IndexShard[];
    const keys = others.slice(shardIds.length) as KeyPiece[];
    const data = joinIndex<HistoryDocMeta>({ head: view.head, rest: rest as IndexRest<HistoryDocMeta>, shards, keys });
    this.settle(TextIndex.load(data), view);
  }

  /** Takes a freshly read index, with the writes that came while it was read. */
  private settle(index: TextIndex<HistoryDocMeta>, from?: SavedIndex): void {
    const pending = this.pending ?? [];
    this.pending = undefined;
    this.index = index;
    this.indexFrom = from;
    for (const change of pending) this.apply(change);
    if (pending.length > 0 || !this.saved) this.scheduleSave();
  }

  private scheduleSave(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.save().catch((error: unknown) => console.warn('Jawad: the search index was not saved; it is rebuilt at the next start', error)), this.saveAfterMs);
  }

  /** Saves the index in pieces (saved-index.ts), replacing the last saved copy whole. */
  async save(): Promise<void> {
    clearTimeout(this.saveTimer);
    const index = this.index;
    if (!index) return;
    const { head, rest, shards, keys } = splitIndex(index.save(), { ...(this.shardNumbers ? { shardNumbers: this.shardNumbers } : {}), groupOf: (meta) => meta.conversationId });
    const stored = packHead(head);
    await this.db.transaction('rw', this.db.searchSnapshot, async () => {
      // A write between the timer and this transaction has its own save coming.
      if (index !== this.index) return;
      await this.db.searchSnapshot.where('id').startsWith(HEAD).delete();
      await this.db.searchSnapshot.bulkPut([
        { id: HEAD, data: stored.record },
        ...stored.parts.map((part, i) => ({ id: headPartId(i), data: part })),
        { id: REST, data: rest },
        ...shards.map((shard, i) => ({ id: shardId(i), data: shard })),
        ...keys.map((piece, i) => ({ id: keysId(i), data: piece })),
        { id: STAMP, data: crypto.randomUUID() },
      ]);
      this.saved = true;
    });
  }

  private follow(change: RowChange): void {
    if (change.table !== 'messages' && change.table !== 'steps') return;
    // modify() with nothing to change (markInterrupted at every start) still reports an empty put.
    if ((change.type === 'put' && change.values.length === 0) || (change.type === 'delete' && change.keys.length === 0)) return;
    this.changes++;
    if (this.saved) {
      this.saved = false;
      // Its own transaction: the write that got here runs in one that does not cover the snapshot.
      void Dexie.ignoreTransaction(() => this.db.searchSnapshot.delete(HEAD)).catch((error: unknown) => console.warn('Jawad: a stale search index copy was not deleted', error));
    }
    if (this.index) {
      this.apply(change);
      this.scheduleSave();
      return;
    }
    const view = this.view;
    // Not read yet: the next load reads the rows as they are now. Being read: applied once it is.
    if (!view && !this.loading) return;
    (this.pending ??= []).push(change);
    if (!view) return;
    this.view = undefined;
    // Out of the write's transaction, which does not cover the saved copy.
    const read = Dexie.ignoreTransaction(() => this.readWhole(view).catch(() => this.rebuild()));
    this.loading = read.finally(() => (this.loading = undefined));
  }

  /** Applies a write (to messages or steps: follow filtered it) to the index in memory; one too big to follow row by row drops it, to be rebuilt. */
  private apply(change: RowChange): void {
    const index = this.index;
    if (!index) return;
    const prefix = change.table === 'messages' ? 'm:' : 's:';
    switch (change.type) {
      case 'put':
        // A big batch is cheaper to take in with the next full load than row by row.
        if (change.values.length > REBUILD_AFTER) this.index = undefined;
        else for (const value of change.values) index.upsert(change.table === 'messages' ? messageDoc(value as MessageRow) : stepDoc(value as AgentStep));
        return;
      case 'delete':
        for (const key of change.keys) index.remove(`${prefix}${String(key)}`);
        return;
      case 'clear':
        index.removeWhere((meta) => (meta.kind === 'step') === (change.table === 'steps'));
        return;
      case 'range-deleted':
        this.index = undefined;
    }
  }

  /**
   * The documents that best match, best first: from the index in memory (filtered by its metadata),
   * or from the saved copy's shards (unfiltered: its metadata is in the rows, which the caller reads),
   * named a batch at a time (a saved copy reads the keys of the documents asked for only).
   */
  private async ranked(query: Query, options: SearchOptions<HistoryDocMeta>): Promise<Ranking> {
    for (;;) {
      await this.ready();
      if (this.index) {
        const found = this.index.search(query, options).map((hit) => ({ ...hit, group: hit.meta.conversationId }));
        return { size: found.length, keys: (from, to) => Promise.resolve(found.slice(from, to)) };
      }
      const view = this.view;
      if (!view) continue; // a write came while it was read: wait for the index it leads to
      const slots = await rankFromCopy(this.db, view, query, options);
      if (slots) return { size: slots.length, keys: (from, to) => keysFromCopy(this.db, view, slots.slice(from, to)).then((keys) => keys ?? this.gone(view)) };
      this.gone(view);
    }
  }

  /** The saved copy was replaced under a search (a save reused its pieces' ids): the next one searches what replaced it. */
  private gone(view: SavedIndex): undefined {
    if (this.view === view) this.view = undefined;
    return undefined;
  }

  async search(text: string, limit = SEARCH_LIMIT): Promise<SearchHit[]> {
    const query = parseQuery(text);
    let ranked: RankedKey[] | undefined;
    while (!ranked) ranked = await (await this.ranked(query, { mode: 'all', limit })).keys(0, limit);
    const hits = await historyHits(this.db, ranked, query);
    this.verifySoon();
    return hits;
  }

  /**
   * Past messages related to a question (memory's recall): any of its words counts, at least two
   * when it has two; messages of `exclude` (the conversation being had) and forgotten ones are left out.
   * Best effort: a saved copy replaced under it ends the recall with what it found.
   */
  async related(query: Query, exclude: string | undefined, limit: number): Promise<RankedText[]> {
    const recallable = (meta: HistoryDocMeta) => meta.kind !== 'step' && meta.conversationId !== exclude && !meta.forgotten;
    const ranked = await this.ranked(query, { mode: 'any', minTerms: 2, limit, filter: recallable });
    const found: RankedText[] = [];
    for (let i = 0; i < ranked.size && found.length < limit; i += ROWS_AT_ONCE) {
      const batch = await ranked.keys(i, i + ROWS_AT_ONCE);
      if (!batch) break;
      found.push(...(await withText(this.db, batch.filter((hit) => !hit.key.startsWith('s:')))).filter((hit) => recallable(hit.meta)));
    }
    this.verifySoon();
    return found.slice(0, limit);
  }
}

/** Ranked documents, best first, named a batch at a time; a batch is undefined when the saved copy ranked was replaced under it. */
interface Ranking {
  size: number;
  keys(from: number, to: number): Promise<RankedKey[] | undefined>;
}

// ---- The saved copy, read without writing: by a background that just started, and by the sidebar
// while the background sleeps (src/sidebar/sleeping-search.ts).

/** The saved copy's head, with its stamp (SavedIndex.stamp), read in one transaction; undefined when there is none. */
export function readSavedCopy(db: JawadDatabase): Promise<SavedIndex | undefined> {
  return db.transaction('r', db.searchSnapshot, async () => {
    const [[record, stamp], parts] = await Promise.all([db.searchSnapshot.bulkGet([HEAD, STAMP]), db.searchSnapshot.where('id').between(...HEAD_PARTS).toArray()]);
    const head = record && unpackHead(record.data, parts.map((part) => part.data));
    return head && new SavedIndex(head, typeof stamp?.data === 'string' ? stamp.data : undefined);
  });
}

/**
 * Whether a copy read before is still the saved one: its head is deleted at the first write after
 * the save, and a new save writes a new stamp. Reads no piece of the copy itself.
 */
export async function stillSaved(db: JawadDatabase, view: SavedIndex): Promise<boolean> {
  return (await readPieces(db, view, [], true)) !== undefined;
}

/**
 * Pieces of a saved copy by id, read with its stamp in one transaction; undefined when the copy was
 * replaced under it (a new save reuses the pieces' ids, and writes a new stamp). `current` also
 * asks that the copy's head still be there (deleted at the first write after the save).
 */
async function readPieces(db: JawadDatabase, view: SavedIndex, ids: string[], current = false): Promise<unknown[] | undefined> {
  if (ids.length === 0 && !current) return [];
  const [heads, [stamp, ...rows]] = await db.transaction('r', db.searchSnapshot, () =>
    Promise.all([current ? db.searchSnapshot.where('id').equals(HEAD).count() : 1, db.searchSnapshot.bulkGet([STAMP, ...ids])]),
  );
  if (heads === 0 || (view.stamp !== undefined && stamp?.data !== view.stamp) || rows.some((row) => !row)) return undefined;
  return rows.map((row) => row!.data);
}

/**
 * The documents of a saved copy that best match, from the shards of the query's words
 * (unfiltered: the metadata is in the rows, which the caller reads); undefined when the copy was
 * replaced under it, or (`current`) is no longer the saved one.
 */
export async function rankFromCopy(db: JawadDatabase, view: SavedIndex, query: Query, options: SearchOptions<HistoryDocMeta>, current = false): Promise<RankedSlot[] | undefined> {
  const wanted = view.shardsToRead(query);
  const shards = await readPieces(db, view, wanted.map(shardId), current);
  if (!shards) return undefined;
  wanted.forEach((shard, i) => view.addShard(shard, shards[i] as IndexShard));
  return view.search(query, options.filter ? { ...options, limit: Number.POSITIVE_INFINITY } : options);
}

/** Ranked documents of a saved copy by key, reading the key pieces that name them; undefined when the copy was replaced under it. */
export async function keysFromCopy(db: JawadDatabase, view: SavedIndex, ranked: RankedSlot[]): Promise<RankedKey[] | undefined> {
  const wanted = view.keyPiecesToRead(ranked);
  const pieces = await readPieces(db, view, wanted.map(keysId));
  if (!pieces) return undefined;
  wanted.forEach((piece, i) => view.addKeys(piece, pieces[i] as KeyPiece));
  return view.keyed(ranked);
}

/**
 * A search of the history view answered from a saved copy alone, checking in its first read that
 * the copy is still the saved one; undefined when it is not.
 */
export async function searchCopy(db: JawadDatabase, view: SavedIndex, text: string): Promise<SearchHit[] | undefined> {
  const query = parseQuery(text);
  const slots = await rankFromCopy(db, view, query, { mode: 'all', limit: SEARCH_LIMIT }, true);
  const ranked = slots && (await keysFromCopy(db, view, slots));
  return ranked && historyHits(db, ranked, query);
}

/** Messages and steps, counted while nothing writes: a complete index has one document for each. */
export function countRows(db: JawadDatabase): Promise<number> {
  return db.transaction('r', [db.messages, db.steps], async () => (await db.messages.count()) + (await db.steps.count()));
}

/**
 * Ranked hits as the history view shows them: with their conversation's title and a marked snippet.
 * When the ranking tells each hit's conversation, the titles are read beside the rows, not after.
 */
export async function historyHits(db: JawadDatabase, ranked: RankedKey[], query: Query): Promise<SearchHit[]> {
  const known = ranked.every((hit) => hit.group !== undefined);
  if (!known) {
    const texts = await withText(db, ranked);
    return shown(texts, await titlesOf(db, texts.map((hit) => hit.meta.conversationId)), query);
  }
  const [texts, titles] = await Promise.all([withText(db, ranked), titlesOf(db, ranked.map((hit) => hit.group!))]);
  return shown(texts, titles, query);
}

async function titlesOf(db: JawadDatabase, conversationIds: string[]): Promise<Map<string, string>> {
  const conversations = await db.conversations.bulkGet([...new Set(conversationIds)]);
  return new Map(conversations.filter((c) => c !== undefined).map((c) => [c.id, c.title]));
}

/** The hits with their rows' text and metadata; a hit whose row went is dropped. */
async function withText(db: JawadDatabase, ranked: RankedKey[]): Promise<RankedText[]> {
  const idOf = (hit: RankedKey) => hit.key.slice(2);
  const [messages, steps] = await Promise.all([
    db.messages.bulkGet(ranked.filter((hit) => hit.key.startsWith('m:')).map(idOf)),
    db.steps.bulkGet(ranked.filter((hit) => hit.key.startsWith('s:')).map(idOf)),
  ]);
  const docs = new Map<string, { text: string; meta: HistoryDocMeta }>([
    ...messages.filter((row) => row !== undefined).map((row) => messageDoc(row)),
    ...steps.filter((row) => row !== undefined).map((step) => stepDoc(step)),
  ].map((doc) => [doc.key, doc]));
  return ranked.filter((hit) => docs.has(hit.key)).map((hit) => ({ key: hit.key, score: hit.score, ...docs.get(hit.key)! }));
}

function shown(ranked: RankedText[], titles: ReadonlyMap<string, string>, query: Query): SearchHit[] {
  return ranked
    .filter((hit) => titles.has(hit.meta.conversationId))
    .map((hit) => ({
      kind: hit.meta.kind,
      id: hit.key.slice(2),
      conversationId: hit.meta.conversationId,
      conversationTitle: titles.get(hit.meta.conversationId)!,
      messageId: hit.meta.messageId,
      createdAt: hit.meta.createdAt,
      snippet: snippet(hit.text, query),
    }));
}
