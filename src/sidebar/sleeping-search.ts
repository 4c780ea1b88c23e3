/**
 * History search while the background sleeps. Every write to history is the background's, so while
 * it is stopped the saved copy of the search index (src/db/search-index.ts) is as current as the
 * rows, and the sidebar searches it itself instead of waking the background: starting the
 * background costs 100–250 ms before a search can even begin. Its code loads with the History view;
 * it opens the database when the background goes to sleep under the view, or the user types while
 * it sleeps, and holds the database and the copy until the view closes.
 *
 * Another window's sidebar may wake the background meanwhile: every search checks, in its first
 * read, that the copy it holds is still the saved one (its head is deleted at the first write after
 * a save, and a new save has a new stamp), and leaves the search to the background when none is.
 */
import type { SearchHit } from '../protocol';
import { JawadDatabase } from '../db/database';
import type { SavedIndex } from '../db/saved-index';
import { countRows, readSavedCopy, searchCopy, stillSaved } from '../db/search-index';

let db: JawadDatabase | undefined;
type StampedCopy = SavedIndex & { readonly stamp: string };
const isStamped = (view: SavedIndex | undefined): view is StampedCopy => view?.stamp !== undefined;

let copy: StampedCopy | undefined;
/** Copies found not to cover every row (a background stopped between a write and deleting the head). */
const distrusted = new Set<string>();
/** Copies whose rows have been counted, or are being. */
const checked = new Set<string>();

/** Opens the database and reads the copy's head: called as the user starts typing. */
export async function prepare(): Promise<void> {
  await current();
}

let reading: Promise<StampedCopy | undefined> | undefined;

/** The saved copy if it can answer: there, stamped, and not found short (one read at a time). */
function current(): Promise<StampedCopy | undefined> {
  return (reading ??= readCurrent().finally(() => (reading = undefined)));
}

async function readCurrent(): Promise<StampedCopy | undefined> {
  // Its own name for the connection: release() may let go of it meanwhile (the read then fails, and the background answers).
  const from = (db ??= new JawadDatabase());
  // A copy held already needs only its stamp checked; otherwise the head and stamp come in one read.
  if (copy && (await stillSaved(from, copy))) return copy;
  const view = await readSavedCopy(from);
  copy = isStamped(view) && !distrusted.has(view.stamp) ? view : undefined;
  return copy;
}

/**
 * The history view's hits for `text` from the saved copy, or undefined when there is none to trust
 * (the background answers then). `onShort` is called if the copy turns out not to cover every row,
 * after these hits were given: the background should answer again.
 */
export async function searchAsleep(text: string, onShort: () => void): Promise<SearchHit[] | undefined> {
  // A copy held is checked by the search's own first read (one round trip less); one found no
  // longer saved is let go, and whatever is saved now searched instead.
  let held = copy ?? (await current());
  let hits = held && db && (await searchCopy(db, held, text));
  if (held && !hits) {
    if (copy === held) copy = undefined;
    held = await current();
    hits = held && db && (await searchCopy(db, held, text));
  }
  if (!held || !hits || !db) return undefined;
  if (!checked.has(held.stamp)) void check(db, held.size, held.stamp, onShort);
  return hits;
}

/**
 * Counts the rows once per copy, after its first search (counting 100k rows takes a quarter of a
 * second): a complete copy has one document per message and step.
 */
async function check(from: JawadDatabase, documents: number, stamp: string, onShort: () => void): Promise<void> {
  checked.add(stamp);
  try {
    if ((await countRows(from)) === documents) return;
    distrusted.add(stamp);
    if (copy?.stamp === stamp) copy = undefined;
    onShort();
  } catch (error) {
    console.warn('Jawad: the saved search index was not checked against the rows', error);
  }
}

/** The History view closed: let go of the copy and the connection. */
export function release(): void {
  db?.close();
  db = undefined;
  copy = undefined;
}
