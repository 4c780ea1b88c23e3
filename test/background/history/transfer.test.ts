import { describe, expect, it } from 'vitest';
import { PartAssembler } from '../../../src/background/history/transfer';
import { splitText } from '../../../src/protocol';

describe('splitText and PartAssembler', () => {
  it('cuts a text into parts and puts it back together in any arrival order', () => {
    const text = 'abcdefghij'.repeat(10);
    const parts = splitText(text, 7);
    expect(parts).toHaveLength(15);
    const assembler = new PartAssembler();
    const order = parts.map((_, i) => i).reverse();
    const results = order.map((index) => assembler.add({ transferId: 't', index, count: parts.length, text: parts[index]! }));
    expect(results.slice(0, -1).every((r) => r === undefined)).toBe(true);
    expect(results.at(-1)).toBe(text);
  });

  it('keeps two transfers apart and refuses a part number beyond the count', () => {
    const assembler = new PartAssembler();
    expect(assembler.add({ transferId: 'a', index: 0, count: 2, text: 'a1' })).toBeUndefined();
    expect(assembler.add({ transferId: 'b', index: 0, count: 1, text: 'b' })).toBe('b');
    expect(assembler.add({ transferId: 'a', index: 1, count: 2, text: 'a2' })).toBe('a1a2');
    expect(() => assembler.add({ transferId: 'c', index: 2, count: 2, text: 'x' })).toThrow('does not exist');
  });

  it('sends an empty text as one empty part', () => {
    expect(splitText('')).toEqual(['']);
  });
});
