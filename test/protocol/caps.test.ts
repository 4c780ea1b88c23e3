import { describe, expect, it } from 'vitest';
import { clipText, oneLine } from '../../src/protocol/caps';

describe('clipText', () => {
  it('cuts with an ellipsis only when the text is too long', () => {
    expect(clipText('abcdef', 6)).toBe('abcdef');
    expect(clipText('abcdefg', 6)).toBe('abcde…');
  });
});

describe('oneLine', () => {
  it('puts text on one line: line breaks, tabs and runs of spaces become one space, the ends trimmed', () => {
    expect(oneLine('  Delivery:\n\t3–5   days \r\n')).toBe('Delivery: 3–5 days');
    expect(oneLine('\u00a0non-breaking\u00a0space\u2003em ')).toBe('non-breaking space em');
  });
});
