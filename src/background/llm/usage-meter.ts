import type { Usage } from '../../protocol';
import type { CallUsage } from './types';

export type UsageReport = Partial<CallUsage>;

const FIELDS = ['inputTokens', 'outputTokens', 'cachedInputTokens', 'reasoningTokens'] as const;

/**
 * Turns a server's usage reports into one call's totals, whatever its style: one report at the end
 * (OpenAI's include_usage), running totals on every chunk (vLLM's continuous usage stats,
 * Anthropic's message_start then message_delta) or per-chunk deltas. A report is read as a running
 * total — the latest value wins — until a field goes down, which only deltas do; from then on
 * that field is the sum of
 * every report.
 */
export class UsageMeter {
  private readonly totals: CallUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
  private readonly last: Partial<CallUsage> = {};
  private readonly sums: CallUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
  private readonly summing = new Set<keyof CallUsage>();
  private reported = false;

  report(report: UsageReport): void {
    for (const field of FIELDS) {
      const value = report[field];
      if (value === undefined || !Number.isFinite(value) || value < 0) continue;
      this.reported = true;
      const previous = this.last[field];
      this.sums[field] += value;
      if (previous !== undefined && value < previous) this.summing.add(field);
      this.totals[field] = this.summing.has(field) ? this.sums[field] : value;
      this.last[field] = value;
    }
  }

  /** The call's totals, or undefined when the server never said. */
  total(): CallUsage | undefined {
    if (!this.reported) return undefined;
    const { inputTokens, outputTokens } = this.totals;
    // Servers disagree on whether the parts are inside the totals; a part never exceeds its whole.
    return {
      inputTokens: Math.round(inputTokens),
      outputTokens: Math.round(outputTokens),
      cachedInputTokens: Math.round(Math.min(this.totals.cachedInputTokens, inputTokens)),
      reasoningTokens: Math.round(Math.min(this.totals.reasoningTokens, outputTokens)),
    };
  }
}

/** A usage event as the message's stored usage (the parts only where the server reported them). */
export function usageOf(event: Pick<CallUsage, 'inputTokens' | 'outputTokens'> & Partial<CallUsage>): Usage {
  return {
    inputTokens: event.inputTokens,
    outputTokens: event.outputTokens,
    ...(event.cachedInputTokens ? { cachedInputTokens: event.cachedInputTokens } : {}),
    ...(event.reasoningTokens ? { reasoningTokens: event.reasoningTokens } : {}),
  };
}

/** The sum of two calls' usage, as one task's total. */
export function addUsage(a: Usage, b: Usage): Usage {
  return usageOf({
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0),
    reasoningTokens: (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0),
  });
}
