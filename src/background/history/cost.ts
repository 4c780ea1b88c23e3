/**
 * Token and cost arithmetic over usage records (pure). Prices are US dollars per million tokens,
 * looked up by `provider/model`, then by the longest known model prefix (dated model names such as
 * claude-3-5-haiku-20241022 take their family's price).
 */
import type { CostRow, ModelPrice, UsageRecord } from '../../protocol';

/**
 * Published list prices (USD per million tokens: input, output, cached input), checked against the
 * providers' pricing pages in 2025. The user can change any of them in the cost view.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  'openai/gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'openai/gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  'openai/gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'openai/gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'openai/gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'openai/o3': { input: 2, output: 8, cachedInput: 0.5 },
  'openai/o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'anthropic/claude-opus-4': { input: 15, output: 75, cachedInput: 1.5 },
  'anthropic/claude-sonnet-4': { input: 3, output: 15, cachedInput: 0.3 },
  'anthropic/claude-3-7-sonnet': { input: 3, output: 15, cachedInput: 0.3 },
  'anthropic/claude-3-5-sonnet': { input: 3, output: 15, cachedInput: 0.3 },
  'anthropic/claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08 },
  'anthropic/claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1 },
};

/** Providers that run on the user's machine: their calls cost nothing. */
const LOCAL_PROVIDERS = new Set(['ollama', 'lmstudio', 'llamacpp', 'local']);
const FREE: ModelPrice = { input: 0, output: 0 };

export const priceKey = (provider: string, model: string): string => `${provider}/${model}`;

/** The price of a model, or undefined when none is known (its cost then shows as unknown). */
export function priceOf(prices: Readonly<Record<string, ModelPrice>>, provider: string, model: string): ModelPrice | undefined {
  if (LOCAL_PROVIDERS.has(provider)) return prices[priceKey(provider, model)] ?? FREE;
  const key = priceKey(provider, model);
  if (prices[key]) return prices[key];
  let best: string | undefined;
  for (const known of Object.keys(prices)) {
    if (key.startsWith(`${known}-`) && known.length > (best?.length ?? 0)) best = known;
  }
  return best ? prices[best] : undefined;
}

/** Dollars for one call: uncached input, cached input (at its own price) and output, reasoning included. */
export function callCost(record: UsageRecord, price: ModelPrice): number {
  const cached = Math.min(record.cachedInputTokens, record.inputTokens);
  const uncached = record.inputTokens - cached;
  return (uncached * price.input + cached * (price.cachedInput ?? price.input) + record.outputTokens * price.output) / 1_000_000;
}

export function emptyRow(key: string, label: string): CostRow {
  return { key, label, calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, cost: 0, unpricedCalls: 0 };
}

export function addToRow(row: CostRow, record: UsageRecord, price: ModelPrice | undefined): void {
  row.calls++;
  row.inputTokens += record.inputTokens;
  row.cachedInputTokens += record.cachedInputTokens;
  row.outputTokens += record.outputTokens;
  row.reasoningTokens += record.reasoningTokens;
  if (price) row.cost += callCost(record, price);
  else row.unpricedCalls++;
}

/** Sums records into one row per group, in the order groups first appear. */
export function groupCosts(records: UsageRecord[], prices: Readonly<Record<string, ModelPrice>>, groupOf: (record: UsageRecord) => { key: string; label: string } | undefined): CostRow[] {
  const rows = new Map<string, CostRow>();
  for (const record of records) {
    const group = groupOf(record);
    if (!group) continue;
    let row = rows.get(group.key);
    if (!row) rows.set(group.key, (row = emptyRow(group.key, group.label)));
    addToRow(row, record, priceOf(prices, record.provider, record.model));
  }
  return [...rows.values()];
}

/** The local calendar day of a time, as YYYY-MM-DD. */
export function dayOf(time: number): string {
  const date = new Date(time);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
