import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenQuiet, type ChangeWatch } from '../../src/content/quiet';

/** A page whose changes the test makes by hand. */
function fakePage() {
  let listener: (() => void) | undefined;
  const watch: ChangeWatch = (onChange) => {
    listener = onChange;
    return () => (listener = undefined);
  };
  return { watch, change: () => listener?.(), watched: () => listener !== undefined };
}

describe('whenQuiet', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('answers once the page went quietMs without a change, counting from the last change', async () => {
    const page = fakePage();
    let quiet: boolean | undefined;
    void whenQuiet(page.watch, 100, 1_000).then((value) => (quiet = value));
    await vi.advanceTimersByTimeAsync(80);
    page.change(); // the answer's script swaps the view in
    await vi.advanceTimersByTimeAsync(80);
    expect(quiet).toBeUndefined();
    await vi.advanceTimersByTimeAsync(20);
    expect(quiet).toBe(true);
    expect(page.watched()).toBe(false);
  });

  it('stops at maxMs on a page that never holds still (a ticking clock), saying so', async () => {
    const page = fakePage();
    const ticking = setInterval(page.change, 50);
    const quiet = whenQuiet(page.watch, 100, 1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(quiet).resolves.toBe(false);
    clearInterval(ticking);
    expect(page.watched()).toBe(false);
  });
});
