/**
 * Where the cells of a table row go, column by column, for a row written as one line: a cell
 * spanning columns is followed by empty cells, and a column still held by a cell of a row above
 * (`rowspan`) gets an empty cell, so every value sits under its column's header. Pure: the walk
 * reads the cells and their spans, this lays them out.
 */
export interface RowCell {
  text: string;
  columns: number;
  rows: number;
}

export interface LaidOutRow {
  cells: string[];
  /** Per column, how many more rows a cell of this row or one above still holds it for. */
  held: number[];
}

export function layOutRow(row: readonly RowCell[], heldAbove: readonly number[]): LaidOutRow {
  const cells: string[] = [];
  const held: number[] = [];
  let column = 0;
  // Past the last cell of the row's own, columns held from above are left out: they say nothing.
  let written = 0;
  const skipHeld = () => {
    while ((heldAbove[column] ?? 0) > 0) {
      held[column] = heldAbove[column]! - 1;
      cells.push('');
      column++;
    }
  };
  for (const cell of row) {
    skipHeld();
    for (let spanned = 0; spanned < cell.columns; spanned++) {
      cells.push(spanned === 0 ? cell.text : '');
      held[column] = cell.rows - 1;
      column++;
    }
    written = column - cell.columns + 1;
  }
  skipHeld();
  cells.length = written;
  return { cells, held };
}
