import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../../src/background/history/cost';
import { buildTrace, componentOf, inChain } from '../../../src/background/history/trace';
import type { StoredMessage, UsageRecord } from '../../../src/protocol';
import { agentStep } from '../../support/agent-step';

const ROOT = 'user-0000000a';
const CHAT = `${ROOT}:chat-0000000b`;
const message = (id: string, role: StoredMessage['role'], requestId: string, createdAt: number): StoredMessage => ({ id, conversationId: 'c1', role, content: `${role} text`, status: 'complete', createdAt, requestId });
const usage = (requestId: string, createdAt: number): UsageRecord => ({
  requestId, kind: 'agent', provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, createdAt,
});

describe('componentOf and inChain', () => {
  it('names the component from the last link and matches whole links only', () => {
    expect(componentOf(`${CHAT}:step-0000000c`)).toBe('Agent step (Harbor, then the tool)');
    expect(componentOf(`${CHAT}:llm-0000000d`)).toBe('Model router');
    expect(inChain(`${CHAT}:llm-1`, ROOT)).toBe(true);
    expect(inChain('user-0000000ab:chat-1', ROOT)).toBe(false);
  });
});

describe('buildTrace', () => {
  it('leads from the user message through model calls and tool calls, leaving other requests out', () => {
    const entries = buildTrace(
      ROOT,
      {
        messages: [message('u1', 'user', CHAT, 10), message('a1', 'assistant', CHAT, 11), message('u2', 'user', 'user-000000ff:chat-1', 50)],
        steps: [agentStep({ id: 's1', requestId: `${CHAT}:step-0000000c`, createdAt: 13, tool: 'click', target: { role: 'button', name: 'Add to cart' }, verdict: 'ask', decision: 'allow-once', status: 'done', result: { success: true, summary: 'clicked' }, site: 'http://127.0.0.1' })],
        usage: [usage(`${CHAT}:llm-0000000d`, 12), usage('user-000000ff:chat-1:llm-2', 51)],
      },
      DEFAULT_PRICES,
    );
    expect(entries.map((e) => [e.kind, e.component])).toEqual([
      ['user-message', 'Sidebar (you)'],
      ['answer', 'Chat service'],
      ['model-call', 'Model router'],
      ['tool-call', 'Agent step (Harbor, then the tool)'],
    ]);
    expect(entries[2]!.usage).toMatchObject({ model: 'gpt-4o-mini', inputTokens: 1_000_000, cost: 0.15 });
    expect(entries[3]).toMatchObject({ title: 'click “Add to cart”', verdict: 'ask', decision: 'allow-once', status: 'done', site: 'http://127.0.0.1' });
    expect(entries.every((e) => inChain(e.requestId, ROOT))).toBe(true);
  });
});
