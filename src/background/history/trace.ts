/**
 * A user request's trace (seed 000's request-id chains): the user message, the answer, each model
 * call with its usage and each tool call with Harbor's decision, every one named after the
 * component that did it. Pure: the handler reads the rows.
 */
import { chainRoot, type AgentStep, type ModelPrice, type StoredMessage, type TraceEntry, type UsageRecord } from '../../protocol';
import { callCost, priceOf } from './cost';

const COMPONENTS: Record<string, string> = {
  user: 'Sidebar (you)',
  chat: 'Chat service',
  agent: 'Agent runner',
  step: 'Agent step (Harbor, then the tool)',
  llm: 'Model router',
  tool: 'Tool registry',
  read: 'Page reader',
  snapshot: 'Snapshot tool',
  act: 'Page action',
  describe: 'Target description',
  highlight: 'Highlighter',
};

/** The component named by a chain's last link (`user-1a2b:chat-9f8e` → Chat service). */
export function componentOf(requestId: string): string {
  const kind = (requestId.split(':').at(-1) ?? '').replace(/-[0-9a-f]+$/, '');
  return COMPONENTS[kind] ?? kind;
}

/** True when `requestId` is the chain itself or one of its sub-requests. */
export function inChain(requestId: string, root: string): boolean {
  return requestId === root || requestId.startsWith(`${root}:`);
}

function messageEntry(message: StoredMessage): TraceEntry {
  const user = message.role === 'user';
  return {
    requestId: message.requestId,
    component: user ? COMPONENTS.user! : componentOf(message.requestId),
    kind: user ? 'user-message' : 'answer',
    at: message.createdAt,
    title: user ? message.content.slice(0, 200) : `Answer${message.model ? ` (${message.model})` : ''}`,
    ...(user ? {} : { detail: message.content.slice(0, 500) }),
    status: message.status,
  };
}

function stepEntry(step: AgentStep): TraceEntry {
  const target = step.target?.name ? ` “${step.target.name}”` : '';
  return {
    requestId: step.requestId,
    component: componentOf(step.requestId),
    kind: 'tool-call',
    at: step.createdAt,
    title: `${step.tool}${target}`,
    ...(step.result ? { detail: step.result.summary } : {}),
    status: step.status,
    verdict: step.verdict,
    ...(step.decision ? { decision: step.decision } : {}),
    ...(step.site ? { site: step.site } : {}),
    ...(step.duration === undefined ? {} : { durationMs: step.duration }),
  };
}

function usageEntry(record: UsageRecord, prices: Readonly<Record<string, ModelPrice>>): TraceEntry {
  const price = priceOf(prices, record.provider, record.model);
  const { provider, model, inputTokens, cachedInputTokens, outputTokens, reasoningTokens } = record;
  return {
    requestId: record.requestId,
    component: componentOf(record.requestId),
    kind: 'model-call',
    at: record.createdAt,
    title: `${record.kind} call to ${model}`,
    usage: { provider, model, inputTokens, cachedInputTokens, outputTokens, reasoningTokens, ...(price ? { cost: callCost(record, price) } : {}) },
  };
}

/** Everything of the chain `root`, oldest first (a parent before its sub-requests at the same time). */
export function buildTrace(root: string, rows: { messages: StoredMessage[]; steps: AgentStep[]; usage: UsageRecord[] }, prices: Readonly<Record<string, ModelPrice>>): TraceEntry[] {
  const entries = [
    ...rows.messages.filter((m) => chainRoot(m.requestId) === root).map(messageEntry),
    ...rows.steps.filter((s) => chainRoot(s.requestId) === root).map(stepEntry),
    ...rows.usage.filter((u) => inChain(u.requestId, root)).map((u) => usageEntry(u, prices)),
  ];
  const order = { 'user-message': 0, answer: 1, 'model-call': 2, 'tool-call': 2 } as const;
  return entries.sort((a, b) => a.at - b.at || order[a.kind] - order[b.kind] || a.requestId.split(':').length - b.requestId.split(':').length);
}
