import { describe, expect, it } from 'vitest';
import { TaskTracker } from '../../cli/task-tracker';
import type { AgentStep, StoredMessage } from '../../src/protocol';

const REQUEST = 'runner-1a2b3c4d';

function step(overrides: Partial<AgentStep> = {}): AgentStep {
  return {
    id: 'step-1', conversationId: 'c1', messageId: 'a1', requestId: `${REQUEST}:chat-00000000:agent-00000000:step-1`,
    index: 0, createdAt: 1, tool: 'click', params: { ref: 'e3' }, site: 'http://127.0.0.1', level: 'interact',
    critical: false, reasons: ['Clicks a button'], egress: [], verdict: 'ask', grantable: true, promptRaised: true,
    status: 'asking', ...overrides,
  };
}

function message(overrides: Partial<StoredMessage> = {}): StoredMessage {
  return { id: 'a1', conversationId: 'c1', role: 'assistant', content: 'Done.', status: 'complete', createdAt: 2, requestId: `${REQUEST}:chat-00000000`, ...overrides };
}

const start = (requestId = REQUEST, assistantId = 'a1') => ({
  type: 'CHAT_RESPONSE', requestId,
  payload: { phase: 'start', conversation: { id: 'c1', title: 't', createdAt: 1, updatedAt: 1 }, assistantMessage: message({ id: assistantId, status: 'streaming', content: '' }) },
});
const final = (requestId = REQUEST, overrides: Partial<StoredMessage> = {}) => ({
  type: 'CHAT_RESPONSE', requestId, payload: { phase: 'final', conversationId: 'c1', message: message(overrides) },
});

describe('TaskTracker', () => {
  it('finishes with the final answer of its own assistant message', () => {
    const tracker = new TaskTracker(REQUEST);
    tracker.receive(start());
    tracker.receive(final());
    expect(tracker.state).toEqual({ kind: 'finished', conversationId: 'c1', answer: message() });
  });

  it('ignores another task’s answers and steps broadcast to every Port', () => {
    const tracker = new TaskTracker(REQUEST);
    tracker.receive(start());
    tracker.receive(start('user-99999999', 'other'));
    tracker.receive({ type: 'PERMISSION_REQUEST', requestId: 'user-99999999', payload: { step: step({ id: 'x', messageId: 'other', requestId: 'user-99999999:chat-1' }) } });
    tracker.receive(final('user-99999999', { id: 'other' }));
    expect(tracker.state.kind).toBe('running');
    expect(tracker.takePrompts()).toEqual([]);
  });

  it('hands out each permission prompt once, even when asked again', () => {
    const tracker = new TaskTracker(REQUEST);
    tracker.receive(start());
    tracker.receive({ type: 'PERMISSION_REQUEST', requestId: REQUEST, payload: { step: step() } });
    tracker.receive({ type: 'PERMISSION_REQUEST', requestId: REQUEST, payload: { step: step() } });
    expect(tracker.takePrompts().map((s) => s.id)).toEqual(['step-1']);
    expect(tracker.takePrompts()).toEqual([]);
    expect(tracker.allPrompts()).toHaveLength(1);
  });

  it('keeps the latest state of every step, in index order', () => {
    const tracker = new TaskTracker(REQUEST);
    tracker.receive(start());
    tracker.receive({ type: 'ACTION_LOG_UPDATE', requestId: REQUEST, payload: { step: step({ id: 's2', index: 1, status: 'running', verdict: 'auto-approve' }) } });
    tracker.receive({ type: 'ACTION_LOG_UPDATE', requestId: REQUEST, payload: { step: step({ id: 's1', index: 0, tool: 'snapshot', status: 'done' }) } });
    tracker.receive({ type: 'ACTION_LOG_UPDATE', requestId: REQUEST, payload: { step: step({ id: 's2', index: 1, status: 'denied', decision: 'deny' }) } });
    expect(tracker.stepsInOrder().map((s) => [s.tool, s.status])).toEqual([['snapshot', 'done'], ['click', 'denied']]);
  });

  it('fails on an ERROR for its request or a request chained under it, not on others', () => {
    const tracker = new TaskTracker(REQUEST);
    tracker.receive({ type: 'ERROR', requestId: 'user-12345678', payload: { code: 'LLM_ERROR', message: 'not ours' } });
    expect(tracker.state.kind).toBe('running');
    tracker.receive({ type: 'ERROR', requestId: `${REQUEST}:answer-12345678`, payload: { code: 'NOT_FOUND', message: 'No such step' } });
    expect(tracker.state).toEqual({ kind: 'failed', error: { code: 'NOT_FOUND', message: 'No such step' } });
  });

  it('skips malformed messages instead of trusting them', () => {
    const tracker = new TaskTracker(REQUEST);
    tracker.receive({ type: 'CHAT_RESPONSE', requestId: REQUEST, payload: { phase: 'final', conversationId: 'c1', message: { id: 'a1' } } });
    tracker.receive('not even an object');
    expect(tracker.state.kind).toBe('running');
  });
});
