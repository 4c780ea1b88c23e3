import { describe, expect, it } from 'vitest';
import { capOutcome } from '../../src/content/actions';

describe('capOutcome', () => {
  it('cuts what a page can make long: a read-back value, a read result, a long structured result', () => {
    const long = 'x'.repeat(50_000);
    expect(capOutcome({ action: 'fill', target: 'e1', value: long }).value).toHaveLength(20_000);
    expect(capOutcome({ action: 'get', target: 'e1', result: long }).result).toHaveLength(20_000);
    const options = capOutcome({ action: 'get', target: 'e1', result: { options: Array.from({ length: 5_000 }, (_, i) => `option ${i}`) } }).result;
    expect(typeof options === 'string' && options.startsWith('{"options":["option 0"')).toBe(true);
    expect(options).toHaveLength(20_000);
  });

  it('leaves ordinary outcomes as they are', () => {
    const outcome = { action: 'scroll' as const, target: 'the page', result: { x: 0, y: 400, atEnd: false } };
    expect(capOutcome(outcome)).toEqual(outcome);
  });
});
