import { describe, expect, it } from 'vitest';
import { MAX_SETTLE_MS, settlesIn } from '../../../src/content/snapshot/at-rest';

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
