/**
 * The search index as saved, in pieces, so a background that just started can answer a search by
 * reading a few small pieces rather than the whole index. Read whole, 100k messages' index took
 * Firefox ~0.5 s (half of it the 120k documents' keys and metadata, a third the postings).
 *
 * - the head: every document's key (one string) and length, and the sorted terms with where each
 *   shard of them starts — what ranking needs, a few megabytes;
 * - shards: the postings of neighbouring terms, about a megabyte each — a search reads those of its
 *   words (a prefix's terms are neighbours too);
 * - the rest: what only a full load needs (documents' metadata and text hashes).
 *
 * Pure: search-index.ts stores the pieces and reads them back.
 */
import { bestSlots, lowerBound, neededTerms, scoreSlots, termsStarting, type Query, type SearchOptions, type TextIndexData } from './text-index';

/** About this many posting numbers (4 bytes each) go into one shard. */
const SHARD_NUMBERS = 1 << 18;

export interface IndexHead {
  format: 2;
  /** Document i's key is keyText[keyEnds[i - 1]…keyEnds[i]) (0 for the first). */
  keyText: string;
  keyEnds: Uint32Array;
  lengths: Uint32Array;
  terms: string[];
  /** Shard i holds terms[shardStarts[i]…shardStarts[i + 1]). */
  shardStarts: Uint32Array;
}

export interface IndexShard {
  /** Its term j's postings are postings[offsets[j]…offsets[j + 1]). */
  offsets: Uint32Array;
  postings: Uint32Array;
}

export interface IndexRest<M> {
  metas: M[];
  hashes: Uint32Array;
}

export interface SplitIndex<M> {
  head: IndexHead;
  rest: IndexRest<M>;
  shards: IndexShard[];
}

/** Cuts a saved TextIndex into its head, rest and shards. */
export function splitIndex<M>(data: TextIndexData<M>, shardNumbers = SHARD_NUMBERS): SplitIndex<M> {
  const keyEnds = new Uint32Array(data.keys.length);
  let end = 0;
  data.keys.forEach((key, i) => (keyEnds[i] = end += key.length));
  const starts = [0];
  for (let term = 1; term < data.terms.length; term++) {
    if (data.offsets[term]! - data.offsets[starts.at(-1)!]! >= shardNumbers) starts.push(term);
  }
  starts.push(data.terms.length);
  const shards: IndexShard[] = [];
  for (let i = 0; i + 1 < starts.length; i++) {
    const base = data.offsets[starts[i]!]!;
    shards.push({
      offsets: data.offsets.slice(starts[i]!, starts[i + 1]! + 1).map((offset) => offset - base),
      postings: data.postings.slice(base, data.offsets[starts[i + 1]!]!),
    });
  }
  return {
    head: { format: 2, keyText: data.keys.join(''), keyEnds, lengths: data.lengths, terms: data.terms, shardStarts: Uint32Array.from(starts) },
    rest: { metas: data.metas, hashes: data.hashes },
    shards,
  };
}

/** The whole index back from its pieces, as TextIndex.load takes it. */
export function joinIndex<M>({ head, rest, shards }: SplitIndex<M>): TextIndexData<M> {
  const size = shards.reduce((sum, shard) => sum + shard.postings.length, 0);
  const postings = new Uint32Array(size);
  const offsets = new Uint32Array(head.terms.length + 1);
  let base = 0;
  shards.forEach((shard, i) => {
    postings.set(shard.postings, base);
    const first = head.shardStarts[i]!;
    for (let j = 1; j < shard.offsets.length; j++) offsets[first + j] = base + shard.offsets[j]!;
    base += shard.postings.length;
  });
  return {
    keys: Array.from(head.keyEnds, (end, i) => head.keyText.slice(head.keyEnds[i - 1] ?? 0, end)),
    metas: rest.metas,
    lengths: head.lengths,
    hashes: rest.hashes,
    terms: head.terms,
    offsets,
    postings,
  };
}

/** Whether a value read back from the database is a head this code wrote. */
export function isIndexHead(value: unknown): value is IndexHead {
  const head = value as Partial<IndexHead> | null;
  return head?.format === 2 && typeof head.keyText === 'string' && head.keyEnds instanceof Uint32Array && head.lengths instanceof Uint32Array && Array.isArray(head.terms) && head.shardStarts instanceof Uint32Array;
}

/** A ranked document of a saved index: its key only (the rows hold the rest). */
export interface RankedKey {
  key: string;
  score: number;
}

/** Searches a saved index, given the shards of the query's terms (shardsFor says which). */
export class SavedIndex {
  private readonly shards = new Map<number, IndexShard>();
  private readonly totalLength: number;

  constructor(readonly head: IndexHead) {
    this.totalLength = head.lengths.reduce((sum, length) => sum + length, 0);
  }

  /** Documents in the copy. */
  get size(): number {
    return this.head.lengths.length;
  }

  /** The shards holding the terms each query word stands for. */
  shardsFor(query: Query): number[] {
    const shards = new Set<number>();
    for (const group of this.groups(query)) for (const term of group) shards.add(this.shardOf(this.termIndex(term)));
    return [...shards];
  }

  addShard(index: number, shard: IndexShard): void {
    this.shards.set(index, shard);
  }

  search(query: Query, options: Pick<SearchOptions<unknown>, 'mode' | 'minTerms' | 'limit'>): RankedKey[] {
    const groups = this.groups(query);
    if (groups.length === 0 || (options.mode === 'all' && groups.some((group) => group.length === 0))) return [];
    const { lengths, keyText, keyEnds } = this.head;
    const scored = scoreSlots(
      groups.map((group) => group.map((term) => this.postings(term))),
      { count: lengths.length, slots: lengths.length, totalLength: this.totalLength, lengthOf: (slot) => lengths[slot]! },
      neededTerms(options, groups.length),
    );
    return bestSlots(scored, options.limit).map((slot) => ({ key: keyText.slice(keyEnds[slot - 1] ?? 0, keyEnds[slot]), score: scored.scores[slot]! }));
  }

  private groups(query: Query): string[][] {
    const last = query.terms.length - 1;
    return query.terms.map((term, i) => (query.prefix && i === last ? termsStarting(this.head.terms, term) : this.termIndex(term) >= 0 ? [term] : []));
  }

  private termIndex(term: string): number {
    const index = lowerBound(this.head.terms, term);
    return this.head.terms[index] === term ? index : -1;
  }

  /** The shard whose range of terms holds term `index`: the last one starting at or before it. */
  private shardOf(index: number): number {
    const starts = this.head.shardStarts;
    return Math.min(lowerBound(starts, index + 1), starts.length - 1) - 1;
  }

  private postings(term: string): Uint32Array {
    const index = this.termIndex(term);
    const shardIndex = this.shardOf(index);
    const shard = this.shards.get(shardIndex);
    if (!shard) throw new Error(`The saved index's shard ${shardIndex} was not read before searching`);
    const j = index - this.head.shardStarts[shardIndex]!;
    return shard.postings.subarray(shard.offsets[j]!, shard.offsets[j + 1]!);
  }
}
