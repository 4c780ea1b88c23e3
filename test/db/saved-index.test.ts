import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { joinIndex, packHead, SavedIndex, splitIndex, unpackHead } from '../../src/db/saved-index';
import { parseQuery, TextIndex } from '../../src/db/text-index';

/** A value's size in the structured clone format (V8's, as Chromium stores it in IndexedDB). */
const v8Size = (value: unknown) => serialize(value).length;

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

/** The saved copy, searched with every shard a query needs, its hits named with the key pieces they need. */
function savedSearch(saved: SavedIndex, { shards, keys }: ReturnType<typeof splitIndex>, text: string, mode: 'all' | 'any', minTerms?: number) {
  const query = parseQuery(text);
  for (const shard of saved.shardsToRead(query)) saved.addShard(shard, shards[shard]!);
  const ranked = saved.search(query, { mode, limit: 100, ...(minTerms ? { minTerms } : {}) });
  for (const piece of saved.keyPiecesToRead(ranked)) saved.addKeys(piece, keys[piece]!);
  return saved.keyed(ranked);
}

describe('the search index saved in pieces', () => {
  it('cuts into several shards and joins back into the same index', () => {
    const index = orchard();
    const split = splitIndex(index.save(), { shardNumbers: 16, keysPerPiece: 7 });
    expect(split.shards.length).toBeGreaterThan(4);
    expect(split.keys.length).toBe(9);
    const back = TextIndex.load(joinIndex(split));
    for (const text of ['apple', 'lemon lime', 'ap', 'pie 12 ']) {
      expect(back.search(parseQuery(text), { mode: 'all', limit: 100 })).toEqual(index.search(parseQuery(text), { mode: 'all', limit: 100 }));
    }
  });

  it('ranks from its shards exactly as the index in memory does, prefixes and partial matches too', () => {
    const index = orchard();
    const split = splitIndex(index.save(), { shardNumbers: 16, keysPerPiece: 7 });
    for (const [text, mode, minTerms] of [['grape', 'all'], ['apple hazel ', 'all'], ['ba', 'all'], ['li', 'all'], ['fizz lemon banana ', 'any', 2], ['kiwi nothing ', 'any', 1]] as const) {
      const expected = index.search(parseQuery(text), { mode, limit: 100, ...(minTerms ? { minTerms } : {}) }).map(({ key, score }) => ({ key, score }));
      expect(savedSearch(new SavedIndex(split.head), split, text, mode, minTerms)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
    expect(savedSearch(new SavedIndex(split.head), split, 'm:4', 'all')).toEqual([]);
  });

  it('needs only the shards of the words asked for, and says so when one was not given', () => {
    const split = splitIndex(orchard().save(), { shardNumbers: 16 });
    const saved = new SavedIndex(split.head);
    const wanted = saved.shardsToRead(parseQuery('cherry'));
    expect(wanted).toHaveLength(1);
    expect(() => saved.search(parseQuery('cherry'), { mode: 'all', limit: 5 })).toThrow(/not read/);
    saved.addShard(wanted[0]!, split.shards[wanted[0]!]!);
    expect(saved.search(parseQuery('cherry'), { mode: 'all', limit: 5 }).length).toBeGreaterThan(0);
    // A shard read once is kept: searching its words again reads nothing more.
    expect(saved.shardsToRead(parseQuery('cherry'))).toEqual([]);
    expect(saved.shardsToRead(parseQuery('cherry apple '))).toHaveLength(1);
  });

  it('names its hits from the key pieces they fall in, and says so when one was not given', () => {
    const split = splitIndex(orchard().save(), { shardNumbers: 16, keysPerPiece: 7 });
    const saved = new SavedIndex(split.head);
    saved.shardsToRead(parseQuery('grape')).forEach((shard) => saved.addShard(shard, split.shards[shard]!));
    const ranked = saved.search(parseQuery('grape'), { mode: 'all', limit: 3 });
    const pieces = saved.keyPiecesToRead(ranked);
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.length).toBeLessThanOrEqual(3);
    expect(() => saved.keyed(ranked)).toThrow(/not read/);
    for (const piece of pieces) saved.addKeys(piece, split.keys[piece]!);
    expect(saved.keyPiecesToRead(ranked)).toEqual([]);
    expect(saved.keyed(ranked).map((hit) => hit.key)).toEqual(orchard().search(parseQuery('grape'), { mode: 'all', limit: 3 }).map((hit) => hit.key));
  });

  it('keeps a group with each key when asked, so a hit tells what it belongs to before its row is read', () => {
    const index = orchard();
    const split = splitIndex(index.save(), { keysPerPiece: 7, groupOf: (meta) => `pie-${meta.n % 3}` });
    const saved = new SavedIndex(split.head);
    saved.shardsToRead(parseQuery('lemon')).forEach((shard) => saved.addShard(shard, split.shards[shard]!));
    const ranked = saved.search(parseQuery('lemon'), { mode: 'all', limit: 100 });
    saved.keyPiecesToRead(ranked).forEach((piece) => saved.addKeys(piece, split.keys[piece]!));
    const expected = index.search(parseQuery('lemon'), { mode: 'all', limit: 100 });
    expect(saved.keyed(ranked).map(({ key, group }) => [key, group])).toEqual(expected.map((hit) => [hit.key, `pie-${hit.meta.n % 3}`]));
    expect(new Set(expected.map((hit) => hit.meta.n % 3)).size).toBe(3);
  });

  it('saves and searches an empty index', () => {
    const split = splitIndex(new TextIndex<never>().save());
    expect(savedSearch(new SavedIndex(split.head), split, 'apple', 'all')).toEqual([]);
    expect(TextIndex.load(joinIndex(split)).size).toBe(0);
  });

  it('stores its head in parts under 64 kB, and takes back only a whole head of its own format', () => {
    const words = Array.from({ length: 30_000 }, (_, i) => `${'ł'.repeat(20)}${i.toString(36)}`);
    const index = new TextIndex<{ n: number }>();
    for (let n = 0; n < 40_000; n++) index.upsert({ key: `m:${n}`, text: `${words[n % words.length]} ${words[(n * 7) % words.length]}`, meta: { n } });
    const { head } = splitIndex(index.save());
    const stored = packHead(head);
    const serialized = (value: unknown) => v8Size(value);
    expect(stored.parts.length).toBeGreaterThan(4);
    for (const part of stored.parts) expect(serialized(part)).toBeLessThan(64 * 1024);
    expect(serialized(stored.record)).toBeLessThan(64 * 1024);
    expect(unpackHead(stored.record, stored.parts)).toEqual(head);
    // A part missing, a part of the wrong kind, or a head of the format before (keys in the head): rebuilt, not misread.
    expect(unpackHead(stored.record, stored.parts.slice(1))).toBeUndefined();
    expect(unpackHead(stored.record, [...stored.parts.slice(1), stored.parts[0]])).toBeUndefined();
    expect(unpackHead({ format: 3, keyText: '', keyEnds: new Uint32Array(), lengths: new Uint32Array(), terms: [], shardStarts: new Uint32Array([0]), keysPerPiece: 256 }, [])).toBeUndefined();
    expect(unpackHead(null, [])).toBeUndefined();
  });
});
