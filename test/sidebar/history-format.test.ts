import { describe, expect, it } from 'vitest';
import { formatCost, formatTokens, groupByDate, segments } from '../../src/sidebar/history-format';

const NOW = new Date(2026, 10, 23, 15, 0).getTime();
const DAY = 86_400_000;
const c = (id: string, updatedAt: number, pinned?: boolean) => ({ id, title: id, createdAt: 0, updatedAt, ...(pinned ? { pinned } : {}) });

describe('groupByDate', () => {
  it('puts pinned first, then today, yesterday, the last 7 and 30 days, then months', () => {
    const groups = groupByDate([c('old', NOW - 90 * DAY), c('today', NOW - 3600_000), c('pin', NOW - 200 * DAY, true), c('yesterday', NOW - DAY), c('week', NOW - 4 * DAY), c('month', NOW - 20 * DAY)], NOW, 'en-US');
    expect(groups.map((g) => [g.label, g.conversations.map((x) => x.id)])).toEqual([
      ['Pinned', ['pin']],
      ['Today', ['today']],
      ['Yesterday', ['yesterday']],
      ['Previous 7 days', ['week']],
      ['Previous 30 days', ['month']],
      ['August 2026', ['old']],
    ]);
  });
});

describe('segments', () => {
  it('cuts a snippet at its marks, ignoring overlapping or out-of-range ones', () => {
    expect(segments({ text: 'the blue kettle', marks: [[9, 15], [4, 8], [5, 7], [14, 40]] })).toEqual([
      { text: 'the ', marked: false },
      { text: 'blue', marked: true },
      { text: ' ', marked: false },
      { text: 'kettle', marked: true },
    ]);
  });
});

describe('formatCost and formatTokens', () => {
  it('shows dollars with sensible digits, + when some calls have no price, — when none has', () => {
    expect(formatCost({ cost: 0.00042, calls: 1, unpricedCalls: 0 })).toBe('$0.0004');
    expect(formatCost({ cost: 0.475, calls: 2, unpricedCalls: 1 })).toBe('$0.475+');
    expect(formatCost({ cost: 12.5, calls: 3, unpricedCalls: 0 })).toBe('$12.50');
    expect(formatCost({ cost: 0, calls: 2, unpricedCalls: 2 })).toBe('—');
    expect(formatTokens({ inputTokens: 200_000, cachedInputTokens: 100_000, outputTokens: 950, reasoningTokens: 120 })).toBe('200.0k in (100.0k cached) · 950 out (120 reasoning)');
  });

  it('words a streamed reply\'s own usage (cached and reasoning may be missing) as the cost meter does', () => {
    expect(formatTokens({ inputTokens: 20, outputTokens: 12, reasoningTokens: 7 })).toBe('20 in · 12 out (7 reasoning)');
    expect(formatTokens({ inputTokens: 1_234, outputTokens: 5 })).toBe('1,234 in · 5 out');
  });
});
