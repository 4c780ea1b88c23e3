/**
 * A table as a grid of rows and columns, its spans laid out: what the reader needs to write a
 * table as markdown rows whose cells stay under their headers. Pure: cells in, grid out.
 */

export interface Spanned<T> {
  cell: T;
  /** Rows it covers, its own included (rowspan, cut at the end of its section). */
  rows: number;
  /** Columns it covers (colspan). */
  columns: number;
}

/**
 * Each row of the grid, left to right: a cell spanning rows stands in each row it covers (a row
 * must say which day it belongs to); one spanning columns stands in its first column, the rest
 * left empty (undefined), so its text is said once.
 */
export function tableGrid<T>(rows: ReadonlyArray<ReadonlyArray<Spanned<T>>>): Array<Array<T | undefined>> {
  /** Column → the cell spanning down into it, and how many rows it still covers. */
  const hanging = new Map<number, { cell: T | undefined; rowsLeft: number }>();
  return rows.map((row) => {
    const line: Array<T | undefined> = [];
    let column = 0;
    const fillHanging = () => {
      for (let held = hanging.get(column); held; held = hanging.get(column)) {
        line[column] = held.cell;
        if (--held.rowsLeft === 0) hanging.delete(column);
        column++;
      }
    };
    for (const { cell, rows: down, columns } of row) {
      fillHanging();
      for (let offset = 0; offset < columns; offset++) {
        const shown = offset === 0 ? cell : undefined;
        line[column + offset] = shown;
        if (down > 1) hanging.set(column + offset, { cell: shown, rowsLeft: down - 1 });
      }
      column += columns;
    }
    fillHanging();
    return Array.from(line);
  });
}
