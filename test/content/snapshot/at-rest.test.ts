import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_SETTLE_MS, settle, settlesIn } from '../../../src/content/snapshot/at-rest';

interface Running {
  playState?: AnimationPlayState;
  endTime: number;
  currentTime: number | null;
  playbackRate?: number;
}

function pageWith(...animations: Running[]): Document {
  const live = animations.map(({ playState = 'running', endTime, currentTime, playbackRate = 1 }) => ({
    playState,
    currentTime,
    playbackRate,
    effect: { getComputedTiming: () => ({ endTime }) },
  }));
  return { getAnimations: () => live } as unknown as Document;
}

describe('how long a snapshot waits for the page to hold still', () => {
  it('waits out a menu fading in', () => {
    expect(settlesIn(pageWith({ endTime: 100, currentTime: 20 }))).toBe(80);
  });

  it('waits for the last of several, a slowed one by its real time', () => {
    expect(settlesIn(pageWith({ endTime: 100, currentTime: 0 }, { endTime: 150, currentTime: 50, playbackRate: 0.5 }))).toBe(200);
  });

  it('counts a transition that has not started its clock yet from its start', () => {
    expect(settlesIn(pageWith({ endTime: 120, currentTime: null }))).toBe(120);
  });

  it('never waits for a spinner that runs for ever, nor for a paused or finished animation', () => {
    expect(settlesIn(pageWith(
      { endTime: Infinity, currentTime: 5000 },
      { playState: 'paused', endTime: 300, currentTime: 0 },
      { playState: 'finished', endTime: 300, currentTime: 300 },
    ))).toBe(0);
  });

  it('waits no longer than its limit for a slow one', () => {
    expect(settlesIn(pageWith({ endTime: 10_000, currentTime: 0 }))).toBe(MAX_SETTLE_MS);
  });

  it('does not wait where the browser has no animations to ask about', () => {
    expect(settlesIn({} as Document)).toBe(0);
  });
});

describe('waiting for the page to hold still', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** A page whose animations are, in turn, each of `phases` (each a list of animations running from now). */
  function pageInPhases(phases: number[][]): { page: Document; looked: () => number } {
    let looks = 0;
    const page = {
      getAnimations: () => {
        const at = performance.now();
        // A phase lasts as long as its longest animation; the next starts when it ends.
        let start = 0;
        for (const phase of phases) {
          const end = start + Math.max(0, ...phase);
          if (at < end) return phase.map((ms) => ({ playState: 'running', currentTime: at - start, playbackRate: 1, effect: { getComputedTiming: () => ({ endTime: ms }) } }));
          start = end;
        }
        return [];
      },
    } as unknown as Document;
    const counting = { getAnimations: () => (looks++, page.getAnimations()) } as unknown as Document;
    return { page: counting, looked: () => looks };
  }

  async function timeToSettle(phases: number[][]): Promise<number> {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    // Node draws no frames: one every 16 ms, as a browser does.
    vi.stubGlobal('requestAnimationFrame', (draw: () => void) => setTimeout(draw, 16));
    const { page } = pageInPhases(phases);
    const begun = performance.now();
    let settled = false;
    void settle(page).then(() => (settled = true));
    for (;;) {
      await vi.advanceTimersByTimeAsync(0);
      if (settled) break;
      await vi.advanceTimersByTimeAsync(5);
    }
    return performance.now() - begun;
  }

  it('waits for a transition that starts as the one before ends (a modal shown once its backdrop has faded in)', async () => {
    const waited = await timeToSettle([[150], [150]]);
    expect(waited).toBeGreaterThanOrEqual(300);
    expect(waited).toBeLessThan(MAX_SETTLE_MS);
  });

  it('stops waiting after MAX_SETTLE_MS in all, however many follow one another', async () => {
    const waited = await timeToSettle([[150], [150], [150], [150]]);
    expect(waited).toBeGreaterThanOrEqual(MAX_SETTLE_MS);
    expect(waited).toBeLessThan(MAX_SETTLE_MS + 50);
  });

  it('does not wait on a page at rest', async () => {
    expect(await timeToSettle([])).toBe(0);
  });
});
