import { describe, expect, it } from 'vitest';
import { isLineNumbers } from '../../../src/content/snapshot/name';

describe('a code editor’s gutter of line numbers', () => {
  it('is a column of numbers one after another, from the first line or from wherever the view starts', () => {
    expect(isLineNumbers('1')).toBe(true);
    expect(isLineNumbers('1\n2\n3')).toBe(true);
    expect(isLineNumbers('41\n42\n43\n44')).toBe(true);
  });

  it('is not code, nor numbers that do not count lines', () => {
    expect(isLineNumbers('')).toBe(false);
    expect(isLineNumbers('def handler(event):')).toBe(false);
    expect(isLineNumbers('1\n3\n4')).toBe(false);
    expect(isLineNumbers('3\n2\n1')).toBe(false);
    expect(isLineNumbers('1.5\n2.5')).toBe(false);
    expect(isLineNumbers('1\nreturn 2')).toBe(false);
  });
});
