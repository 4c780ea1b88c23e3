import { describe, expect, it } from 'vitest';
import { medianEstimate } from '../../../scripts/bench-snapshot/load-time';
import { verdict } from '../../../scripts/bench-snapshot/report';

describe('the page-load figure', () => {
  it('gives the median of the pair ratios with the interval that holds the true median', () => {
    const ratios = Array.from({ length: 41 }, (_, i) => 0.8 + i * 0.01); // 0.80 … 1.20
    const estimate = medianEstimate(ratios);
    expect(estimate.p50).toBeCloseTo(1.0);
    // Ranks 14 and 28 of 41: the usual distribution-free 95 % interval of a median.
    expect(estimate.low95).toBeCloseTo(0.93);
    expect(estimate.high95).toBeCloseTo(1.07);
  });

  it('meets the target only when the whole interval does, and says when the noise is too large to tell', () => {
    const row = (low: number, high: number) => ({ metric: 'load', ours: (low + high) / 2, on: 'ours' as const, max: 1.02, interval: { low, high } });
    expect(verdict(row(0.99, 1.01))).toBe('PASS');
    expect(verdict(row(0.91, 1.21))).toBe('UNRESOLVED');
    expect(verdict(row(1.05, 1.2))).toBe('FAIL');
  });
});
