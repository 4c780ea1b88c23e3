/**
 * The per-page table: Jawad next to a baseline (Playwright's snapshot, or Chromium without the
 * extension), their ratio, a target and a verdict — PASS/FAIL against the target, "info" without
 * one, ERROR when a figure could not be taken, UNRESOLVED when the figure's confidence interval
 * reaches across the target (the noise is larger than the difference asked about).
 */

/** A measured number, why there is none, or nothing to show. */
export type Cell = number | { error: string } | undefined;

export interface Row {
  metric: string;
  ours: Cell;
  baseline?: Cell;
  /** Which figure the target bounds: ours / baseline, or ours itself. */
  on?: 'ratio' | 'ours';
  max?: number;
  min?: number;
  /** Printed after the target's number ('×', '%'). */
  unit?: string;
  digits?: number;
  note?: string;
  /** The 95 % confidence interval of `ours`: the verdict holds only when all of it is on one side of the target. */
  interval?: { low: number; high: number };
}

export type Verdict = 'PASS' | 'FAIL' | 'ERROR' | 'UNRESOLVED' | 'info';

const isError = (cell: Cell): cell is { error: string } => typeof cell === 'object';

export function ratioOf(row: Row): number | undefined {
  return typeof row.ours === 'number' && typeof row.baseline === 'number' ? row.ours / row.baseline : undefined;
}

export function verdict(row: Row): Verdict {
  if (isError(row.ours) || isError(row.baseline)) return 'ERROR';
  if (row.max === undefined && row.min === undefined) return 'info';
  const value = row.on === 'ratio' ? ratioOf(row) : row.ours;
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'ERROR';
  const within = (figure: number) => (row.max === undefined || figure <= row.max) && (row.min === undefined || figure >= row.min);
  if (!row.interval) return within(value) ? 'PASS' : 'FAIL';
  const { low, high } = row.interval;
  if (within(low) && within(high)) return 'PASS';
  return within(low) || within(high) ? 'UNRESOLVED' : 'FAIL';
}

function formatNumber(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function formatCell(cell: Cell, digits: number): string {
  if (cell === undefined) return '–';
  if (isError(cell)) return 'error';
  return Number.isFinite(cell) ? formatNumber(cell, digits) : '–';
}

function targetText(row: Row): string {
  const unit = row.unit ?? '';
  if (row.max !== undefined) return `≤ ${row.max}${unit}`;
  if (row.min !== undefined) return `≥ ${row.min}${unit}`;
  return '';
}

/** The note, or why the row has no figure (the first error met). */
function noteText(row: Row): string {
  const error = [row.ours, row.baseline].find(isError);
  if (!error) return row.note ?? '';
  const message = error.error.replace(/\s+/g, ' ');
  return message.length > 100 ? `${message.slice(0, 99)}…` : message;
}

const pad = (text: string, width: number) => text.padEnd(width);

export function renderTable(rows: readonly Row[], columns: { ours: string; baseline: string }): string {
  const cells = rows.map((row) => {
    const ratio = ratioOf(row);
    return [
      row.metric,
      formatCell(row.ours, row.digits ?? 1),
      row.baseline === undefined ? '' : formatCell(row.baseline, row.digits ?? 1),
      ratio === undefined ? '' : `${ratio.toFixed(3)}×`,
      targetText(row),
      verdict(row),
      noteText(row),
    ];
  });
  const header = ['metric', columns.ours, columns.baseline, 'ratio', 'target', 'result', 'note'];
  const widths = header.map((title, i) => (i === header.length - 1 ? 0 : Math.max(title.length, ...cells.map((c) => c[i]!.length)) + 2));
  const line = (values: string[]) => values.map((value, i) => pad(value, widths[i]!)).join('').trimEnd();
  const lines = cells.map(line);
  const top = line(header);
  return [top, '─'.repeat(Math.max(top.length, ...lines.map((l) => l.length))), ...lines].join('\n');
}
