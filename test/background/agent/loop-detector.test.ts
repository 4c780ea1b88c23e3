import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../../../src/background/agent/loop-detector';

describe('LoopDetector', () => {
  it('stops at the third failure of the same call, whatever the key order', () => {
    const loops = new LoopDetector();
    expect(loops.record('click', { ref: 'e1', selector: undefined }, false)).toBeUndefined();
    expect(loops.record('snapshot', {}, true)).toBeUndefined();
    expect(loops.record('click', { ref: 'e1' }, false)).toBeUndefined();
    expect(loops.record('click', { ref: 'e1' }, false)).toMatch(/click failed 3 times/);
  });

  it('does not count failures of different calls together', () => {
    const loops = new LoopDetector();
    for (const ref of ['e1', 'e2', 'e3', 'e4', 'e5']) expect(loops.record('click', { ref }, false)).toBeUndefined();
  });

  it('stops a call repeated four times in a row even when it succeeds', () => {
    const loops = new LoopDetector();
    const params = { direction: 'down', amount: 500 };
    expect(loops.record('scroll', params, true)).toBeUndefined();
    expect(loops.record('scroll', { amount: 500, direction: 'down' }, true)).toBeUndefined();
    expect(loops.record('scroll', params, true)).toBeUndefined();
    expect(loops.record('scroll', params, true)).toMatch(/4 times in a row/);
  });

  it('resets the run when another call comes in between', () => {
    const loops = new LoopDetector();
    for (let round = 0; round < 5; round++) {
      expect(loops.record('snapshot', {}, true)).toBeUndefined();
      expect(loops.record('scroll', { direction: 'down' }, true)).toBeUndefined();
    }
  });
});
