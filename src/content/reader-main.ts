/**
 * Readability keeps the best-scoring block of a page and, before scoring, throws out blocks whose
 * class or id sounds like page furniture ("header", "meta", "menu"). On an app's page that can
 * cost what the user reads first: a webmail's open message is its subject, sender and date (in a
 * block marked "header") above the body, and Readability keeps the body alone; an article loses
 * its headline, its standfirst and its date. A page that marks its content with a main landmark
 * says what its content is: when that landmark holds Readability's pick and only a few lines more
 * up to the pick's end, the landmark is read up to there (what follows the pick in it, comments,
 * newsletters, related stories, stays out as Readability left it).
 */
import { asReadabilityLeftIt } from './reader-tables';

const MAIN_LANDMARK = 'main, [role="main"]';

/** How much more text than Readability's pick a main landmark may hold up to the pick's end and be read instead: a message's header lines, not a page of other stories. */
const MAIN_EXTRA_CHARS = 600;

/** How much of the pick's start and end is looked for in the landmark. */
const ENDS = 80;

const squeezed = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** A main landmark of the page's copy as it was before Readability took the copy apart. */
export interface Landmark {
  copy: Element;
  text: string;
}

/** The main landmarks of the page's copy, each copied aside (cheaper than copying the whole page again when one is read). */
export function mainLandmarks(doc: Document): Landmark[] {
  return Array.from(doc.querySelectorAll(MAIN_LANDMARK), (landmark) => ({ copy: landmark.cloneNode(true) as Element, text: landmark.textContent ?? '' }));
}

/** A pattern for `text` in a document's text, whose white space may run longer or across lines. */
const loosely = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));

/** Where in `text` the pick's end is, at or after its start; -1 where either is missing. */
export function pickEndIn(text: string, start: string, end: string): number {
  const from = text.search(loosely(start));
  if (from < 0) return -1;
  const found = loosely(end).exec(text.slice(from));
  return found ? from + found.index + found[0].length : -1;
}

/**
 * The main landmark to read instead of Readability's pick `content`, cut after the pick's end, if
 * any: the one with least text before that end, if it is at most a few lines more than the pick.
 */
export function landmarkAroundPick(content: Element, landmarks: readonly Landmark[]): Element | undefined {
  const pick = squeezed(content.textContent);
  if (!pick) return undefined;
  const start = pick.slice(0, ENDS);
  const end = pick.slice(-ENDS);
  let best: { landmark: Landmark; upTo: number; length: number } | undefined;
  for (const landmark of landmarks) {
    const upTo = pickEndIn(landmark.text, start, end);
    if (upTo < 0) continue;
    const length = squeezed(landmark.text.slice(0, upTo)).length;
    const extra = length - pick.length;
    if (extra > 0 && extra <= MAIN_EXTRA_CHARS && (!best || length < best.length)) best = { landmark, upTo, length };
  }
  if (!best) return undefined;
  const { copy } = best.landmark;
  cutAfter(copy, best.upTo);
  return content.ownerDocument.importNode(asReadabilityLeftIt(copy), true);
}

/** Removes what follows the `offset`-th character of the element's text. */
function cutAfter(element: Element, offset: number): void {
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let passed = 0;
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    if (passed + node.length >= offset) {
      const range = element.ownerDocument.createRange();
      range.setStart(node, offset - passed);
      range.setEndAfter(element.lastChild!);
      range.deleteContents();
      return;
    }
    passed += node.length;
  }
}
