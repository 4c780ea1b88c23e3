import { describe, expect, it } from 'vitest';
import { layOutRow, type RowCell } from '../../../src/content/snapshot/columns';

const cell = (text: string, columns = 1, rows = 1): RowCell => ({ text, columns, rows });

describe('layOutRow', () => {
  it('writes a plain row cell by cell, holding nothing for the rows under it', () => {
    expect(layOutRow([cell('a'), cell('b')], [])).toEqual({ cells: ['a', 'b'], held: [0, 0] });
  });

  it('follows a cell spanning columns with empty ones, and leaves out those after the last cell', () => {
    expect(layOutRow([cell('Full texts', 4), cell('id'), cell('name')], []).cells).toEqual(['Full texts', '', '', '', 'id', 'name']);
    expect(layOutRow([cell('id'), cell('Footer', 3)], []).cells).toEqual(['id', 'Footer']);
  });

  it('leaves a column held by a cell above empty, so the cells after it stay in their columns', () => {
    // | Monday (2 rows) | 09:00 | Opening |, then | (Monday) | 10:00 | Parsers |, then a new day.
    const first = layOutRow([cell('Monday', 1, 2), cell('09:00'), cell('Opening')], []);
    expect(first).toEqual({ cells: ['Monday', '09:00', 'Opening'], held: [1, 0, 0] });
    const second = layOutRow([cell('10:00'), cell('Parsers')], first.held);
    expect(second).toEqual({ cells: ['', '10:00', 'Parsers'], held: [0, 0, 0] });
    expect(layOutRow([cell('Tuesday'), cell('09:00'), cell('Closing')], second.held).cells).toEqual(['Tuesday', '09:00', 'Closing']);
  });

  it('holds columns in the middle and at the end, over several rows, and with a cell spanning both ways', () => {
    // phpMyAdmin's indexes: Keyname and Type span the index's columns, the comment column too.
    const first = layOutRow([cell('edit'), cell('name_city', 1, 3), cell('BTREE', 1, 3), cell('name'), cell('', 1, 3)], []);
    expect(first.held).toEqual([0, 2, 2, 0, 2]);
    const second = layOutRow([cell('x'), cell('city')], first.held);
    expect(second).toEqual({ cells: ['x', '', '', 'city'], held: [0, 1, 1, 0, 1] });
    const wide = layOutRow([cell('A', 2, 2), cell('b')], []);
    expect(layOutRow([cell('c')], wide.held).cells).toEqual(['', '', 'c']);
  });
});
