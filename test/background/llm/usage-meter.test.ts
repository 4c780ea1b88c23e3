import { describe, expect, it } from 'vitest';
import { addUsage, UsageMeter, type UsageReport } from '../../../src/background/llm/usage-meter';

const total = (reports: UsageReport[]) => {
  const meter = new UsageMeter();
  for (const report of reports) meter.report(report);
  return meter.total();
};

describe('UsageMeter', () => {
  it('has no total when the server never reported', () => {
    expect(total([])).toBeUndefined();
    expect(total([{ inputTokens: undefined }])).toBeUndefined();
  });

  it('takes a final-only report as it is', () => {
    expect(total([{ inputTokens: 17, outputTokens: 10 }])).toEqual({ inputTokens: 17, outputTokens: 10, cachedInputTokens: 0, reasoningTokens: 0 });
  });

  it('counts running totals once: the last one wins', () => {
    expect(total([1, 2, 3, 4].map((n) => ({ inputTokens: 50, outputTokens: n })))).toMatchObject({ inputTokens: 50, outputTokens: 4 });
  });

  it('sums per-chunk deltas once a count goes down', () => {
    expect(total([{ inputTokens: 50, outputTokens: 3 }, { outputTokens: 5 }, { outputTokens: 2 }, { outputTokens: 1 }])).toMatchObject({ inputTokens: 50, outputTokens: 11 });
  });

  it('merges Anthropic’s message_start and message_delta', () => {
    expect(total([{ inputTokens: 28, outputTokens: 1, cachedInputTokens: 0 }, { outputTokens: 106, reasoningTokens: 67 }])).toEqual({
      inputTokens: 28,
      outputTokens: 106,
      cachedInputTokens: 0,
      reasoningTokens: 67,
    });
  });

  it('never lets a part exceed its whole', () => {
    expect(total([{ inputTokens: 5, cachedInputTokens: 9, outputTokens: 1, reasoningTokens: 4 }])).toMatchObject({ cachedInputTokens: 5, reasoningTokens: 1 });
  });
});

describe('addUsage', () => {
  it('sums two calls, keeping the parts only where there are some', () => {
    expect(addUsage({ inputTokens: 10, outputTokens: 2 }, { inputTokens: 5, outputTokens: 1, reasoningTokens: 1 })).toEqual({ inputTokens: 15, outputTokens: 3, reasoningTokens: 1 });
  });
});
