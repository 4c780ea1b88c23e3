/**
 * Data tables as markdown rows (`| file | simdjson |`), one line per row with its cells under their
 * headers. Turndown alone writes each cell as a paragraph of its own, and a model cannot tell
 * which figure belongs to which column. Tables laid out for the page's design stay as their content.
 */
import type TurndownService from 'turndown';
import { tableGrid, type Spanned } from './table-grid';

/** Content no data cell holds: a table around it lays out a page (old sites, mail templates). */
const LAYOUT_CONTENT = 'table, h1, h2, h3, h4, h5, h6, blockquote, pre, article, section, nav, form';
/** Longer than any figure or label: a cell holding this much is a column of a page's layout. */
const LAYOUT_CELL_CHARS = 400;

function isDataTable(table: HTMLTableElement): boolean {
  const role = table.getAttribute('role');
  const rows = Array.from(table.rows);
  // One column is a list, however it is laid out (a sidebar's box of links), and reads as one.
  if (role === 'presentation' || role === 'none' || !rows.some((row) => row.cells.length > 1)) return false;
  return !rows.some((row) => Array.from(row.cells).some((cell) => (cell.textContent?.length ?? 0) > LAYOUT_CELL_CHARS || cell.querySelector(LAYOUT_CONTENT)));
}

/** Rows a cell covers: `rowspan="0"` runs to the end of its section; no span runs past it. */
function rowsCovered(cell: HTMLTableCellElement, row: HTMLTableRowElement): number {
  const section = row.parentElement as HTMLTableSectionElement | HTMLTableElement;
  const rowsLeft = section.rows.length - row.sectionRowIndex;
  return cell.rowSpan === 0 ? rowsLeft : Math.min(cell.rowSpan, rowsLeft);
}

/** A row names the columns when every cell in it is a header, or it sits in the <thead>. */
function isHeaderRow(row: HTMLTableRowElement): boolean {
  return row.parentElement?.localName === 'thead' || Array.from(row.cells).every((cell) => cell.localName === 'th');
}

/** One line of markdown: the cell's own markdown, its line breaks and pipes made safe for a row. */
const asCell = (markdown: string) => markdown.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();

function tableMarkdown(table: HTMLTableElement, cellMarkdown: (cell: HTMLTableCellElement) => string): string {
  const rows = Array.from(table.rows);
  const spanned = rows.map((row) => Array.from(row.cells, (cell): Spanned<HTMLTableCellElement> => ({ cell, rows: rowsCovered(cell, row), columns: Math.max(1, cell.colSpan) })));
  const grid = tableGrid(spanned);
  const width = grid.reduce((widest, line) => Math.max(widest, line.length), 0); // no spread: a table may have 100,000 rows
  const texts = new Map<HTMLTableCellElement, string>();
  const textOf = (cell: HTMLTableCellElement | undefined) => {
    if (!cell) return '';
    if (!texts.has(cell)) texts.set(cell, asCell(cellMarkdown(cell)));
    return texts.get(cell)!;
  };
  const lines = grid.map((line) => Array.from({ length: width }, (_, column) => textOf(line[column])));
  // A column or row with nothing in it (a column of checkboxes, a spacer row) says nothing.
  const columns = Array.from({ length: width }, (_, column) => column).filter((column) => lines.some((line) => line[column]));
  const kept = lines.map((line, index) => ({ index, cells: columns.map((column) => line[column]!) })).filter(({ cells }) => cells.some(Boolean));
  if (kept.length === 0) return '';
  const out = kept.map(({ cells }) => `| ${cells.join(' | ')} |`);
  // The rule goes under the header rows (a <thead> may hold two: a group's name over its columns').
  const headerRows = rows.findIndex((row) => !isHeaderRow(row));
  const underHeader = kept.filter(({ index }) => index < (headerRows === -1 ? 0 : headerRows)).length;
  if (underHeader > 0) out.splice(underHeader, 0, `|${' --- |'.repeat(columns.length)}`);
  const caption = asCell(table.caption?.textContent ?? '');
  return `\n\n${caption ? `${caption}\n\n` : ''}${out.join('\n')}\n\n`;
}

/**
 * Writes data tables as rows. Each cell's content is the markdown the converter made of it on its
 * way up the tree, kept for the table's turn rather than converted a second time.
 */
export function addTableRule(turndown: TurndownService): void {
  const judged = new WeakMap<HTMLTableElement, boolean>();
  const isData = (table: HTMLTableElement | null) => {
    if (!table) return false;
    if (!judged.has(table)) judged.set(table, isDataTable(table));
    return judged.get(table)!;
  };
  const cellTexts = new WeakMap<Node, string>();
  turndown.addRule('dataTableCell', {
    filter: (node) => (node.nodeName === 'TD' || node.nodeName === 'TH') && isData(node.closest('table')),
    replacement: (content, node) => {
      cellTexts.set(node, content);
      return '';
    },
  });
  turndown.addRule('dataTable', {
    filter: (node) => node.nodeName === 'TABLE' && isData(node as HTMLTableElement),
    replacement: (_content, node) => tableMarkdown(node as HTMLTableElement, (cell) => cellTexts.get(cell) ?? ''),
  });
}

/** Marks which table a part or row came from (Readability may parse the page again: nodes do not last, attributes do). */
const TABLE_MARK = 'data-jawad-table';

/** Marks each table's parts and rows with the table's number, before Readability takes any apart. */
export function markTables(doc: Document): void {
  doc.querySelectorAll('table').forEach((table, index) => {
    for (const element of [table, ...table.querySelectorAll(':scope > *, :scope > * > tr')]) element.setAttribute(TABLE_MARK, String(index));
  });
}

/**
 * A part of the page's copy put back where Readability left something out (a table, a landmark),
 * as Readability leaves content: links made absolute but for links within the page, no form controls.
 */
export function asReadabilityLeftIt<T extends Element>(element: T): T {
  for (const link of element.querySelectorAll('a[href]:not([href^="#"])')) link.setAttribute('href', (link as HTMLAnchorElement).href);
  for (const control of element.querySelectorAll('input, textarea, select, button')) control.remove();
  return element;
}

/**
 * Readability can take a table's rows for the main content and leave the table behind: an admin
 * list's rows, moved into a <div> of their own, without the header that names each column. Where
 * rows or parts turn up outside any table, the whole table goes in their place, once. `pageTables`:
 * the page's tables in the order `markTables` numbered them, in a copy made afresh; asked for only
 * when a table was cut, which few pages see.
 */
export function restoreCutTables(root: Element, pageTables: () => ArrayLike<HTMLTableElement>): void {
  const restored = new Set<number>();
  let tables: ArrayLike<HTMLTableElement> | undefined;
  for (const found of root.querySelectorAll(`:is(thead, tbody, tfoot, tr)[${TABLE_MARK}]`)) {
    if (!root.contains(found) || found.closest('table')) continue;
    const index = Number(found.getAttribute(TABLE_MARK));
    // A row stands in a container Readability made of its part (a <div> for the <tbody>).
    const place = found.localName === 'tr' && found.parentElement !== root ? found.parentElement! : found;
    const table = restored.has(index) ? undefined : (tables ??= pageTables())[index];
    if (!table) {
      place.remove();
      continue;
    }
    restored.add(index);
    place.replaceWith(asReadabilityLeftIt(root.ownerDocument.importNode(table, true)));
  }
}
