/**
 * A small in-memory full-text index with BM25 ranking, for history search and memory retrieval.
 * Pure: no IndexedDB here (search-index.ts feeds it from the database and keeps it current).
 *
 * Why not IndexedDB multiEntry indexes: measured in Chromium on this project's machines, writing
 * 100k messages with their word lists took ~2 minutes and reading one common word's postings
 * ~0.8 s. Why not MiniSearch: 100k messages took 16 s to index and 52 MB of JSON to persist.
 * Postings as plain arrays of document numbers build in about a second and answer in milliseconds.
 */

/** Words too common to say anything about a document (English, French, Arabic transliterated). */
const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have he her his i if in into is it its me my no not of on or our she so that the their them then there these they this to was we were what when which who will with you your le la les de des du un une et est en au aux ce qui que'.split(' '),
);
const WORD = /[\p{L}\p{N}]+/gu;
const MAX_WORD = 40;

/** Lower case without accents: "Café" and "cafe" are the same word. */
export function normalizeWord(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a text worth indexing, in order, with repeats. */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  // One normalization for the whole text: per word, it was most of the indexing time.
  for (const match of normalizeWord(text).matchAll(WORD)) {
    const word = match[0];
    if (word.length < 2 || word.length > MAX_WORD || STOP_WORDS.has(word)) continue;
    words.push(word);
  }
  return words;
}

export interface Query {
  terms: string[];
  /** The last word as typed may be unfinished: it also matches longer words it starts. */
  prefix: boolean;
}

/** A search box's text as terms; the last one counts as a prefix unless a space follows it. */
export function parseQuery(text: string): Query {
  const terms = [...new Set(tokenize(text))];
  return { terms, prefix: terms.length > 0 && !/\s$/.test(text) };
}

export interface IndexedDoc<M> {
  key: string;
  text: string;
  meta: M;
}

export interface Ranked<M> {
  key: string;
  score: number;
  meta: M;
}

export interface SearchOptions<M> {
  /** all: every term must match (a search box) · any: the more terms the better (memory). */
  mode: 'all' | 'any';
  limit: number;
  filter?: (meta: M) => boolean;
  /** mode any: how many of the query's words a document must contain at least. */
  minTerms?: number;
}

const K1 = 1.2;
const B = 0.75;

/**
 * A document as the index keeps it: not its text (the database has it; the index holds tens of
 * megabytes less), only a hash to tell whether a rewrite changed it.
 */
interface Slot<M> {
  key: string;
  meta: M;
  length: number;
  hash: number;
}

/** A TextIndex as saved: flat typed arrays, which IndexedDB stores and reads back as fast as a copy. */
export interface TextIndexData<M> {
  keys: string[];
  metas: M[];
  lengths: Uint32Array;
  hashes: Uint32Array;
  terms: string[];
  /** Sorted; term i's postings are postings[offsets[i]…offsets[i + 1]). */
  offsets: Uint32Array;
  postings: Uint32Array;
}

/** FNV-1a over the text's UTF-16 units. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * Documents in numbered slots; postings map each term to `[slot, frequency, slot, frequency, …]`
 * (flat numbers: 100k messages must fit a service worker's memory). A removed or rewritten
 * document leaves a hole that searches skip and drop from the postings they walk.
 */
export class TextIndex<M> {
  private readonly slots: (Slot<M> | undefined)[] = [];
  private readonly slotOf = new Map<string, number>();
  /** A list read from a snapshot stays a typed array until a document is added to it. */
  private readonly postings = new Map<string, number[] | Uint32Array>();
  private totalLength = 0;
  private sortedTerms: string[] | undefined;

  get size(): number {
    return this.slotOf.size;
  }

  has(key: string): boolean {
    return this.slotOf.has(key);
  }

  upsert(doc: IndexedDoc<M>): void {
    const existing = this.slotOf.get(doc.key);
    const hash = hashOf(doc.text);
    if (existing !== undefined && this.slots[existing]!.hash === hash) {
      this.slots[existing]!.meta = doc.meta;
      return;
    }
    this.remove(doc.key);
    const words = tokenize(doc.text);
    const slot = this.slots.length;
    this.slots.push({ key: doc.key, meta: doc.meta, length: words.length, hash });
    this.slotOf.set(doc.key, slot);
    this.totalLength += words.length;
    // Sorted, equal words are neighbours: their run length is the term frequency (no Map per document).
    words.sort();
    for (let i = 0; i < words.length; ) {
      const term = words[i]!;
      let end = i + 1;
      while (end < words.length && words[end] === term) end++;
      let list = this.postings.get(term);
      if (!list || !Array.isArray(list)) {
        if (!list) this.sortedTerms = undefined;
        list = list ? Array.from(list) : [];
        this.postings.set(term, list);
      }
      list.push(slot, end - i);
      i = end;
    }
  }

  remove(key: string): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return;
    this.totalLength -= this.slots[slot]!.length;
    this.slots[slot] = undefined;
    this.slotOf.delete(key);
  }

  removeWhere(predicate: (meta: M) => boolean): void {
    for (const [key, slot] of this.slotOf) if (predicate(this.slots[slot]!.meta)) this.remove(key);
  }

  meta(key: string): M | undefined {
    const slot = this.slotOf.get(key);
    return slot === undefined ? undefined : this.slots[slot]!.meta;
  }

  /** The index as flat arrays, holes dropped and documents renumbered. */
  save(): TextIndexData<M> {
    const renumbered = new Int32Array(this.slots.length).fill(-1);
    const live: Slot<M>[] = [];
    this.slots.forEach((slot, i) => {
      if (!slot) return;
      renumbered[i] = live.length;
      live.push(slot);
    });
    // Sized first, then filled: one typed array, no 7-million-element intermediate list.
    let size = 0;
    for (const list of this.postings.values()) size += list.length;
    const postings = new Uint32Array(size);
    const terms: string[] = [];
    const offsets = new Uint32Array(this.postings.size + 1);
    let end = 0;
    // Sorted, so a saved index can be cut into shards of neighbouring terms (saved-index.ts).
    for (const term of this.termsInOrder()) {
      const list = this.postings.get(term)!;
      const start = end;
      for (let i = 0; i < list.length; i += 2) {
        const slot = renumbered[list[i]!]!;
        if (slot < 0) continue;
        postings[end++] = slot;
        postings[end++] = list[i + 1]!;
      }
      if (end === start) continue;
      terms.push(term);
      offsets[terms.length] = end;
    }
    return {
      keys: live.map((slot) => slot.key),
      metas: live.map((slot) => slot.meta),
      lengths: Uint32Array.from(live, (slot) => slot.length),
      hashes: Uint32Array.from(live, (slot) => slot.hash),
      terms,
      offsets: offsets.slice(0, terms.length + 1),
      postings: postings.slice(0, end),
    };
  }

  /** An index as `save` left it. */
  static load<M>(data: TextIndexData<M>): TextIndex<M> {
    const index = new TextIndex<M>();
    data.keys.forEach((key, i) => {
      index.slots.push({ key, meta: data.metas[i]!, length: data.lengths[i]!, hash: data.hashes[i]! });
      index.slotOf.set(key, i);
      index.totalLength += data.lengths[i]!;
    });
    data.terms.forEach((term, i) => index.postings.set(term, data.postings.subarray(data.offsets[i]!, data.offsets[i + 1]!)));
    return index;
  }

  /** The indexed terms a query word stands for: itself, or every term it starts when a prefix. */
  private expand(term: string, prefix: boolean): string[] {
    if (!prefix) return this.postings.has(term) ? [term] : [];
    return termsStarting(this.termsInOrder(), term);
  }

  /** Every term, sorted; kept until a new term comes (terms are never removed). */
  private termsInOrder(): string[] {
    return (this.sortedTerms ??= [...this.postings.keys()].sort());
  }

  /** The term's postings without holes (compacted in place when it had some). */
  private livePostings(term: string): number[] | Uint32Array {
    const list = this.postings.get(term)!;
    let holes = false;
    for (let i = 0; i < list.length && !holes; i += 2) holes = this.slots[list[i]!] === undefined;
    if (!holes) return list;
    const live: number[] = [];
    for (let i = 0; i < list.length; i += 2) if (this.slots[list[i]!]) live.push(list[i]!, list[i + 1]!);
    this.postings.set(term, live);
    return live;
  }

  search(query: Query, options: SearchOptions<M>): Ranked<M>[] {
    if (query.terms.length === 0 || this.size === 0) return [];
    const groups = query.terms.map((term, i) => this.expand(term, query.prefix && i === query.terms.length - 1));
    if (options.mode === 'all' && groups.some((group) => group.length === 0)) return [];
    const scored = scoreSlots(
      groups.map((group) => group.map((term) => this.livePostings(term))),
      { count: this.size, slots: this.slots.length, totalLength: this.totalLength, lengthOf: (slot) => this.slots[slot]!.length },
      neededTerms(options, groups.length),
    );
    const { filter } = options;
    return bestSlots(scored, options.limit, filter && ((slot) => filter(this.slots[slot]!.meta))).map((slot) => {
      const { key, meta } = this.slots[slot]!;
      return { key, score: scored.scores[slot]!, meta };
    });
  }
}

/** Where `value` is, or would go, in a sorted list. */
export function lowerBound(sorted: ArrayLike<string | number>, value: string | number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Every term of a sorted list that starts with `start`. */
export function termsStarting(sorted: readonly string[], start: string): string[] {
  const found: string[] = [];
  for (let i = lowerBound(sorted, start); i < sorted.length && sorted[i]!.startsWith(start); i++) found.push(sorted[i]!);
  return found;
}

/** How many of the query's word groups a document must match. */
export function neededTerms(options: Pick<SearchOptions<unknown>, 'mode' | 'minTerms'>, groups: number): number {
  return options.mode === 'all' ? groups : Math.min(options.minTerms ?? 1, groups);
}

export interface Collection {
  /** Documents in the index (for the terms' rarity). */
  count: number;
  /** One past the highest slot a posting may name. */
  slots: number;
  totalLength: number;
  lengthOf(slot: number): number;
}

/** Documents' scores by slot; `slots` lists those that matched enough of the query. */
export interface Scored {
  slots: number[];
  scores: Float64Array;
}

/**
 * BM25 over postings lists (`[slot, frequency, …]`), one list per term, the terms grouped by the
 * query word they stand for: each document matching at least `needed` groups, with its score.
 * Typed arrays by slot, not maps: a common word has tens of thousands of postings, and the first
 * search of a new background runs this code cold.
 */
export function scoreSlots(groups: ArrayLike<number>[][], collection: Collection, needed: number): Scored {
  const scores = new Float64Array(collection.slots);
  const matched = new Uint16Array(collection.slots);
  /** The last group (1-based) that counted for the slot: a prefix's terms count once. */
  const countedIn = new Uint16Array(collection.slots);
  const touched: number[] = [];
  const averageLength = collection.totalLength / collection.count || 1;
  groups.forEach((group, index) => {
    const mark = index + 1;
    for (const list of group) {
      const frequency = list.length / 2;
      const idf = Math.log(1 + (collection.count - frequency + 0.5) / (frequency + 0.5));
      for (let i = 0; i < list.length; i += 2) {
        const slot = list[i]!;
        const tf = list[i + 1]!;
        // Never 0 once scored (idf > 0): the first score marks the slot touched.
        if (scores[slot] === 0) touched.push(slot);
        scores[slot] = scores[slot]! + (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * collection.lengthOf(slot)) / averageLength));
        if (countedIn[slot] !== mark) {
          countedIn[slot] = mark;
          matched[slot] = matched[slot]! + 1;
        }
      }
    }
  });
  return { slots: needed > 1 ? touched.filter((slot) => matched[slot]! >= needed) : touched, scores };
}

/** The best `limit` slots that `accept` takes, best first (ties: the lower slot, as written first). */
export function bestSlots({ slots, scores }: Scored, limit: number, accept: (slot: number) => boolean = () => true): number[] {
  const better = (a: number, b: number) => scores[b]! - scores[a]! || a - b;
  if (!Number.isFinite(limit) || limit >= slots.length) return slots.filter(accept).sort(better);
  // Kept sorted and at most `limit` long: most slots score below the worst kept and cost one comparison.
  const best: number[] = [];
  for (const slot of slots) {
    if (best.length === limit && better(slot, best[limit - 1]!) >= 0) continue;
    if (!accept(slot)) continue;
    let at = best.length;
    while (at > 0 && better(slot, best[at - 1]!) < 0) at--;
    best.splice(at, 0, slot);
    if (best.length > limit) best.pop();
  }
  return best;
}

export interface Snippet {
  text: string;
  /** [start, end) of each matched word in `text`, for highlighting. */
  marks: [number, number][];
}

/**
 * A window of the text around its first match, with every matched word marked. Offsets are into
 * the original text (accents and case kept), found by normalizing word by word.
 */
export function snippet(text: string, query: Query, width = 160): Snippet {
  const last = query.terms.length - 1;
  const matches = (word: string) => {
    const normal = normalizeWord(word);
    return query.terms.some((term, i) => normal === term || (query.prefix && i === last && normal.startsWith(term)));
  };
  const all: [number, number][] = [];
  for (const match of text.matchAll(WORD)) {
    if (matches(match[0])) all.push([match.index, match.index + match[0].length]);
  }
  const first = all[0]?.[0] ?? 0;
  let start = Math.max(0, first - Math.floor(width / 3));
  if (start > 0) {
    const space = text.lastIndexOf(' ', start);
    start = space > first - width / 2 ? space + 1 : start;
  }
  const end = Math.min(text.length, start + width);
  const prefix = start > 0 ? '…' : '';
  const suffix = end < text.length ? '…' : '';
  const shift = prefix.length - start;
  const marks = all.filter(([s, e]) => s >= start && e <= end).map(([s, e]): [number, number] => [s + shift, e + shift]);
  return { text: `${prefix}${text.slice(start, end).replace(/\s+/g, ' ')}${suffix}`, marks: collapseWhitespaceMarks(text.slice(start, end), marks, prefix.length) };
}

/** Marks computed on the raw slice, moved to where they land once runs of whitespace become one space. */
function collapseWhitespaceMarks(raw: string, marks: [number, number][], offset: number): [number, number][] {
  if (!/\s\s|[\t\n\r]/.test(raw)) return marks;
  const map: number[] = [];
  let out = 0;
  for (let i = 0; i < raw.length; i++) {
    map[i] = out;
    if (!(/\s/.test(raw[i]!) && i > 0 && /\s/.test(raw[i - 1]!))) out++;
  }
  map[raw.length] = out;
  return marks.map(([s, e]) => [map[s - offset]! + offset, map[e - offset]! + offset]);
}
