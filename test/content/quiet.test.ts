import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenQuiet, whenReceived, type AnswerWatch, type ChangeWatch } from '../../src/content/quiet';

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

/** A page whose resource timeline the test fills by hand. */
function fakeTimeline(already: string[] = []) {
  const have = new Set(already);
  let listener: ((url: string) => void) | undefined;
  const answers: AnswerWatch = { has: (url) => have.has(url), startedAt: () => undefined, watch: (onAnswer) => ((listener = onAnswer), () => (listener = undefined)) };
  return { answers, arrive: (url: string) => (have.add(url), listener?.(url)), watched: () => listener !== undefined };
}

describe('whenReceived', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('answers at once when the page has every answer already', async () => {
    await expect(whenReceived(fakeTimeline(['https://app.example/a']).answers, ['https://app.example/a'], 1_000)).resolves.toBe(true);
  });

  it('waits until the page has the last answer the browser reported (a busy page gets it later)', async () => {
    const page = fakeTimeline(['https://app.example/a']);
    let received: boolean | undefined;
    void whenReceived(page.answers, ['https://app.example/a', 'https://app.example/b'], 1_000).then((value) => (received = value));
    await vi.advanceTimersByTimeAsync(300);
    expect(received).toBeUndefined();
    page.arrive('https://app.example/b');
    await vi.advanceTimersByTimeAsync(0);
    expect(received).toBe(true);
    expect(page.watched()).toBe(false);
  });

  it('gives up at maxMs (an answer the timeline never lists)', async () => {
    const page = fakeTimeline();
    const received = whenReceived(page.answers, ['https://app.example/lost'], 1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(received).resolves.toBe(false);
    expect(page.watched()).toBe(false);
  });
});
