/**
 * Rows a person clicks that carry no sign of it in the DOM: a virtualised list (only the rows in
 * view exist, each positioned in a tall scroller) whose one click handler sits on the scroller and
 * finds the row from the event. No listener can be seen from here; the shape can.
 */
const MIN_REPEATS = 3;
const LIST_ROLES = new Set(['list', 'listbox', 'grid', 'feed', 'table', 'treegrid', 'rowgroup']);
const CONTROL_INSIDE = 'a[href],button,input,select,textarea,[role=button],[role=link],[role=checkbox],[tabindex],[onclick],[contenteditable]';
/** Paragraphs of a story scrolled in a box are text, however alike. */
const PROSE = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'figure', 'figcaption', 'span', 'br']);
/** Roles whose element is a row a person picks; with a tabindex (roving focus: -1 counts) they can be acted on. */
export const ROW_ROLES = new Set(['row', 'listitem', 'option', 'treeitem', 'gridcell']);

/** A scroll box of the page (not the page itself) with more content than it shows. */
export function isScroller(element: Element, overflowY: string): boolean {
  if (!/auto|scroll/.test(overflowY)) return false;
  if (element === element.ownerDocument.body || element === element.ownerDocument.documentElement) return false;
  return element.scrollHeight > element.clientHeight + 1;
}

function repeatsAmongSiblings(row: Element): boolean {
  const parent = row.parentElement;
  if (!parent || !row.className) return false;
  let same = 0;
  for (const sibling of Array.from(parent.children)) {
    if (sibling.localName === row.localName && sibling.className === row.className && ++same >= MIN_REPEATS) return true;
  }
  return false;
}

/**
 * A row of a list inside a scroller: one of several alike siblings, laid out by the list itself
 * (positioned or translated, as virtualisers do) or under a list role, with text and nothing
 * inside it to act on — so the row itself is what a click means.
 */
export function isListRow(row: Element, style: CSSStyleDeclaration, inScroller: boolean): boolean {
  if (!inScroller || PROSE.has(row.localName)) return false;
  const placed = style.position === 'absolute' || style.transform !== 'none';
  const listed = LIST_ROLES.has(row.parentElement?.getAttribute('role') ?? '');
  if (!placed && !listed) return false;
  if (!repeatsAmongSiblings(row) || !/\S/.test(row.textContent ?? '')) return false;
  return row.querySelector(CONTROL_INSIDE) === null;
}
