/** The summary table: one line per metric, one column per browser, a target and a verdict. */
import type { BrowserName } from '../../test/e2e/support/extension-browser';

/** A measured number, or why there is none. */
export type Cell = number | { error: string } | undefined;

export interface Row {
  metric: string;
  values: Partial<Record<BrowserName, Cell>>;
  /** Upper bound the value must not exceed; no target means "for information". */
  max?: number;
  note?: string;
  digits?: number;
}

export type Verdict = 'PASS' | 'FAIL' | 'ERROR' | 'info';

export function verdict(row: Row, browsers: readonly BrowserName[]): Verdict {
  const cells = browsers.map((b) => row.values[b]);
  if (cells.some((c) => typeof c === 'object')) return 'ERROR';
  if (row.max === undefined) return 'info';
  const numbers = cells.filter((c): c is number => typeof c === 'number' && Number.isFinite(c));
  if (numbers.length === 0) return 'ERROR';
  return numbers.every((n) => n <= row.max!) ? 'PASS' : 'FAIL';
}

function formatCell(cell: Cell, digits: number): string {
  if (cell === undefined) return '–';
  if (typeof cell === 'object') return 'error';
  return Number.isFinite(cell) ? cell.toFixed(digits) : '–';
}

const pad = (text: string, width: number) => text.padEnd(width);

export function renderTable(rows: readonly Row[], browsers: readonly BrowserName[]): string {
  const metricWidth = Math.max(6, ...rows.map((r) => r.metric.length)) + 2;
  const header = pad('metric', metricWidth) + browsers.map((b) => pad(b, 11)).join('') + pad('target', 10) + pad('result', 8) + 'note';
  const lines = rows.map((row) => {
    const cells = browsers.map((b) => pad(formatCell(row.values[b], row.digits ?? 1), 11)).join('');
    const target = row.max === undefined ? '' : `≤ ${row.max}`;
    return pad(row.metric, metricWidth) + cells + pad(target, 10) + pad(verdict(row, browsers), 8) + (row.note ?? '');
  });
  const rule = '─'.repeat(Math.max(header.length, ...lines.map((l) => l.length)));
  return [header, rule, ...lines].join('\n');
}
