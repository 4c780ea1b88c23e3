import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ThrottledSave } from '../../../src/background/chat/throttled-save';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ThrottledSave', () => {
  it('coalesces many pushes into one save of the latest value per interval', async () => {
    const saved: string[] = [];
    const journal = new ThrottledSave<string>(async (value) => void saved.push(value), 250);
    let text = '';
    for (let i = 0; i < 100; i++) journal.push((text += 'x'));
    expect(saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(250);
    expect(saved).toEqual(['x'.repeat(100)]);

    journal.push('later');
    await vi.advanceTimersByTimeAsync(249);
    expect(saved).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(saved).toEqual(['x'.repeat(100), 'later']);
  });

  it('saves a steady stream a handful of times, not once per push', async () => {
    const save = vi.fn(async () => undefined);
    const journal = new ThrottledSave<number>(save, 250);
    for (let i = 1; i <= 200; i++) {
      journal.push(i);
      await vi.advanceTimersByTimeAsync(10); // a token every 10 ms for 2 s
    }
    await journal.flush();
    expect(save.mock.calls.length).toBeGreaterThanOrEqual(8);
    expect(save.mock.calls.length).toBeLessThanOrEqual(10);
    expect(save).toHaveBeenLastCalledWith(200);
  });

  it('flush writes the last value at once and waits for it', async () => {
    const saved: string[] = [];
    const journal = new ThrottledSave<string>(async (value) => void saved.push(value), 250);
    journal.push('a');
    journal.push('ab');
    await journal.flush();
    expect(saved).toEqual(['ab']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toEqual(['ab']); // the timer was cancelled: no duplicate save
  });

  it('flush with nothing pending saves nothing', async () => {
    const save = vi.fn(async () => undefined);
    const journal = new ThrottledSave<string>(save);
    await journal.flush();
    journal.push('x');
    await journal.flush();
    await journal.flush();
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('never runs two saves at once and keeps their order', async () => {
    let active = 0;
    let maxActive = 0;
    const order: string[] = [];
    const journal = new ThrottledSave<string>(async (value) => {
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise((resolve) => setTimeout(resolve, 400)); // a slow database
      order.push(value);
      active--;
    }, 100);
    journal.push('one');
    await vi.advanceTimersByTimeAsync(100);
    journal.push('two');
    await vi.advanceTimersByTimeAsync(100);
    journal.push('three');
    const flushed = journal.flush();
    await vi.advanceTimersByTimeAsync(2000);
    await flushed;
    expect(order).toEqual(['one', 'two', 'three']);
    expect(maxActive).toBe(1);
  });

  it('keeps going after a failed save', async () => {
    const saved: string[] = [];
    let fail = true;
    const journal = new ThrottledSave<string>(async (value) => {
      if (fail) {
        fail = false;
        throw new Error('disk full');
      }
      saved.push(value);
    }, 50);
    journal.push('lost');
    await vi.advanceTimersByTimeAsync(50);
    journal.push('kept');
    await journal.flush();
    expect(saved).toEqual(['kept']);
  });
});
