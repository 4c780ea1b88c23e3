import { describe, expect, it } from 'vitest';
import { Kept } from '../../src/db/kept';

describe('Kept', () => {
  it('reads once for many callers, and again after a change', async () => {
    let stored = 1;
    let reads = 0;
    const kept = new Kept(async () => (reads++, stored));
    expect(await Promise.all([kept.get(), kept.get()])).toEqual([1, 1]);
    expect(await kept.get()).toBe(1);
    expect(reads).toBe(1);
    await kept.change(async () => void (stored = 2));
    expect(await kept.get()).toBe(2);
    expect(reads).toBe(2);
  });

  it('forgets after a write that failed half-way, and does not keep a failed read', async () => {
    let stored = 1;
    let failNext = false;
    const kept = new Kept(async () => {
      if (failNext) throw new Error('storage unavailable');
      return stored;
    });
    await kept.get();
    await expect(kept.change(async () => { stored = 2; throw new Error('quota'); })).rejects.toThrow('quota');
    failNext = true;
    await expect(kept.get()).rejects.toThrow('storage unavailable');
    failNext = false;
    expect(await kept.get()).toBe(2);
  });
});
