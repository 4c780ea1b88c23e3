import { describe, expect, it } from 'vitest';
import { bestSlots, parseQuery, snippet, TextIndex, tokenize } from '../../src/db/text-index';

function indexOf(docs: Record<string, string>): TextIndex<{ n: number }> {
  const index = new TextIndex<{ n: number }>();
  Object.entries(docs).forEach(([key, text], n) => index.upsert({ key, text, meta: { n } }));
  return index;
}

const keys = (index: TextIndex<{ n: number }>, query: string, mode: 'all' | 'any' = 'all') => index.search(parseQuery(query), { mode, limit: 10 }).map((hit) => hit.key);

describe('tokenize', () => {
  it('lower-cases, drops accents and stop words, keeps digits and non-Latin letters', () => {
    expect(tokenize('The Café in Zürich costs 42 CHF — قهوة')).toEqual(['cafe', 'zurich', 'costs', '42', 'chf', 'قهوة']);
  });
});

describe('TextIndex search', () => {
  it('finds only documents with every word, best match first', () => {
    const index = indexOf({
      a: 'The red jacket is on sale',
      b: 'A red jacket, a red scarf and a red hat: red everywhere',
      c: 'A blue jacket',
    });
    expect(keys(index, 'red jacket ')).toEqual(['b', 'a']);
  });

  it('ranks a rare word above a common one (BM25 idf)', () => {
    const index = indexOf({ a: 'invoice paid', b: 'paid paid', c: 'paid again', d: 'paid once more' });
    const [first] = index.search(parseQuery('invoice paid '), { mode: 'any', limit: 4 });
    expect(first!.key).toBe('a');
  });

  it('treats the last word being typed as a prefix', () => {
    const index = indexOf({ a: 'photosynthesis in plants', b: 'photographs of plants' });
    expect(keys(index, 'photos')).toEqual(['a']);
    expect(keys(index, 'photos ')).toEqual([]);
    expect(keys(index, 'plants pho').sort()).toEqual(['a', 'b']);
  });

  it('forgets removed and rewritten documents', () => {
    const index = indexOf({ a: 'old text about llamas', b: 'llamas again' });
    index.remove('b');
    index.upsert({ key: 'a', text: 'new text about alpacas', meta: { n: 0 } });
    expect(keys(index, 'llamas ')).toEqual([]);
    expect(keys(index, 'alpacas ')).toEqual(['a']);
    expect(index.size).toBe(1);
  });

  it('saves and loads back to the same ranking, holes dropped, and keeps working after loading', () => {
    const index = indexOf({ a: 'garden tools for the garden', b: 'garden chairs', c: 'kitchen chairs', d: 'gone garden' });
    index.remove('d');
    const ranked = (i: TextIndex<{ n: number }>, q: string) => i.search(parseQuery(q), { mode: 'any', limit: 10 }).map((hit) => [hit.key, hit.score.toFixed(6), hit.meta.n]);
    // Through a structured clone, as IndexedDB stores it.
    const loaded = TextIndex.load(structuredClone(index.save()));
    expect(loaded.size).toBe(3);
    expect(ranked(loaded, 'garden chairs ')).toEqual(ranked(index, 'garden chairs '));
    expect(keys(loaded, 'gone ')).toEqual([]);
    loaded.upsert({ key: 'e', text: 'garden hose', meta: { n: 4 } });
    loaded.upsert({ key: 'c', text: 'kitchen knives', meta: { n: 2 } });
    expect(keys(loaded, 'garden ')).toEqual(expect.arrayContaining(['a', 'b', 'e']));
    expect(keys(loaded, 'chairs ')).toEqual(['b']);
    expect(keys(loaded, 'kni')).toEqual(['c']);
  });

  it('filters by metadata and returns nothing for a query of stop words', () => {
    const index = indexOf({ a: 'garden tools', b: 'garden chairs' });
    expect(index.search(parseQuery('garden '), { mode: 'all', limit: 5, filter: (meta) => meta.n === 1 }).map((h) => h.key)).toEqual(['b']);
    expect(keys(index, 'the and of ')).toEqual([]);
  });
});

describe('bestSlots', () => {
  it('keeps the best few, best first, as a full sort would, skipping what the filter refuses', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const scores = new Float64Array(5_000).map(() => Math.round(random() * 500) / 10);
    const slots = Array.from({ length: 5_000 }, (_, slot) => slot).filter((slot) => scores[slot]! > 0);
    const even = (slot: number) => slot % 2 === 0;
    const sorted = slots.filter(even).sort((a, b) => scores[b]! - scores[a]! || a - b);
    expect(bestSlots({ slots, scores }, 25, even)).toEqual(sorted.slice(0, 25));
    expect(bestSlots({ slots, scores }, Number.POSITIVE_INFINITY, even)).toEqual(sorted);
  });
});

describe('snippet', () => {
  it('marks each matched word in the original text, accents and case kept', () => {
    const result = snippet('We met at the Café Zürich; the café was full.', parseQuery('cafe'));
    const marked = result.marks.map(([s, e]) => result.text.slice(s, e));
    expect(marked).toEqual(['Café', 'café']);
  });

  it('cuts long texts around the first match and keeps marks aligned after collapsing whitespace', () => {
    const text = `${'filler '.repeat(100)}the\n\n\n  invoice   number is 42 ${'tail '.repeat(100)}`;
    const result = snippet(text, parseQuery('invoice 42 '));
    expect(result.text.startsWith('…')).toBe(true);
    expect(result.text.endsWith('…')).toBe(true);
    expect(result.marks.map(([s, e]) => result.text.slice(s, e))).toEqual(['invoice', '42']);
  });
});
