/**
 * The search index as saved, in pieces, so a background that just started can answer a search by
 * reading a few small pieces rather than the whole index. Read whole, 100k messages' index took
 * Firefox ~0.5 s (half of it the 120k documents' keys and metadata, a third the postings).
 *
 * - the head: every document's length, and the sorted terms with where each shard of them starts —
 *   what ranking needs, under a megabyte, stored in parts under 64 kB (packHead);
 * - shards: the postings of neighbouring terms, 32 kB each (a very common word's alone may be more)
 *   — a search reads those of its words (a prefix's terms are neighbours too), once;
 * - key pieces: the documents' keys, 256 to a piece — read after ranking, for the hits only (in the
 *   head, 100k messages' keys made it 5 MB, and reading it took 100–250 ms);
 * - the rest: what only a full load needs (documents' metadata and text hashes).
 *
 * Pure: search-index.ts stores the pieces and reads them back.
 */
import { bestSlots, lowerBound, neededTerms, scoreSlots, termsStarting, type Query, type SearchOptions, type TextIndexData } from './text-index';

/**
 * About this many numbers (4 bytes each: postings and the terms' offsets) go into one shard: 32 kB,
 * under the 64 kB above which Chromium stores a value as a blob file of its own
 * (IDBValueWrapper::kWrapThreshold). Reading one 1 MB shard took a restarted background 10–20 ms,
 * and memory's recall waits for one or two; a small one reads in a millisecond or two.
 */
const SHARD_NUMBERS = 1 << 13;
/** Documents' keys per piece: 256 keys of 38 characters (m: and a UUID) are 10 kB; a search reads one piece per hit at most. */
const KEYS_PER_PIECE = 256;

/** What ranking needs (stored in parts: StoredHead). */
export interface IndexHead {
  lengths: Uint32Array;
  terms: string[];
  /** Shard i holds terms[shardStarts[i]…shardStarts[i + 1]). */
  shardStarts: Uint32Array;
  /** Key piece i holds the keys of documents i × keysPerPiece onwards. */
  keysPerPiece: number;
}

export interface IndexShard {
  /** Its term j's postings are postings[offsets[j]…offsets[j + 1]). */
  offsets: Uint32Array;
  postings: Uint32Array;
}

/** Its document j's key is keyText[keyEnds[j - 1]…keyEnds[j]) (0 for the first). */
export interface KeyPiece {
  keyText: string;
  keyEnds: Uint32Array;
  /** Document j's group (a history document's conversation), when the index was split with groupOf. */
  groups?: string[];
}

export interface IndexRest<M> {
  metas: M[];
  hashes: Uint32Array;
}

export interface SplitIndex<M> {
  head: IndexHead;
  rest: IndexRest<M>;
  shards: IndexShard[];
  keys: KeyPiece[];
}

export interface SplitOptions<M> {
  /** Numbers per shard (tests make it small to get several). */
  shardNumbers?: number;
  keysPerPiece?: number;
  /** A group kept with each document's key, so that what a hit belongs to is known before its row is read. */
  groupOf?: (meta: M) => string;
}

/** Cuts a saved TextIndex into its head, rest, shards and key pieces. */
export function splitIndex<M>(data: TextIndexData<M>, { shardNumbers = SHARD_NUMBERS, keysPerPiece = KEYS_PER_PIECE, groupOf }: SplitOptions<M> = {}): SplitIndex<M> {
  const starts = [0];
  for (let term = 1; term < data.terms.length; term++) {
    const start = starts.at(-1)!;
    if (data.offsets[term]! - data.offsets[start]! + (term - start) >= shardNumbers) starts.push(term);
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
  const keys: KeyPiece[] = [];
  for (let first = 0; first < data.keys.length; first += keysPerPiece) {
    const piece = data.keys.slice(first, first + keysPerPiece);
    let end = 0;
    const groups = groupOf && data.metas.slice(first, first + keysPerPiece).map(groupOf);
    keys.push({ keyText: piece.join(''), keyEnds: Uint32Array.from(piece, (key) => (end += key.length)), ...(groups ? { groups } : {}) });
  }
  return {
    head: { lengths: data.lengths, terms: data.terms, shardStarts: Uint32Array.from(starts), keysPerPiece },
    rest: { metas: data.metas, hashes: data.hashes },
    shards,
    keys,
  };
}

const keyAt = ({ keyText, keyEnds }: KeyPiece, j: number): string => keyText.slice(keyEnds[j - 1] ?? 0, keyEnds[j]);
const keysOf = (piece: KeyPiece): string[] => Array.from(piece.keyEnds, (_, j) => keyAt(piece, j));

/** The whole index back from its pieces, as TextIndex.load takes it. */
export function joinIndex<M>({ head, rest, shards, keys }: SplitIndex<M>): TextIndexData<M> {
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
  return { keys: keys.flatMap(keysOf), metas: rest.metas, lengths: head.lengths, hashes: rest.hashes, terms: head.terms, offsets, postings };
}

/** How many key pieces a copy with this head has. */
export const keyPieceCount = (head: IndexHead): number => Math.ceil(head.lengths.length / head.keysPerPiece);

/**
 * The head as stored: its record, and its terms and lengths in parts under 64 kB, each stored inline
 * rather than as a blob file of its own, which Chromium reads through more hops: read as one
 * ~700 kB value, 100k messages' head took a sidebar 20–300 ms.
 */
export interface StoredHead {
  record: HeadRecord;
  parts: HeadPart[];
}

export interface HeadRecord {
  format: 4;
  shardStarts: Uint32Array;
  keysPerPiece: number;
  /** How many parts hold terms (the first ones) and lengths (the rest). */
  termParts: number;
  lengthParts: number;
}

export type HeadPart = { terms: string[] } | { lengths: Uint32Array };

/** Bytes per stored part at most (strings counted at two bytes a character). */
const PART_BYTES = 60_000;

export function packHead(head: IndexHead): StoredHead {
  const termParts: HeadPart[] = [];
  let part: string[] = [];
  let bytes = 0;
  for (const term of head.terms) {
    // Two bytes a character: a string with any character past Latin-1 is cloned as UTF-16.
    const size = 2 * term.length + 8;
    if (part.length > 0 && bytes + size > PART_BYTES) {
      termParts.push({ terms: part });
      part = [];
      bytes = 0;
    }
    part.push(term);
    bytes += size;
  }
  if (part.length > 0) termParts.push({ terms: part });
  const perPart = PART_BYTES / 4;
  const lengthParts: HeadPart[] = [];
  for (let first = 0; first < head.lengths.length; first += perPart) lengthParts.push({ lengths: head.lengths.slice(first, first + perPart) });
  return {
    record: { format: 4, shardStarts: head.shardStarts, keysPerPiece: head.keysPerPiece, termParts: termParts.length, lengthParts: lengthParts.length },
    parts: [...termParts, ...lengthParts],
  };
}

function isHeadRecord(value: unknown): value is HeadRecord {
  const record = value as Partial<HeadRecord> | null;
  return record?.format === 4 && record.shardStarts instanceof Uint32Array && Number.isInteger(record.keysPerPiece) && record.keysPerPiece! > 0 && Number.isInteger(record.termParts) && Number.isInteger(record.lengthParts);
}

/** The head back from what was read, or undefined when it is not one this code wrote whole (an older format, a part missing). */
export function unpackHead(record: unknown, parts: unknown[]): IndexHead | undefined {
  if (!isHeadRecord(record) || parts.length !== record.termParts + record.lengthParts) return undefined;
  const terms = parts.slice(0, record.termParts) as Array<Partial<{ terms: string[] }>>;
  const lengths = parts.slice(record.termParts) as Array<Partial<{ lengths: Uint32Array }>>;
  if (!terms.every((part) => Array.isArray(part?.terms)) || !lengths.every((part) => part?.lengths instanceof Uint32Array)) return undefined;
  const all = new Uint32Array(lengths.reduce((sum, part) => sum + part.lengths!.length, 0));
  let at = 0;
  for (const part of lengths) {
    all.set(part.lengths!, at);
    at += part.lengths!.length;
  }
  return { lengths: all, terms: terms.flatMap((part) => part.terms!), shardStarts: record.shardStarts, keysPerPiece: record.keysPerPiece };
}

/** A ranked document of a saved index: its key only (the rows hold the rest). */
export interface RankedKey {
  key: string;
  score: number;
  /** Its group, when the key piece or the index in memory tells it. */
  group?: string;
}

/** A ranked document of a saved index before its key is read: its number in the copy. */
export interface RankedSlot {
  slot: number;
  score: number;
}

/**
 * Searches a saved index, given the shards of the query's terms, and names what it found given their
 * key pieces (shardsToRead and keyPiecesToRead say which are still to read; what is read is kept).
 */
export class SavedIndex {
  private readonly shards = new Map<number, IndexShard>();
  private readonly keyPieces = new Map<number, KeyPiece>();
  private readonly totalLength: number;

  constructor(
    readonly head: IndexHead,
    /** Which save it is (absent when the copy has no stamp row): a piece is read only with it. */
    readonly stamp?: string,
  ) {
    this.totalLength = head.lengths.reduce((sum, length) => sum + length, 0);
  }

  /** Documents in the copy. */
  get size(): number {
    return this.head.lengths.length;
  }

  /** The shards holding the terms each query word stands for that have not been read yet (a read one is kept). */
  shardsToRead(query: Query): number[] {
    const shards = new Set<number>();
    for (const group of this.groups(query)) for (const term of group) shards.add(this.shardOf(this.termIndex(term)));
    return [...shards].filter((shard) => !this.shards.has(shard));
  }

  addShard(index: number, shard: IndexShard): void {
    this.shards.set(index, shard);
  }

  search(query: Query, options: Pick<SearchOptions<unknown>, 'mode' | 'minTerms' | 'limit'>): RankedSlot[] {
    const groups = this.groups(query);
    if (groups.length === 0 || (options.mode === 'all' && groups.some((group) => group.length === 0))) return [];
    const { lengths } = this.head;
    const scored = scoreSlots(
      groups.map((group) => group.map((term) => this.postings(term))),
      { count: lengths.length, slots: lengths.length, totalLength: this.totalLength, lengthOf: (slot) => lengths[slot]! },
      neededTerms(options, groups.length),
    );
    return bestSlots(scored, options.limit).map((slot) => ({ slot, score: scored.scores[slot]! }));
  }

  /** The key pieces naming these documents that have not been read yet. */
  keyPiecesToRead(ranked: RankedSlot[]): number[] {
    const pieces = new Set(ranked.map(({ slot }) => Math.floor(slot / this.head.keysPerPiece)));
    return [...pieces].filter((piece) => !this.keyPieces.has(piece));
  }

  addKeys(index: number, piece: KeyPiece): void {
    this.keyPieces.set(index, piece);
  }

  /** The ranked documents by key. */
  keyed(ranked: RankedSlot[]): RankedKey[] {
    return ranked.map(({ slot, score }) => {
      const index = Math.floor(slot / this.head.keysPerPiece);
      const piece = this.keyPieces.get(index);
      if (!piece) throw new Error(`The saved index's key piece ${index} was not read before naming its documents`);
      const j = slot - index * this.head.keysPerPiece;
      const group = piece.groups?.[j];
      return { key: keyAt(piece, j), score, ...(group === undefined ? {} : { group }) };
    });
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
