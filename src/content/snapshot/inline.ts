/**
 * Text and inline elements of one block belong on one line: `Delivery: <b>3–5 days</b>` is
 * "Delivery: 3–5 days", not two lines a model cannot pair up once a list holds several. Controls
 * inside the block (a link in a sentence) keep their refs, written inline where they stand.
 */
import { nodesIn, type ChildSpan } from '../visibility';
import { oneLine } from '../../protocol/caps';
import { pageText } from './page-text';

const PHRASING = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'br', 'button', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'img', 'input',
  'ins', 'kbd', 'label', 'mark', 'nobr', 'output', 'q', 's', 'samp', 'select', 'small', 'span', 'strike', 'strong', 'sub', 'sup',
  'svg', 'textarea', 'time', 'tt', 'u', 'var', 'wbr',
]);
const CONTROLS = new Set(['a', 'button', 'input', 'select', 'textarea', 'label']);
const UNREAD = new Set(['script', 'style', 'template', 'noscript', 'svg', 'img', 'wbr']);

/** Plain inline text (a <b>, a <span>), not something to act on. */
function isPlainInline(element: Element): boolean {
  return !CONTROLS.has(element.localName) && !element.hasAttribute('role') && !element.hasAttribute('tabindex') && !element.hasAttribute('onclick');
}

/**
 * A block to write as one line: only text and inline elements inside, at least two pieces, and
 * some of it text that is not a control (a row of links stays a row of ref lines).
 */
export function isInlineBlock(element: Element): boolean {
  if (element.shadowRoot || element.localName === 'slot') return false;
  let pieces = 0;
  let plainText = false;
  const plainElements: Element[] = [];
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === Node.TEXT_NODE) {
      if (/\S/.test((child as Text).data)) {
        pieces++;
        plainText = true;
      }
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      const tag = (child as Element).localName;
      if (!PHRASING.has(tag) || (child as Element).shadowRoot) return false;
      if (UNREAD.has(tag)) continue;
      pieces++;
      if (isPlainInline(child as Element)) plainElements.push(child as Element);
    }
  }
  // Reading the children's text only now keeps a lone wrapper (nested thousands deep) cheap.
  return pieces >= 2 && (plainText || plainElements.some((child) => /\S/.test(child.textContent ?? '')));
}

/** Part of a line of text: text, an inline element, or something never read (a script between words). */
function flowsInline(node: ChildNode): boolean {
  if (node.nodeType !== Node.ELEMENT_NODE) return true;
  const element = node as Element;
  return (PHRASING.has(element.localName) || UNREAD.has(element.localName)) && !element.shadowRoot;
}

/** Text of its own, or plain inline text to look inside (not a control, not something never read). */
function mayHoldPlainText(node: Node): boolean {
  if (node.nodeType === Node.TEXT_NODE) return /\S/.test((node as Text).data);
  return node.nodeType === Node.ELEMENT_NODE && isPlainInline(node as Element) && !UNREAD.has((node as Element).localName);
}

/** A run with text of its own, outside any control; a run of links only (in spans or not) stays a row of ref lines. */
function hasPlainText(span: ChildSpan): boolean {
  const stack: Node[] = nodesIn(span);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!mayHoldPlainText(node)) continue;
    if (node.nodeType === Node.TEXT_NODE) return true;
    for (let child = node.firstChild; child; child = child.nextSibling) stack.push(child);
  }
  return false;
}

/**
 * A block holding both text and blocks (a post's lines, `<br>` between them, then a `<div>`): its
 * children in order, each run of text and inline elements between the blocks as one piece to write
 * as a line. Undefined when the block holds no such run, or no block (isInlineBlock's case).
 */
export function inlineRuns(element: Element): Array<ChildSpan | Element> | undefined {
  // Most elements hold no block beside text (a chain of spans nested thousands deep, read again at
  // every level otherwise), or only blocks and the whitespace between them (most containers): they
  // are answered from their children alone, with nothing read inside them and nothing allocated.
  let hasBlock = false;
  let mayHaveText = false;
  for (let child = element.firstChild; child && !(hasBlock && mayHaveText); child = child.nextSibling) {
    if (!flowsInline(child)) hasBlock = true;
    else mayHaveText ||= mayHoldPlainText(child);
  }
  if (!hasBlock || !mayHaveText) return undefined;
  const items: Array<ChildSpan | Element> = [];
  let runs = 0;
  let first: ChildNode | undefined;
  let last: ChildNode | undefined;
  const close = () => {
    if (!first || !last) return;
    const span = { first, last };
    if (hasPlainText(span)) {
      items.push(span);
      runs++;
    } else {
      for (const node of nodesIn(span)) if (node.nodeType === Node.ELEMENT_NODE) items.push(node as Element);
    }
    first = last = undefined;
  };
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (flowsInline(child)) {
      first ??= child;
      last = child;
    } else {
      close();
      items.push(child as Element);
    }
  }
  close();
  return runs > 0 ? items : undefined;
}

const CELL_TAGS = new Set(['td', 'th']);
const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
/** Controls whose insides (options, an icon) are not read into a line. */
const OPAQUE = new Set(['select', 'textarea', 'button', 'svg']);

/**
 * Nothing but text and inline elements inside (a cell holding a field, a link, a bold word), or
 * blocks that are not rendered. A custom element with no shadow root (`<time-ago>`) counts as what
 * it holds, which is checked too.
 */
function readsInline(element: Element): boolean {
  const stack = Array.from(element.children);
  while (stack.length > 0) {
    const child = stack.pop()!;
    if (!(PHRASING.has(child.localName) || child.localName.includes('-')) || child.shadowRoot) {
      // Nothing of a box that is not rendered shows (phpMyAdmin keeps each row's delete query in a hidden <div>),
      // and a box with nothing to read or use in it (a column's drag handle) has nothing to break the line with.
      if (!child.checkVisibility() || holdsNothing(child)) continue;
      // A box that is all the cell holds (Django's `<div><a>Remove</a></div>`) breaks no line.
      if (!child.shadowRoot && isAlone(child, element)) {
        stack.push(...Array.from(child.children));
        continue;
      }
      return false;
    }
    if (!OPAQUE.has(child.localName)) stack.push(...Array.from(child.children));
  }
  return true;
}

/** Whether nothing else shows beside the box, up to the cell: no text, no other box with something in it. */
function isAlone(box: Element, cell: Element): boolean {
  for (let inner = box; inner !== cell && inner.parentElement; inner = inner.parentElement) {
    for (const sibling of Array.from(inner.parentElement.childNodes)) {
      if (sibling === inner) continue;
      if (sibling.nodeType === Node.TEXT_NODE && /\S/.test(sibling.textContent ?? '')) return false;
      if (sibling.nodeType === Node.ELEMENT_NODE && (sibling as Element).checkVisibility() && !holdsNothing(sibling as Element)) return false;
    }
  }
  return true;
}

const SOMETHING_TO_USE = 'a,button,input,select,textarea,img,svg,iframe,video,canvas,[role],[tabindex],[contenteditable]';

function holdsNothing(box: Element): boolean {
  return !/\S/.test(box.textContent ?? '') && box.querySelector(SOMETHING_TO_USE) === null;
}

export function isCell(element: Element): boolean {
  return CELL_TAGS.has(element.localName) || CELL_ROLES.has(element.getAttribute('role') ?? '');
}

/**
 * A table row to write as one line, cell after cell: a row of a data table or of a form laid out
 * as a table is read across (which "edit" link belongs to which record, which field to which
 * header cell), and one cell a line loses that. Only rows whose cells all read inline.
 */
export function isTableRow(element: Element, role: string): boolean {
  if (element.localName !== 'tr' && role !== 'row') return false;
  const cells = element.children;
  if (cells.length === 0 || (cells.length === 1 && !isColumnValue(element, cells[0]!))) return false;
  for (const cell of Array.from(cells)) if (!isCell(cell) || !readsInline(cell)) return false;
  return true;
}

/**
 * A row of one cell is a value of a one-column data table (a query's `COUNT(*)`) when the table
 * has a header and the cell spans no more than its column. Otherwise it is a page laid out in a
 * table, or a row across the whole table (a footer's button, a group's title, "No results").
 */
function isColumnValue(row: Element, cell: Element): boolean {
  if (spanOf(cell) > 1) return false;
  if (row.localName !== 'tr') return row.closest('[role=table],[role=grid],[role=treegrid]') !== null;
  const table = row.closest('table');
  return table !== null && (table.tHead !== null || Array.from(table.rows[0]?.cells ?? []).every((first) => first.localName === 'th'));
}

/** How many columns a cell spans, as far as a line of text is concerned (a hostile `colspan=1000` gets no more than a wide table's columns). */
const MAX_SPAN = 30;
const MAX_ROW_SPAN = 10_000;

const isTableCell = (cell: Element): cell is HTMLTableCellElement => cell.localName === 'td' || cell.localName === 'th';

export function spanOf(cell: Element): number {
  return within(isTableCell(cell) ? cell.colSpan : Number(cell.getAttribute('aria-colspan')), MAX_SPAN);
}

/** How many rows a cell spans; `rowspan="0"` spans the rest of its table section (a day's cell over all its talks). */
export function rowSpanOf(cell: Element): number {
  if (!isTableCell(cell)) return within(Number(cell.getAttribute('aria-rowspan')), MAX_ROW_SPAN);
  return within(cell.rowSpan === 0 ? rowsLeftInSection(cell) : cell.rowSpan, MAX_ROW_SPAN);
}

function rowsLeftInSection(cell: HTMLTableCellElement): number {
  const row = cell.parentElement;
  const section = row?.parentElement;
  if (row?.localName !== 'tr' || !section) return 1;
  // A row is in a thead, tbody or tfoot, or (built by script) right in its table.
  const { rows } = section as HTMLTableSectionElement | HTMLTableElement;
  return rows.length - (row as HTMLTableRowElement).sectionRowIndex;
}

function within(span: number, max: number): number {
  return Number.isInteger(span) && span > 1 ? Math.min(span, max) : 1;
}

/** `| a | b |`, the way markdown writes a table row (a `|` inside a cell escaped). */
export function rowLine(cells: readonly string[]): string {
  return `|${cells.map((cell) => (cell ? ` ${cell.replace(/\|/g, '\\|')} |` : ' |')).join('')}`;
}

/**
 * How an inline element shows in the line: a string for a control (its ref, written in place),
 * 'skip' for what cannot be seen, 'read' to read its text.
 */
export type InlinePart = string | 'skip' | 'read';

/** Where a box of its own begins or ends inside a line: its words stay apart from the ones around it. */
const BOX_EDGE = 'box edge';

/**
 * The line of a block's content (`nodes`: its children, or a run of them): the visible text with
 * each control's part where the control stands. An element laid out as a block (`isBlock`: a flex
 * item, a span set to `display: block`) is a box of its own, so its words never run into its
 * neighbours' even where the source has no space between them (WordPress's
 * `<span>Jawad Test Blog</span><span>127.0.0.1</span>`).
 */
export function inlineText(nodes: ArrayLike<Node>, partOf: (child: Element) => InlinePart, shows: (text: Text) => boolean = () => true, isBlock: (element: Element) => boolean = () => false): string {
  let text = '';
  // A control's part stands apart from the words around it; punctuation closes up to it, as in the page.
  let afterPart = false;
  // A loop over a stack, not recursion: inline elements can nest thousands deep.
  const stack: Array<Node | typeof BOX_EDGE> = Array.from(nodes).reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === BOX_EDGE) {
      if (text !== '' && !text.endsWith(' ')) text += ' ';
      continue;
    }
    if (node.nodeType === Node.TEXT_NODE && shows(node as Text)) {
      const data = pageText((node as Text).data);
      if (afterPart && !/^[.,;:!?)\]]/.test(data)) text += ' ';
      afterPart = false;
      text += data;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const inner = node as Element;
    if (inner.localName === 'br') text += ' ';
    if (inner.localName === 'br' || (UNREAD.has(inner.localName) && inner.localName !== 'img')) continue;
    const part = partOf(inner);
    if (part === 'read') {
      const box = isBlock(inner);
      if (box) stack.push(BOX_EDGE);
      for (let i = inner.childNodes.length - 1; i >= 0; i--) stack.push(inner.childNodes[i]!);
      if (box) stack.push(BOX_EDGE);
    } else if (part !== 'skip') {
      text += `${/[([]$/.test(text) ? '' : ' '}${part}`;
      afterPart = true;
    }
  }
  return oneLine(text);
}
