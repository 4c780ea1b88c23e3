import { describe, expect, it } from 'vitest';
import { callCost, DEFAULT_PRICES, groupCosts, priceOf } from '../../../src/background/history/cost';
import type { UsageRecord } from '../../../src/protocol';

const record = (extra: Partial<UsageRecord> = {}): UsageRecord => ({
  requestId: 'user-00000001:llm-00000002', kind: 'chat', provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o',
  inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, createdAt: 0, ...extra,
});

describe('callCost', () => {
  it('prices uncached input, cached input and output apart (reasoning is part of output)', () => {
    // 1M input of which 400k cached, 100k output (20k of it reasoning) on gpt-4o: 0.6×2.5 + 0.4×1.25 + 0.1×10.
    const cost = callCost(record({ inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000, reasoningTokens: 20_000 }), DEFAULT_PRICES['openai/gpt-4o']!);
    expect(cost).toBeCloseTo(1.5 + 0.5 + 1, 10);
  });

  it('charges cached tokens at the input price when the model has no cache price', () => {
    expect(callCost(record({ inputTokens: 1_000_000, cachedInputTokens: 1_000_000 }), { input: 3, output: 15 })).toBeCloseTo(3, 10);
  });
});

describe('priceOf', () => {
  it('finds dated model names by their family, the longest family first', () => {
    expect(priceOf(DEFAULT_PRICES, 'anthropic', 'claude-3-5-haiku-20241022')).toEqual(DEFAULT_PRICES['anthropic/claude-3-5-haiku']);
    expect(priceOf(DEFAULT_PRICES, 'openai', 'gpt-4o-mini-2024-07-18')).toEqual(DEFAULT_PRICES['openai/gpt-4o-mini']);
  });

  it('knows local models are free and unknown ones have no price', () => {
    expect(priceOf(DEFAULT_PRICES, 'ollama', 'llama3.1')).toEqual({ input: 0, output: 0 });
    expect(priceOf(DEFAULT_PRICES, 'openrouter', 'some/new-model')).toBeUndefined();
  });

  it('lets a price the user set win over the default', () => {
    const prices = { ...DEFAULT_PRICES, 'openai/gpt-4o': { input: 1, output: 1 } };
    expect(priceOf(prices, 'openai', 'gpt-4o')).toEqual({ input: 1, output: 1 });
  });
});

describe('groupCosts', () => {
  it('sums tokens and cost per group and counts calls it cannot price', () => {
    const rows = groupCosts(
      [
        record({ inputTokens: 1_000_000, outputTokens: 0 }),
        record({ provider: 'anthropic', model: 'claude-sonnet-4-20250514', outputTokens: 1_000_000 }),
        record({ provider: 'openrouter', model: 'mystery', inputTokens: 10, outputTokens: 5, reasoningTokens: 2 }),
        record({ inputTokens: 500, cachedInputTokens: 100, outputTokens: 50 }),
      ],
      DEFAULT_PRICES,
      (r) => ({ key: r.provider, label: r.provider }),
    );
    expect(rows.map((r) => [r.key, r.calls, r.unpricedCalls])).toEqual([['openai', 2, 0], ['anthropic', 1, 0], ['openrouter', 1, 1]]);
    expect(rows[0]).toMatchObject({ inputTokens: 1_000_500, cachedInputTokens: 100, outputTokens: 50 });
    expect(rows[1]!.cost).toBeCloseTo(15, 10);
    expect(rows[2]).toMatchObject({ cost: 0, reasoningTokens: 2 });
  });
});
