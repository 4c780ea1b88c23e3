import Dexie from 'dexie';
import type { AgentStep, SearchHit } from '../protocol';
import type { JawadDatabase, MessageRow, RowChange } from './database';
import { parseQuery, snippet, TextIndex, type Query, type Ranked, type TextIndexData } from './text-index';

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

/**
 * Full-text search over messages and agent steps. The index lives in memory, kept current from the
 * database's change feed, so no write path (chat, agent, import, delete, clear) can leave it stale.
 * It is saved to the database a few seconds after the last write and read back when a background
 * starts (~0.3 s for 100k messages, against ~6 s to build it from the rows); the saved copy is
 * deleted at the first write after it, so a background that stops before saving again leaves
 * none, and the next one rebuilds rather than trust a stale copy.
 */
export class SearchIndex {
  private index: TextIndex<HistoryDocMeta> | undefined;
  private loading: Promise<TextIndex<HistoryDocMeta>> | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** A saved copy may exist (from an earlier background) until this one deletes or replaces it. */
  private saved = true;

  constructor(
    private readonly db: JawadDatabase,
    private readonly saveAfterMs = SAVE_AFTER_MS,
  ) {
    db.onChange((change) => this.follow(change));
  }

  /** Loads the index now rather than on the first search (e.g. while the user types). */
  ready(): Promise<TextIndex<HistoryDocMeta>> {
    if (this.index) return Promise.resolve(this.index);
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(): Promise<TextIndex<HistoryDocMeta>> {
    const [snapshot, messages, steps] = await this.db.transaction('r', [this.db.searchSnapshot, this.db.messages, this.db.steps], () =>
      Promise.all([this.db.searchSnapshot.get('history'), this.db.messages.count(), this.db.steps.count()]),
    );
    if (snapshot && snapshot.messages === messages && snapshot.steps === steps) {
      this.saved = true;
      return (this.index = TextIndex.load(snapshot.data as TextIndexData<HistoryDocMeta>));
    }
    const index = new TextIndex<HistoryDocMeta>();
    // toArray reads with getAll, one request per table: a cursor (each()) costs a round trip per row.
    for (const row of await this.db.messages.toArray()) index.upsert(messageDoc(row));
    for (const step of await this.db.steps.toArray()) index.upsert(stepDoc(step));
    this.index = index;
    this.scheduleSave();
    return index;
  }

  private scheduleSave(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.save().catch((error: unknown) => console.warn('Jawad: the search index was not saved; it is rebuilt at the next start', error)), this.saveAfterMs);
  }

  /** Saves the index with the row counts it covers (what `load` checks it against). */
  async save(): Promise<void> {
    clearTimeout(this.saveTimer);
    const index = this.index;
    if (!index) return;
    await this.db.transaction('rw', [this.db.searchSnapshot, this.db.messages, this.db.steps], async () => {
      const [messages, steps] = await Promise.all([this.db.messages.count(), this.db.steps.count()]);
      // A write between the timer and this transaction has its own save coming.
      if (index !== this.index) return;
      await this.db.searchSnapshot.put({ id: 'history', messages, steps, data: index.save() });
      this.saved = true;
    });
  }

  private follow(change: RowChange): void {
    if (change.table !== 'messages' && change.table !== 'steps') return;
    // modify() with nothing to change (markInterrupted at every start) still reports an empty put.
    if ((change.type === 'put' && change.values.length === 0) || (change.type === 'delete' && change.keys.length === 0)) return;
    if (this.saved) {
      this.saved = false;
      // Its own transaction: the write that got here runs in one that does not cover the snapshot.
      void Dexie.ignoreTransaction(() => this.db.searchSnapshot.delete('history')).catch((error: unknown) => console.warn('Jawad: a stale search index copy was not deleted', error));
    }
    const index = this.index;
    if (!index) return;
    this.scheduleSave();
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

  async search(text: string, limit = SEARCH_LIMIT): Promise<SearchHit[]> {
    const query = parseQuery(text);
    const ranked = (await this.ready()).search(query, { mode: 'all', limit });
    return this.hits(ranked, query);
  }

  /**
   * Past messages related to a question (memory's recall): any of its words counts, at least two
   * when it has two; messages of `exclude` (the conversation being had) and forgotten ones are left out.
   */
  async related(query: Query, exclude: string | undefined, limit: number): Promise<RankedText[]> {
    const ranked = (await this.ready()).search(query, {
      mode: 'any',
      minTerms: 2,
      limit,
      filter: (meta) => meta.kind !== 'step' && meta.conversationId !== exclude && !meta.forgotten,
    });
    return this.withText(ranked);
  }

  /** The hits with their documents' text, read from the database; a hit whose row went is dropped. */
  private async withText(ranked: Ranked<HistoryDocMeta>[]): Promise<RankedText[]> {
    const idOf = (hit: Ranked<HistoryDocMeta>) => hit.key.slice(2);
    const messages = await this.db.messages.bulkGet(ranked.filter((hit) => hit.meta.kind !== 'step').map(idOf));
    const steps = await this.db.steps.bulkGet(ranked.filter((hit) => hit.meta.kind === 'step').map(idOf));
    const texts = new Map<string, string>([
      ...messages.filter((row) => row !== undefined).map((row): [string, string] => [`m:${row.id}`, row.content]),
      ...steps.filter((row) => row !== undefined).map((row): [string, string] => [`s:${row.id}`, stepText(row)]),
    ]);
    return ranked.filter((hit) => texts.has(hit.key)).map((hit) => ({ ...hit, text: texts.get(hit.key)! }));
  }

  private async hits(found: Ranked<HistoryDocMeta>[], query: Query): Promise<SearchHit[]> {
    const ranked = await this.withText(found);
    const ids = [...new Set(ranked.map((hit) => hit.meta.conversationId))];
    const conversations = await this.db.conversations.bulkGet(ids);
    const titles = new Map(conversations.filter((c) => c !== undefined).map((c) => [c.id, c.title]));
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
}
