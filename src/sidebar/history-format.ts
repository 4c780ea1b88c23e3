/** Pure helpers of the history view: date groups, highlighted snippets, file names. */
import type { Conversation, CostRow, Snippet } from '../protocol';

export interface ConversationGroup {
  label: string;
  conversations: Conversation[];
}

const DAY_MS = 86_400_000;
/** The pause in typing after which the history view searches. */
export const SEARCH_DELAY_MS = 120;

function startOfDay(time: number): number {
  const date = new Date(time);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** Pinned first, then Today, Yesterday, Previous 7 days, Previous 30 days, then one group per month. */
export function groupByDate(conversations: Conversation[], now: number, locale?: string): ConversationGroup[] {
  const today = startOfDay(now);
  const labelOf = (c: Conversation): string => {
    if (c.pinned) return 'Pinned';
    if (c.updatedAt >= today) return 'Today';
    if (c.updatedAt >= today - DAY_MS) return 'Yesterday';
    if (c.updatedAt >= today - 7 * DAY_MS) return 'Previous 7 days';
    if (c.updatedAt >= today - 30 * DAY_MS) return 'Previous 30 days';
    return new Date(c.updatedAt).toLocaleDateString(locale, { year: 'numeric', month: 'long' });
  };
  const ordered = [...conversations].sort((a, b) => Number(b.pinned ?? false) - Number(a.pinned ?? false) || b.updatedAt - a.updatedAt);
  const groups: ConversationGroup[] = [];
  for (const conversation of ordered) {
    const label = labelOf(conversation);
    const last = groups.at(-1);
    if (last?.label === label) last.conversations.push(conversation);
    else groups.push({ label, conversations: [conversation] });
  }
  return groups;
}

export interface Segment {
  text: string;
  marked: boolean;
}

/** A snippet cut at its marks, to render as text nodes and <mark> elements (never as HTML). */
export function segments({ text, marks }: Snippet): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  for (const [start, end] of [...marks].sort((a, b) => a[0] - b[0])) {
    if (start < at || end > text.length || end <= start) continue;
    if (start > at) out.push({ text: text.slice(at, start), marked: false });
    out.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) out.push({ text: text.slice(at), marked: false });
  return out;
}

/** "$0.0123", "$1.20", "$0.40+" when some calls have no price, "—" when none has. */
export function formatCost(row: Pick<CostRow, 'cost' | 'calls' | 'unpricedCalls'>): string {
  if (row.calls > 0 && row.unpricedCalls === row.calls) return '—';
  const digits = row.cost >= 1 ? 2 : row.cost >= 0.01 ? 3 : 4;
  return `$${row.cost.toFixed(digits)}${row.unpricedCalls > 0 ? '+' : ''}`;
}

/** "12.3k in (2.0k cached) · 456 out (120 reasoning)". */
export function formatTokens(row: Pick<CostRow, 'inputTokens' | 'outputTokens'> & Partial<Pick<CostRow, 'cachedInputTokens' | 'reasoningTokens'>>): string {
  const n = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(1)}k` : value.toLocaleString('en'));
  const cached = row.cachedInputTokens ? ` (${n(row.cachedInputTokens)} cached)` : '';
  const reasoning = row.reasoningTokens ? ` (${n(row.reasoningTokens)} reasoning)` : '';
  return `${n(row.inputTokens)} in${cached} · ${n(row.outputTokens)} out${reasoning}`;
}
