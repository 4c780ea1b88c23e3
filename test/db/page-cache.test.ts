import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/db/conversations';
import { JawadDatabase } from '../../src/db/database';
import { PAGE_CACHE_LIMITS, PageCache } from '../../src/db/page-cache';
import type { PageContent } from '../../src/protocol';

let db: JawadDatabase;
let cache: PageCache;
let clock = 0;

const page = (n: number, extra: Partial<PageContent> = {}): PageContent => ({ title: `Page ${n}`, url: `https://shop.test/p/${n}`, markdown: `text ${n}`, truncated: false, product: null, interactiveElements: [], ...extra });

beforeEach(() => {
  db = new JawadDatabase(`pages-${crypto.randomUUID()}`);
  cache = new PageCache(db, () => ++clock);
});
afterEach(async () => {
  await db.delete();
});

describe('PageCache', () => {
  it('returns a page by address, the latest page, and the latest product seen', async () => {
    await cache.cachePageSnapshot(page(1, { product: { name: 'Boot', price: '120', sources: ['json-ld'] } }), 'https://shop.test');
    await cache.cachePageSnapshot(page(2), 'https://shop.test');
    expect((await cache.getCachedSnapshot('https://shop.test/p/1'))!.title).toBe('Page 1');
    expect((await cache.getCachedSnapshot())!.url).toBe('https://shop.test/p/2');
    expect(await cache.getLastProductContext()).toMatchObject({ name: 'Boot', price: '120', url: 'https://shop.test/p/1' });
    expect((await cache.getRecentSnapshots(5)).map((p) => p.title)).toEqual(['Page 2', 'Page 1']);
  });

  it('stays bounded: the oldest pages go first, and each page text is cut', async () => {
    for (let n = 0; n < PAGE_CACHE_LIMITS.pages + 5; n++) await cache.cachePageSnapshot(page(n), 'https://shop.test');
    expect(await db.pages.count()).toBe(PAGE_CACHE_LIMITS.pages);
    expect(await cache.getCachedSnapshot('https://shop.test/p/0')).toBeUndefined();
    await cache.cachePageSnapshot(page(999, { markdown: 'x'.repeat(PAGE_CACHE_LIMITS.charsPerPage * 2) }), 'https://shop.test');
    expect((await cache.getCachedSnapshot('https://shop.test/p/999'))!.markdown).toHaveLength(PAGE_CACHE_LIMITS.charsPerPage);
  });

  it('is cleared with history', async () => {
    await cache.cachePageSnapshot(page(1), 'https://shop.test');
    await new ConversationStore(db).clear();
    expect(await cache.getRecentSnapshots()).toEqual([]);
  });
});
