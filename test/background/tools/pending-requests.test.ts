import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PendingRequests } from '../../../src/background/tools/pending-requests';

const never = new AbortController().signal;

describe('PendingRequests', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is idle at once when the action started no request', async () => {
    const requests = new PendingRequests();
    await expect(requests.idle(5_000, never)).resolves.toBe(true);
    expect(requests.freshCount).toBe(0);
  });

  it('becomes idle when the last request the action started is answered, not before', async () => {
    const requests = new PendingRequests();
    requests.started('1');
    requests.started('2');
    let idle: boolean | undefined;
    void requests.idle(5_000, never).then((value) => (idle = value));
    requests.ended('1');
    await vi.advanceTimersByTimeAsync(0);
    expect(idle).toBeUndefined();
    requests.ended('2');
    await vi.advanceTimersByTimeAsync(0);
    expect(idle).toBe(true);
    expect(requests.freshCount).toBe(2);
  });

  it('ignores the end of a request that began before the watch (a long poll answered meanwhile)', async () => {
    const requests = new PendingRequests();
    requests.started('mine');
    requests.ended('older');
    expect(requests.pendingCount).toBe(1);
  });

  it('gives up at its deadline, still counting what is unanswered', async () => {
    const requests = new PendingRequests();
    requests.started('stuck');
    const idle = requests.idle(5_000, never);
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(idle).resolves.toBe(false);
    expect(requests.pendingCount).toBe(1);
  });

  it('waits out a request that never answers once: after the wait it is no longer followed', async () => {
    const requests = new PendingRequests();
    requests.started('stuck');
    expect(requests.settled()).toBe(1);
    expect(requests.freshCount).toBe(0);
    await expect(requests.idle(5_000, never)).resolves.toBe(true);
    requests.started('next');
    expect(requests.freshCount).toBe(1);
  });

  it('stops waiting when the task is stopped', async () => {
    const requests = new PendingRequests();
    requests.started('stuck');
    const stop = new AbortController();
    const idle = requests.idle(5_000, stop.signal);
    stop.abort();
    await expect(idle).resolves.toBe(false);
  });
});
