import type { AgentStep, SearchHit } from '../protocol';
import type { JawadDatabase, MessageRow, RowChange } from './database';
import { parseQuery, snippet, TextIndex, type Query, type Ranked } from './text-index';

export interface HistoryDocMeta {
  kind: 'message' | 'step';
  conversationId: string;
  messageId: string;
  createdAt: number;
  /** Left out of memory's recall at the user's request. */
  forgotten?: boolean;
}

const SEARCH_LIMIT = 30;
const REBUILD_AFTER = 1_000;

/** What a search finds in a step: what the model said, what it did, on what, and what came of it. */
export function stepText(step: AgentStep): string {
  const params = Object.values(step.params).filter((value): value is string => typeof value === 'string');
  return [step.thinking, step.tool, step.target?.name, step.result?.summary, step.url, ...params].filter(Boolean).join('\n');
}

function messageDoc(row: MessageRow) {
  const meta: HistoryDocMeta = { kind: 'message', conversationId: row.conversationId, messageId: row.id, createdAt: row.createdAt, ...(row.forgotten ? { forgotten: true } : {}) };
  return { key: `m:${row.id}`, text: row.content, meta };
}

function stepDoc(step: AgentStep) {
  return { key: `s:${step.id}`, text: stepText(step), meta: { kind: 'step', conversationId: step.conversationId, messageId: step.messageId, createdAt: step.createdAt } as const };
}

/**
 * Full-text search over messages and agent steps. The index lives in memory: built from the
 * database on first use, then kept current from the database's change feed, so no write path
 * (chat, agent, import, delete, clear) can leave it stale.
 */
export class SearchIndex {
  private index: TextIndex<HistoryDocMeta> | undefined;
  private loading: Promise<TextIndex<HistoryDocMeta>> | undefined;

  constructor(private readonly db: JawadDatabase) {
    db.onChange((change) => this.follow(change));
  }

  /** Loads the index now rather than on the first search (e.g. while the user types). */
  ready(): Promise<TextIndex<HistoryDocMeta>> {
    if (this.index) return Promise.resolve(this.index);
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(): Promise<TextIndex<HistoryDocMeta>> {
    const index = new TextIndex<HistoryDocMeta>();
    // toArray reads with getAll, one request per table: a cursor (each()) costs a round trip per row.
    for (const row of await this.db.messages.toArray()) index.upsert(messageDoc(row));
    for (const step of await this.db.steps.toArray()) index.upsert(stepDoc(step));
    this.index = index;
    return index;
  }

  private follow(change: RowChange): void {
    const index = this.index;
    if (!index || (change.table !== 'messages' && change.table !== 'steps')) return;
    const prefix = change.table === 'messages' ? 'm:' : 's:';
    switch (change.type) {
      case 'put':
        // A big batch (an import) is cheaper to take in with the next full load than row by row.
        if (change.values.length > REBUILD_AFTER) this.index = undefined;
        else for (const value of change.values) index.upsert(change.table === 'messages' ? messageDoc(value as MessageRow) : stepDoc(value as AgentStep));
        return;
      case 'delete':
        for (const key of change.keys) index.remove(`${prefix}${String(key)}`);
        return;
      case 'clear':
        index.removeWhere((meta) => meta.kind === (change.table === 'messages' ? 'message' : 'step'));
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
  async related(query: Query, exclude: string | undefined, limit: number): Promise<Ranked<HistoryDocMeta>[]> {
    return (await this.ready()).search(query, {
      mode: 'any',
      minTerms: 2,
      limit,
      filter: (meta) => meta.kind === 'message' && meta.conversationId !== exclude && !meta.forgotten,
    });
  }

  private async hits(ranked: Ranked<HistoryDocMeta>[], query: Query): Promise<SearchHit[]> {
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
