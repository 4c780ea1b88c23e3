import { describe, expect, it } from 'vitest';
import { tableGrid, type Spanned } from '../../src/content/table-grid';

const cell = (text: string, rows = 1, columns = 1): Spanned<string> => ({ cell: text, rows, columns });

describe('tableGrid', () => {
  it('keeps a plain table as it is', () => {
    expect(tableGrid([[cell('file'), cell('speed')], [cell('twitter'), cell('2.2 GB/s')]])).toEqual([['file', 'speed'], ['twitter', '2.2 GB/s']]);
  });

  it('repeats a cell spanning rows in each row it covers, so the later rows’ cells stay under their headers', () => {
    const grid = tableGrid([
      [cell('Day'), cell('Time'), cell('Room')],
      [cell('Wednesday', 2), cell('09:00'), cell('Orion')],
      [cell('14:00'), cell('Lyra')],
      [cell('Thursday'), cell('10:00'), cell('Vega')],
    ]);
    expect(grid).toEqual([
      ['Day', 'Time', 'Room'],
      ['Wednesday', '09:00', 'Orion'],
      ['Wednesday', '14:00', 'Lyra'],
      ['Thursday', '10:00', 'Vega'],
    ]);
  });

  it('says a cell spanning columns once and leaves the columns it covers empty', () => {
    expect(tableGrid([[cell('Item'), cell('Price', 1, 2)], [cell('Tea'), cell('2023'), cell('2024')]])).toEqual([
      ['Item', 'Price', undefined],
      ['Tea', '2023', '2024'],
    ]);
  });

  it('lays out a cell spanning rows in a middle column, and one spanning both ways', () => {
    const grid = tableGrid([
      [cell('a'), cell('B', 2, 2), cell('c')],
      [cell('d'), cell('e')],
      [cell('f'), cell('g'), cell('h'), cell('i')],
    ]);
    expect(grid).toEqual([
      ['a', 'B', undefined, 'c'],
      ['d', 'B', undefined, 'e'],
      ['f', 'g', 'h', 'i'],
    ]);
  });
});
