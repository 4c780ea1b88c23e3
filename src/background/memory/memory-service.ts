import { JawadError, type Memory, type PageContent, type UsedContext } from '../../protocol';
import type { JawadDatabase } from '../../db/database';
import type { PageCache } from '../../db/page-cache';
import type { SearchIndex } from '../../db/search-index';
import { parseQuery, TextIndex } from '../../db/text-index';
import { sameSite, siteOf } from '../harbor/site';
import { excerpt, recallBlock } from './recall';

const MEMORIES_RECALLED = 3;
const MESSAGES_RECALLED = 3;
/** Product pages read before, newest first, looked through for one that may be offered on this site. */
const PRODUCTS_LOOKED_AT = 20;
/** A past message is given to the model up to this long. */
const MESSAGE_CHARS = 1_000;

export interface MemoryDeps {
  db: JawadDatabase;
  search: SearchIndex;
  /** The address of the tab the question is asked in (page memories are offered only on their site). */
  activeUrl: (windowId?: number) => Promise<string | undefined>;
  /** Where every page read is kept (seed 003), memory on or off. */
  pageCache?: PageCache;
  now?: () => number;
  newId?: () => string;
}

export interface Recalled {
  /** What to put before the user's turn ('' when nothing). */
  block: string;
  used: UsedContext[];
}

const NOTHING: Recalled = { block: '', used: [] };

/** Product facts of a page, in one line ("Trail shoe — 89.00 EUR, brand Acme, rating 4.5"). */
function productFacts(page: PageContent): string | undefined {
  const product = page.product;
  if (!product?.name) return undefined;
  const price = product.price ? ` — ${product.price}${product.currency ? ` ${product.currency}` : ''}` : '';
  const extra = [product.brand && `brand ${product.brand}`, product.rating && `rating ${product.rating}`, product.availability].filter(Boolean).join(', ');
  return `Product “${product.name}”${price}${extra ? `, ${extra}` : ''} on “${page.title}” (${page.url})`;
}

/**
 * Memory (seed 000's relevant-memory retrieval): saved memories and past messages ranked by BM25
 * against the new question, with where each came from. Page memories stay on their site unless pinned.
 */
export class MemoryService {
  private index: TextIndex<Memory> | undefined;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: MemoryDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
    deps.db.onChange((change) => {
      if (change.table !== 'memories' || !this.index) return;
      if (change.type === 'put') for (const memory of change.values as Memory[]) this.index.upsert({ key: memory.id, text: memory.text, meta: memory });
      else if (change.type === 'delete') for (const key of change.keys) this.index.remove(String(key));
      else this.index = undefined;
    });
  }

  private async memoryIndex(): Promise<TextIndex<Memory>> {
    if (this.index) return this.index;
    const index = new TextIndex<Memory>();
    for (const memory of await this.deps.db.memories.toArray()) index.upsert({ key: memory.id, text: memory.text, meta: memory });
    return (this.index = index);
  }

  async enabled(): Promise<boolean> {
    const row = await this.deps.db.settings.get('memory');
    return row?.key === 'memory' ? row.value.enabled : true;
  }

  async setEnabled(enabled: boolean): Promise<void> {
    await this.deps.db.settings.put({ key: 'memory', value: { enabled } });
  }

  list(): Promise<Memory[]> {
    return this.deps.db.memories.orderBy('updatedAt').reverse().toArray();
  }

  async save(change: { id?: string | undefined; text: string; pinned: boolean }): Promise<void> {
    const now = this.now();
    if (change.id) {
      const updated = await this.deps.db.memories.update(change.id, { text: change.text, pinned: change.pinned, updatedAt: now });
      if (!updated) throw new JawadError('NOT_FOUND', 'That memory no longer exists.');
      return;
    }
    await this.deps.db.memories.add({ id: this.newId(), text: change.text, source: 'user', pinned: change.pinned, createdAt: now, updatedAt: now });
  }

  /** A memory is deleted; a past message stays in its conversation but out of recall. */
  async forget(kind: 'memory' | 'message', id: string): Promise<void> {
    if (kind === 'memory') await this.deps.db.memories.delete(id);
    else await this.deps.db.messages.update(id, { forgotten: true });
  }

  /** Caches the page, and keeps its product facts as a page memory (one per address, refreshed on each read). */
  async rememberPage(page: PageContent): Promise<void> {
    const site = siteOf(page.url);
    if (site) await this.deps.pageCache?.cachePageSnapshot(page, site);
    const text = productFacts(page);
    if (!text || !site || !(await this.enabled())) return;
    const id = `page:${page.url}`.slice(0, 200);
    const existing = await this.deps.db.memories.get(id);
    const now = this.now();
    await this.deps.db.memories.put({ id, text: text.slice(0, 2_000), source: 'page', site, url: page.url.slice(0, 4_000), title: page.title.slice(0, 500), pinned: existing?.pinned ?? false, createdAt: existing?.createdAt ?? now, updatedAt: now });
  }

  /** The product page read most recently before `url` that may be offered here (its page memory, which the user may edit or forget). */
  private async productBefore(url: string, offerable: (memory: Memory) => Promise<boolean>): Promise<Memory | undefined> {
    const recent = await this.deps.db.memories
      .orderBy('updatedAt')
      .reverse()
      .filter((memory) => memory.source === 'page' && memory.url !== url)
      .limit(PRODUCTS_LOOKED_AT)
      .toArray();
    for (const memory of recent) if (await offerable(memory)) return memory;
    return undefined;
  }

  /**
   * `page`: the page the question is asked about. On a product page, the product looked at before
   * (seed 003's "compare with the product I looked at before") is offered whatever the question's
   * words, under the same rule as every page memory: from this site, or pinned.
   */
  async recall(question: string, conversationId: string | undefined, windowId?: number, page?: PageContent): Promise<Recalled> {
    if (!(await this.enabled())) return NOTHING;
    const query = parseQuery(`${question} `);
    if (query.terms.length === 0) return NOTHING;
    let site: string | undefined = page && siteOf(page.url);
    const here = async () => (site ??= siteOf((await this.deps.activeUrl(windowId).catch(() => undefined)) ?? ''));
    const offerable = async (memory: Memory) => memory.source !== 'page' || memory.pinned || sameSite(memory.site ?? '', await here());
    const before = page?.product ? await this.productBefore(page.url, offerable) : undefined;
    const offered: Memory[] = before ? [before] : [];
    for (const { meta } of (await this.memoryIndex()).search(query, { mode: 'any', limit: MEMORIES_RECALLED * 3 })) {
      if (offered.length === MEMORIES_RECALLED) break;
      if (meta.id !== before?.id && (await offerable(meta))) offered.push(meta);
    }
    const messages = await this.deps.search.related(query, conversationId, MESSAGES_RECALLED);
    const titles = new Map((await this.deps.db.conversations.bulkGet(messages.map((m) => m.meta.conversationId))).filter((c) => c !== undefined).map((c) => [c.id, c.title]));
    const full = new Map<string, string>();
    const used: UsedContext[] = [
      ...offered.map((memory): UsedContext => {
        full.set(memory.id, memory.text);
        return { kind: 'memory', id: memory.id, text: excerpt(memory.text), source: memory.source, createdAt: memory.updatedAt, ...(memory.site ? { site: memory.site } : {}), ...(memory.url ? { url: memory.url } : {}), ...(memory.title ? { title: memory.title } : {}) };
      }),
      ...messages.map((hit): UsedContext => {
        full.set(hit.meta.messageId, excerpt(hit.text, MESSAGE_CHARS));
        return { kind: 'message', id: hit.meta.messageId, text: excerpt(hit.text), source: 'conversation', conversationId: hit.meta.conversationId, title: titles.get(hit.meta.conversationId) ?? '', createdAt: hit.meta.createdAt };
      }),
    ];
    return { block: recallBlock(used, full), used };
  }
}
