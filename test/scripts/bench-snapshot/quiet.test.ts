import { describe, expect, it } from 'vitest';
import { untilQuiet, type CpuTimes } from '../../../scripts/bench-snapshot/quiet';

/** CPU times that advance by one window's worth per read, busy for the first `busyReads` windows. */
function machine(busyReads: number): { times: () => CpuTimes; reads: () => number } {
  let reads = 0;
  let idle = 0;
  let total = 0;
  return {
    times() {
      if (reads > 0) {
        idle += reads <= busyReads ? 20 : 95;
        total += 100;
      }
      reads++;
      return { idle, total };
    },
    reads: () => reads,
  };
}

describe('waiting for a quiet machine before timed samples', () => {
  it('goes on at the first window in which the cores were idle enough', async () => {
    const cpu = machine(3);
    expect(await untilQuiet({ windowMs: 1, limitMs: 5_000, times: cpu.times })).toBe(true);
    expect(cpu.reads()).toBe(5); // the start, three busy windows, the quiet one
  });

  it('gives up at its limit on a machine that stays busy, and says so', async () => {
    const cpu = machine(Number.POSITIVE_INFINITY);
    expect(await untilQuiet({ windowMs: 5, limitMs: 40, times: cpu.times })).toBe(false);
    expect(cpu.reads()).toBeGreaterThan(2);
  });
});
