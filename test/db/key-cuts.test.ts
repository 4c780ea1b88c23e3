import { describe, expect, it } from 'vitest';
import { keyCuts } from '../../src/db/key-cuts';

/** How many of the sorted keys each range [first, cut1), [cut1, cut2) … [cutN, last] holds. */
function rangeSizes(keys: string[], ranges: number): number[] {
  const sorted = [...keys].sort();
  const cuts = keyCuts(sorted[0]!, sorted.at(-1)!, ranges);
  const sizes = new Array<number>(cuts.length + 1).fill(0);
  for (const key of sorted) sizes[cuts.filter((cut) => cut <= key).length]!++;
  return sizes;
}

describe('keyCuts', () => {
  it('cuts random UUIDs into ranges none of which holds more than a tenth of them', () => {
    const keys = Array.from({ length: 20_000 }, () => crypto.randomUUID());
    const sizes = rangeSizes(keys, 64);
    expect(sizes.reduce((a, b) => a + b)).toBe(keys.length);
    expect(Math.max(...sizes) / keys.length).toBeLessThan(0.1);
  });

  it('cuts numbered ids that share a prefix (as imports and the bench make them) into several ranges', () => {
    const keys = Array.from({ length: 5_000 }, (_, c) => Array.from({ length: 20 }, (_, m) => `bench-c${c}-m${m}`)).flat();
    const sizes = rangeSizes(keys, 64);
    expect(sizes.filter((size) => size > 0).length).toBeGreaterThanOrEqual(8);
    expect(Math.max(...sizes) / keys.length).toBeLessThan(0.25);
  });

  it('gives increasing cuts strictly between the two keys, and none when they are too close', () => {
    for (const [first, last] of [['a', 'b'], ['abc', 'abd'], ['x', 'x\u0000\u0001'], ['', '\uffff'], ['m1', 'm10']] as const) {
      const cuts = keyCuts(first, last, 16);
      for (const [i, cut] of cuts.entries()) {
        expect(cut > first && cut < last).toBe(true);
        if (i > 0) expect(cut > cuts[i - 1]!).toBe(true);
      }
    }
    expect(keyCuts('x', 'x\u0000', 16)).toEqual([]);
    expect(keyCuts('b', 'a', 16)).toEqual([]);
    expect(keyCuts('a', 'a', 16)).toEqual([]);
  });
});
