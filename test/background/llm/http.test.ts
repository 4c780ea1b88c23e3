import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffMs, MAX_ATTEMPTS, ProviderCall, retryAfterMs } from '../../../src/background/llm/http';
import type { LlmConfig } from '../../../src/background/llm/types';

const config: LlmConfig = { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', timeoutSeconds: 2 };

describe('retryAfterMs', () => {
  const headers = (init: Record<string, string>) => new Headers(init);

  it('reads Retry-After in seconds, fractions included', () => {
    expect(retryAfterMs(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(headers({ 'retry-after': '0' }))).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after': ' 1.5 ' }))).toBe(1500);
  });

  it('reads Retry-After as an HTTP date, relative to now', () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    const in10s = new Date(now + 10_000).toUTCString();
    expect(retryAfterMs(headers({ 'retry-after': in10s }), now)).toBe(10_000);
  });

  it('never returns a negative wait for a date in the past', () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    expect(retryAfterMs(headers({ 'retry-after': new Date(now - 60_000).toUTCString() }), now)).toBe(0);
  });

  it('prefers OpenAI’s retry-after-ms', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '30' }))).toBe(250);
  });

  it('ignores a missing or unreadable header', () => {
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after-ms': 'x', 'retry-after': '2' }))).toBe(2000);
  });
});

describe('backoffMs', () => {
  it('doubles from 500 ms with ±20% jitter', () => {
    expect(backoffMs(1, () => 0.5)).toBe(500);
    expect(backoffMs(2, () => 0.5)).toBe(1000);
    expect(backoffMs(3, () => 0.5)).toBe(2000);
    expect(backoffMs(1, () => 0)).toBe(400);
    expect(backoffMs(1, () => 1)).toBe(600);
  });

  it('never waits longer than 9.6 s however many attempts', () => {
    for (const attempt of [5, 10, 50]) {
      expect(backoffMs(attempt, () => 0.5)).toBe(8000);
      expect(backoffMs(attempt, () => 1)).toBe(9600);
    }
  });

  it('stays within bounds with real randomness', () => {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS + 3; attempt++) {
      const base = Math.min(8000, 500 * 2 ** (attempt - 1));
      const wait = backoffMs(attempt);
      expect(wait).toBeGreaterThanOrEqual(base * 0.8);
      expect(wait).toBeLessThanOrEqual(base * 1.2);
    }
  });
});

describe('ProviderCall', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has no abort error until something fires', () => {
    expect(new ProviderCall(config).abortError()).toBeUndefined();
  });

  it('turns the user’s stop into a cancelled error, even when already stopped', () => {
    const user = new AbortController();
    const call = new ProviderCall(config, user.signal);
    user.abort();
    expect(call.abortError()?.kind).toBe('cancelled');

    const early = new AbortController();
    early.abort();
    expect(new ProviderCall(config, early.signal).abortError()?.kind).toBe('cancelled');
  });

  it('times out after timeoutSeconds and says which phase stalled', () => {
    vi.useFakeTimers();
    const call = new ProviderCall(config);
    call.armTimeout('timeout-first-byte');
    vi.advanceTimersByTime(1999);
    expect(call.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(call.abortError()).toMatchObject({ kind: 'timeout', code: 'TIMEOUT', message: 'OpenAI did not answer within 2 s.' });

    const idle = new ProviderCall(config);
    idle.armTimeout('timeout-idle');
    vi.advanceTimersByTime(2000);
    expect(idle.abortError()?.message).toBe('OpenAI stopped sending within 2 s.');
  });

  it('re-arming the watchdog restarts the countdown; disarming stops it', () => {
    vi.useFakeTimers();
    const call = new ProviderCall(config);
    call.armTimeout('timeout-idle');
    vi.advanceTimersByTime(1500);
    call.armTimeout('timeout-idle');
    vi.advanceTimersByTime(1500);
    expect(call.signal.aborted).toBe(false);
    call.disarmTimeout();
    vi.advanceTimersByTime(10_000);
    expect(call.signal.aborted).toBe(false);
  });

  it('stops listening to the user’s signal once finished', () => {
    const user = new AbortController();
    const call = new ProviderCall(config, user.signal);
    call.finish();
    user.abort();
    expect(call.signal.aborted).toBe(false);
  });
});
