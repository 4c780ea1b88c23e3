/**
 * The page cache (seed 003): snapshots and product facts of recently read pages, for "compare with
 * the product I looked at before" and as memory. Bounded by count and by total text; cleared with
 * history. Page text is untrusted: whoever puts it in a prompt wraps it like any page content.
 */
import type { PageContent, Product } from '../protocol';
import type { CachedPage, JawadDatabase } from './database';

export const PAGE_CACHE_LIMITS = { pages: 100, chars: 2_000_000, charsPerPage: 20_000 } as const;

export class PageCache {
  constructor(
    private readonly db: JawadDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps the page (replacing an older read of the same address), then trims the oldest beyond the limits. */
  async cachePageSnapshot(page: PageContent, site: string): Promise<void> {
    const row: CachedPage = { url: page.url, site, title: page.title, markdown: page.markdown.slice(0, PAGE_CACHE_LIMITS.charsPerPage), product: page.product, visitedAt: this.now() };
    await this.db.transaction('rw', this.db.pages, async () => {
      await this.db.pages.put(row);
      const newest = await this.db.pages.orderBy('visitedAt').reverse().toArray();
      let chars = 0;
      const drop = newest.filter((cached, i) => (chars += cached.markdown.length) > PAGE_CACHE_LIMITS.chars || i >= PAGE_CACHE_LIMITS.pages).map((cached) => cached.url);
      await this.db.pages.bulkDelete(drop);
    });
  }

  /** That address's last read, or the most recent page when no address is given. */
  async getCachedSnapshot(url?: string): Promise<CachedPage | undefined> {
    return url ? this.db.pages.get(url) : this.db.pages.orderBy('visitedAt').last();
  }

  /** The product of the most recently read product page. */
  async getLastProductContext(): Promise<(Product & { url: string; title: string; visitedAt: number }) | undefined> {
    let found: CachedPage | undefined;
    await this.db.pages.orderBy('visitedAt').reverse().until(() => found !== undefined).each((page) => {
      if (page.product && !found) found = page;
    });
    return found?.product ? { ...found.product, url: found.url, title: found.title, visitedAt: found.visitedAt } : undefined;
  }

  getRecentSnapshots(limit = 10): Promise<CachedPage[]> {
    return this.db.pages.orderBy('visitedAt').reverse().limit(limit).toArray();
  }

  clear(): Promise<void> {
    return this.db.pages.clear();
  }
}
