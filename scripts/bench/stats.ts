/** Order statistics for small samples (a handful of cold opens, a few hundred tokens). */

export interface Summary {
  n: number;
  min: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/**
 * Nearest-rank percentile (no interpolation): always a value that was really measured. With n = 9,
 * p95 is the slowest run — deliberately pessimistic for a small sample.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const s = sorted(values);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[rank - 1]!;
}

/** The usual median (mean of the two middle values when n is even). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function summarize(values: readonly number[]): Summary {
  const total = values.reduce((sum, v) => sum + v, 0);
  return {
    n: values.length,
    min: values.length ? Math.min(...values) : Number.NaN,
    p50: median(values),
    p95: percentile(values, 95),
    max: values.length ? Math.max(...values) : Number.NaN,
    mean: values.length ? total / values.length : Number.NaN,
  };
}

export const round = (value: number, digits = 1): number => Number(value.toFixed(digits));
