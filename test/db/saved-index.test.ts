import { describe, expect, it } from 'vitest';
import { isIndexHead, joinIndex, SavedIndex, splitIndex } from '../../src/db/saved-index';
import { parseQuery, TextIndex } from '../../src/db/text-index';

const FRUIT = ['apple', 'apricot', 'banana', 'cherry', 'damson', 'elder', 'fig', 'grape', 'hazel', 'kiwi', 'lemon', 'lime'];

function orchard(): TextIndex<{ n: number }> {
  const index = new TextIndex<{ n: number }>();
  for (let n = 0; n < 60; n++) {
    const words = Array.from({ length: 2 + (n % 5) }, (_, i) => FRUIT[(n * 7 + i * 5) % FRUIT.length]);
    index.upsert({ key: `m:${n}`, text: `${words.join(' ')} pie number ${n}`, meta: { n } });
  }
  // A rewrite and a removal leave holes that a save must drop.
  index.upsert({ key: 'm:3', text: 'lemon lime fizz', meta: { n: 3 } });
  index.remove('m:4');
  return index;
}

/** The saved copy, searched with every shard a query needs. */
function savedSearch(saved: SavedIndex, shards: ReturnType<typeof splitIndex>['shards'], text: string, mode: 'all' | 'any', minTerms?: number) {
  const query = parseQuery(text);
  for (const shard of saved.shardsFor(query)) saved.addShard(shard, shards[shard]!);
  return saved.search(query, { mode, limit: 100, ...(minTerms ? { minTerms } : {}) });
}

describe('the search index saved in pieces', () => {
  it('cuts into several shards and joins back into the same index', () => {
    const index = orchard();
    const split = splitIndex(index.save(), 16);
    expect(split.shards.length).toBeGreaterThan(4);
    expect(isIndexHead(split.head)).toBe(true);
    const back = TextIndex.load(joinIndex(split));
    for (const text of ['apple', 'lemon lime', 'ap', 'pie 12 ']) {
      expect(back.search(parseQuery(text), { mode: 'all', limit: 100 })).toEqual(index.search(parseQuery(text), { mode: 'all', limit: 100 }));
    }
  });

  it('ranks from its shards exactly as the index in memory does, prefixes and partial matches too', () => {
    const index = orchard();
    const split = splitIndex(index.save(), 16);
    for (const [text, mode, minTerms] of [['grape', 'all'], ['apple hazel ', 'all'], ['ba', 'all'], ['li', 'all'], ['fizz lemon banana ', 'any', 2], ['kiwi nothing ', 'any', 1]] as const) {
      const expected = index.search(parseQuery(text), { mode, limit: 100, ...(minTerms ? { minTerms } : {}) }).map(({ key, score }) => ({ key, score }));
      expect(savedSearch(new SavedIndex(split.head), split.shards, text, mode, minTerms)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
    expect(savedSearch(new SavedIndex(split.head), split.shards, 'm:4', 'all')).toEqual([]);
  });

  it('needs only the shards of the words asked for, and says so when one was not given', () => {
    const split = splitIndex(orchard().save(), 16);
    const saved = new SavedIndex(split.head);
    const wanted = saved.shardsFor(parseQuery('cherry'));
    expect(wanted).toHaveLength(1);
    expect(() => saved.search(parseQuery('cherry'), { mode: 'all', limit: 5 })).toThrow(/not read/);
    saved.addShard(wanted[0]!, split.shards[wanted[0]!]!);
    expect(saved.search(parseQuery('cherry'), { mode: 'all', limit: 5 }).length).toBeGreaterThan(0);
  });

  it('saves and searches an empty index', () => {
    const split = splitIndex(new TextIndex<never>().save());
    expect(savedSearch(new SavedIndex(split.head), split.shards, 'apple', 'all')).toEqual([]);
    expect(TextIndex.load(joinIndex(split)).size).toBe(0);
  });

  it('does not take a head of another shape for one', () => {
    expect(isIndexHead({ keys: [], metas: [] })).toBe(false);
    expect(isIndexHead(null)).toBe(false);
  });
});
