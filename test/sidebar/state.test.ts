import { describe, expect, it } from 'vitest';
import type { AgentStep, BackgroundEvent, ChatResponsePayload, Conversation, StoredMessage } from '../../src/protocol';
import { applyEvent, initialState, isStreaming, isWaiting, pendingPrompts, withBackgroundGone, type ChatState } from '../../src/sidebar/state';
import { agentStep } from '../support/agent-step';

const OWN = 'user-00000001';
const OTHER = 'user-00000002';
const own = new Set([OWN]);

const conv = (id: string, updatedAt = 100): Conversation => ({ id, title: `Title ${id}`, createdAt: 1, updatedAt });
const msg = (id: string, conversationId: string, createdAt: number, extra: Partial<StoredMessage> = {}): StoredMessage => ({
  id,
  conversationId,
  role: 'user',
  content: `content ${id}`,
  status: 'complete',
  createdAt,
  requestId: OWN,
  ...extra,
});

const chatEvent = (payload: ChatResponsePayload, requestId = OWN): BackgroundEvent => ({ type: 'CHAT_RESPONSE', requestId, payload });
const start = (conversation: Conversation, userMessage: StoredMessage | undefined, assistantMessage: StoredMessage, replaces?: string): ChatResponsePayload => ({
  phase: 'start',
  conversation,
  ...(userMessage ? { userMessage } : {}),
  assistantMessage,
  ...(replaces ? { replaces } : {}),
});
const apply = (state: ChatState, ...events: BackgroundEvent[]) => events.reduce((s, e) => applyEvent(s, e, own), state);

/** A sidebar showing conversation c1 with one finished exchange (u1, a1). */
function showing(): ChatState {
  return {
    ...initialState,
    conversation: conv('c1'),
    conversations: [conv('c1')],
    messages: [msg('u1', 'c1', 10), msg('a1', 'c1', 11, { role: 'assistant', content: 'Answer one' })],
  };
}

describe('applyEvent: CHAT_RESPONSE start', () => {
  it('switches to the new conversation this sidebar started', () => {
    const state = apply(
      showing(),
      chatEvent(start(conv('c2', 200), msg('u9', 'c2', 20), msg('a9', 'c2', 21, { role: 'assistant', content: '', status: 'streaming' }))),
    );
    expect(state.conversation?.id).toBe('c2');
    expect(state.messages.map((m) => m.id)).toEqual(['u9', 'a9']);
    expect(state.conversations.map((c) => c.id)).toEqual(['c2', 'c1']);
    expect(isStreaming(state)).toBe(true);
  });

  it('only updates the list when another window starts a conversation', () => {
    const before = showing();
    const state = applyEvent(
      before,
      chatEvent(start(conv('c2', 200), msg('u9', 'c2', 20), msg('a9', 'c2', 21, { role: 'assistant', status: 'streaming' })), OTHER),
      own,
    );
    expect(state.conversation?.id).toBe('c1');
    expect(state.messages).toEqual(before.messages);
    expect(state.conversations.map((c) => c.id)).toEqual(['c2', 'c1']);
    expect(isStreaming(state)).toBe(false);
  });

  it('follows another window’s new turn in the conversation this sidebar shows', () => {
    const state = applyEvent(
      showing(),
      chatEvent(start(conv('c1', 300), msg('u2', 'c1', 30), msg('a2', 'c1', 31, { role: 'assistant', content: '', status: 'streaming' })), OTHER),
      own,
    );
    expect(state.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
  });

  it('clears the error banner', () => {
    const state = apply(
      { ...showing(), banner: { code: 'LLM_ERROR', message: 'old' } },
      chatEvent(start(conv('c1'), msg('u2', 'c1', 30), msg('a2', 'c1', 31, { role: 'assistant' }))),
    );
    expect(state.banner).toBeUndefined();
  });
});

describe('applyEvent: deltas and final', () => {
  it('appends deltas to the right message, in order', () => {
    let state = apply(showing(), chatEvent(start(conv('c1'), msg('u2', 'c1', 30), msg('a2', 'c1', 31, { role: 'assistant', content: '', status: 'streaming' }))));
    state = apply(
      state,
      chatEvent({ phase: 'delta', conversationId: 'c1', messageId: 'a2', text: 'Hel' }),
      chatEvent({ phase: 'delta', conversationId: 'c1', messageId: 'a2', text: 'lo' }),
    );
    expect(state.messages.find((m) => m.id === 'a2')?.content).toBe('Hello');
    expect(state.messages.find((m) => m.id === 'a1')?.content).toBe('Answer one');
  });

  it('gathers thinking apart from the answer', () => {
    let state = apply(showing(), chatEvent(start(conv('c1'), msg('u2', 'c1', 30), msg('a2', 'c1', 31, { role: 'assistant', content: '', status: 'streaming' }))));
    state = apply(
      state,
      chatEvent({ phase: 'thinking', conversationId: 'c1', messageId: 'a2', text: 'Hmm, ' }),
      chatEvent({ phase: 'thinking', conversationId: 'c1', messageId: 'a2', text: 'greet.' }),
      chatEvent({ phase: 'delta', conversationId: 'c1', messageId: 'a2', text: 'Hi' }),
    );
    expect(state.messages.find((m) => m.id === 'a2')).toMatchObject({ reasoning: 'Hmm, greet.', content: 'Hi' });
  });

  it('ignores deltas for a conversation that is not shown', () => {
    const before = showing();
    const state = apply(before, chatEvent({ phase: 'delta', conversationId: 'c2', messageId: 'a1', text: 'leak' }));
    expect(state).toBe(before);
  });

  it('final replaces the streaming message with the stored one', () => {
    let state = apply(showing(), chatEvent(start(conv('c1'), msg('u2', 'c1', 30), msg('a2', 'c1', 31, { role: 'assistant', content: '', status: 'streaming' }))));
    state = apply(state, chatEvent({ phase: 'delta', conversationId: 'c1', messageId: 'a2', text: 'Partial' }));
    const stored = msg('a2', 'c1', 31, { role: 'assistant', content: 'Partial and final', status: 'complete', usage: { inputTokens: 1, outputTokens: 2 } });
    state = apply(state, chatEvent({ phase: 'final', conversationId: 'c1', message: stored }));
    expect(state.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(state.messages.at(-1)).toEqual(stored);
    expect(isStreaming(state)).toBe(false);
  });
});

describe('applyEvent: retry', () => {
  it('drops the replaced answer and every later message', () => {
    const state0: ChatState = {
      ...showing(),
      messages: [
        msg('u1', 'c1', 10),
        msg('a1', 'c1', 11, { role: 'assistant' }),
        msg('u2', 'c1', 20),
        msg('a2', 'c1', 21, { role: 'assistant' }),
      ],
    };
    const state = apply(state0, chatEvent(start(conv('c1'), undefined, msg('a1b', 'c1', 30, { role: 'assistant', content: '', status: 'streaming' }), 'a1')));
    expect(state.messages.map((m) => m.id)).toEqual(['u1', 'a1b']);
  });
});

describe('applyEvent: other events', () => {
  it('CONVERSATIONS without the open conversation resets to a new chat', () => {
    const state = apply(showing(), { type: 'CONVERSATIONS', requestId: OTHER, payload: { conversations: [conv('c9')] } });
    expect(state.conversation).toBeNull();
    expect(state.messages).toEqual([]);
    expect(state.conversations.map((c) => c.id)).toEqual(['c9']);
  });

  it('CONVERSATIONS that still has the open conversation keeps it', () => {
    const before = showing();
    const state = apply(before, { type: 'CONVERSATIONS', requestId: OTHER, payload: { conversations: [conv('c1'), conv('c9')] } });
    expect(state.conversation?.id).toBe('c1');
    expect(state.messages).toEqual(before.messages);
    expect(state.conversations).toHaveLength(2);
  });

  it('CONVERSATION opens what this sidebar asked for, and ignores other windows’ requests', () => {
    const payload = { conversation: conv('c5'), messages: [msg('x', 'c5', 1)], steps: [] };
    expect(apply(showing(), { type: 'CONVERSATION', requestId: OWN, payload }).conversation?.id).toBe('c5');
    const ignored = applyEvent(showing(), { type: 'CONVERSATION', requestId: OTHER, payload }, own);
    expect(ignored.conversation?.id).toBe('c1');
  });

  it('ERROR sets the banner; SETTINGS and TEST_RESULT are stored', () => {
    let state = apply(initialState, { type: 'ERROR', requestId: OWN, payload: { code: 'NOT_CONFIGURED', message: 'Choose a model provider in Settings first.' } });
    expect(state.banner).toEqual({ code: 'NOT_CONFIGURED', message: 'Choose a model provider in Settings first.' });
    state = apply(state, { type: 'SETTINGS', requestId: OWN, payload: null });
    expect(state.settings).toBeNull();
    state = apply(state, { type: 'TEST_RESULT', requestId: OWN, payload: { success: true, latencyMs: 12 } });
    expect(state.testResult).toEqual({ success: true, latencyMs: 12 });
  });

  it('never mutates the state it was given', () => {
    const before = showing();
    const snapshot = structuredClone(before);
    apply(
      before,
      chatEvent(start(conv('c1'), msg('u2', 'c1', 30), msg('a2', 'c1', 31, { role: 'assistant', content: '' }))),
      chatEvent({ phase: 'delta', conversationId: 'c1', messageId: 'a1', text: '!' }),
      { type: 'CONVERSATIONS', requestId: OWN, payload: { conversations: [] } },
    );
    expect(before).toEqual(snapshot);
  });
});

const step = (id: string, extra: Partial<AgentStep> = {}): AgentStep =>
  agentStep({ id, requestId: `${OWN}:chat-00000001:agent-00000001`, params: { selector: '#go' }, site: 'http://127.0.0.1', ...extra });
const logUpdate = (s: AgentStep, requestId = OWN): BackgroundEvent => ({ type: 'ACTION_LOG_UPDATE', requestId, payload: { step: s } });
const permissionRequest = (s: AgentStep, requestId = OWN): BackgroundEvent => ({ type: 'PERMISSION_REQUEST', requestId, payload: { step: s } });

describe('applyEvent: agent steps', () => {
  it('adds a step of the open conversation and updates it in place as it progresses', () => {
    let state = apply(showing(), permissionRequest(step('s1', { status: 'asking', promptRaised: true })));
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([['s1', 'asking']]);
    state = apply(state, logUpdate(step('s1', { status: 'running', decision: 'allow-once' })));
    state = apply(state, logUpdate(step('s1', { status: 'done', decision: 'allow-once', result: { success: true, summary: 'clicked button “Go”' }, duration: 42 })));
    expect(state.steps).toHaveLength(1);
    expect(state.steps[0]).toMatchObject({ status: 'done', decision: 'allow-once', duration: 42, result: { summary: 'clicked button “Go”' } });
  });

  it('keeps steps in index order whatever order their updates arrive in', () => {
    const state = apply(
      showing(),
      logUpdate(step('s3', { index: 2 })),
      logUpdate(step('s1', { index: 0 })),
      logUpdate(step('s2', { index: 1 })),
      logUpdate(step('s1', { index: 0, status: 'done' })),
    );
    expect(state.steps.map((s) => s.id)).toEqual(['s1', 's2', 's3']);
  });

  it('ignores steps of a conversation that is not shown, even when this sidebar started them', () => {
    const before = showing();
    expect(apply(before, logUpdate(step('s1', { conversationId: 'c2' })))).toBe(before);
    expect(applyEvent(before, logUpdate(step('s1', { conversationId: 'c2' }), OTHER), own)).toBe(before);
  });

  it('shows another window’s steps in the conversation this sidebar shows', () => {
    const state = applyEvent(showing(), permissionRequest(step('s1', { status: 'asking' }), OTHER), own);
    expect(pendingPrompts(state).map((s) => s.id)).toEqual(['s1']);
  });

  it('keeps its own request’s steps that arrive before their new conversation opens, and not another window’s', () => {
    const fresh: ChatState = { ...initialState, conversations: [conv('c1')] };
    const ownChain = `${OWN}:chat-0000000a:agent-0000000b`;
    const early = step('s1', { conversationId: 'c2', messageId: 'a9', status: 'asking' });
    expect(applyEvent(fresh, permissionRequest(early, OTHER), own).steps).toEqual([]);
    let state = applyEvent(fresh, permissionRequest(early, ownChain), own);
    expect(state.steps.map((s) => s.id)).toEqual(['s1']);
    state = apply(state, chatEvent(start(conv('c2', 200), msg('u9', 'c2', 20), msg('a9', 'c2', 21, { role: 'assistant', content: '', status: 'streaming' }))));
    expect(state.conversation?.id).toBe('c2');
    expect(pendingPrompts(state).map((s) => s.id)).toEqual(['s1']);
  });

  it('CONVERSATION replaces the steps with the stored ones, sorted', () => {
    let state = apply(showing(), logUpdate(step('old')));
    state = apply(state, {
      type: 'CONVERSATION',
      requestId: OWN,
      payload: { conversation: conv('c5'), messages: [msg('x', 'c5', 1)], steps: [step('b', { conversationId: 'c5', index: 1 }), step('a', { conversationId: 'c5', index: 0 })] },
    });
    expect(state.steps.map((s) => s.id)).toEqual(['a', 'b']);
  });

  it('switching to a new conversation or losing the open one clears the steps', () => {
    const withSteps = apply(showing(), logUpdate(step('s1', { status: 'asking' })));
    const switched = apply(withSteps, chatEvent(start(conv('c2', 200), msg('u9', 'c2', 20), msg('a9', 'c2', 21, { role: 'assistant', status: 'streaming' }))));
    expect(switched.steps).toEqual([]);
    const deleted = apply(withSteps, { type: 'CONVERSATIONS', requestId: OTHER, payload: { conversations: [] } });
    expect(deleted.steps).toEqual([]);
    expect(isWaiting(deleted)).toBe(false);
  });

  it('a retry drops the steps of the answers it replaces and keeps the earlier ones', () => {
    const state0: ChatState = {
      ...showing(),
      messages: [msg('u1', 'c1', 10), msg('a1', 'c1', 11, { role: 'assistant' }), msg('u2', 'c1', 20), msg('a2', 'c1', 21, { role: 'assistant' })],
      steps: [step('s1', { messageId: 'a1' }), step('s2', { messageId: 'a2', index: 1 })],
    };
    const state = apply(state0, chatEvent(start(conv('c1'), undefined, msg('a2b', 'c1', 30, { role: 'assistant', content: '', status: 'streaming' }), 'a2')));
    expect(state.steps.map((s) => s.id)).toEqual(['s1']);
  });

  it('a prompt is pending while its step asks, and gone once the step is decided', () => {
    let state = apply(showing(), logUpdate(step('s0', { status: 'done' })), permissionRequest(step('s1', { index: 1, status: 'asking' })));
    expect(pendingPrompts(state).map((s) => s.id)).toEqual(['s1']);
    state = apply(state, logUpdate(step('s1', { index: 1, status: 'denied', decision: 'deny' })));
    expect(pendingPrompts(state)).toEqual([]);
  });

  it('counts a pending prompt or a running step as waiting on the background, finished steps not', () => {
    const asking = apply(showing(), permissionRequest(step('s1', { status: 'asking' })));
    expect(isStreaming(asking)).toBe(false);
    expect(isWaiting(asking)).toBe(true);
    expect(isWaiting(apply(asking, logUpdate(step('s1', { status: 'running' }))))).toBe(true);
    expect(isWaiting(apply(asking, logUpdate(step('s1', { status: 'done' }))))).toBe(false);
  });

  it('GRANTS stores the grants and options, whoever asked', () => {
    const grants = [{ id: 'g1', site: 'https://example.com', level: 'interact' as const, scope: 'site' as const, createdAt: 5 }];
    const state = applyEvent(initialState, { type: 'GRANTS', requestId: OTHER, payload: { grants, options: { submitAlwaysAsks: false } } }, own);
    expect(state.harbor).toEqual({ grants, options: { submitAlwaysAsks: false } });
  });
});

describe('applyEvent: prompts of conversations not shown', () => {
  const asking = (id: string, conversationId: string) => step(id, { conversationId, status: 'asking', promptRaised: true });

  it('remembers a prompt of another conversation, and forgets it once decided', () => {
    let state = applyEvent(showing(), permissionRequest(asking('s9', 'c2'), OTHER), own);
    expect(state.steps).toEqual([]);
    expect(state.waitingElsewhere.map((s) => s.id)).toEqual(['s9']);
    expect(isWaiting(state)).toBe(true); // the background must stay up while that task waits
    state = applyEvent(state, logUpdate(step('s9', { conversationId: 'c2', status: 'stopped' }), OTHER), own);
    expect(state.waitingElsewhere).toEqual([]);
  });

  it('keeps a waiting prompt when the user opens a new chat, and puts it back on screen with its conversation', () => {
    let state = apply(showing(), permissionRequest(asking('s1', 'c1')));
    state = apply(state, chatEvent(start(conv('c2', 200), msg('u9', 'c2', 20), msg('a9', 'c2', 21, { role: 'assistant', status: 'streaming' }))));
    expect(pendingPrompts(state)).toEqual([]);
    expect(state.waitingElsewhere.map((s) => s.id)).toEqual(['s1']);
    state = apply(state, { type: 'CONVERSATION', requestId: OWN, payload: { conversation: conv('c1'), messages: [], steps: [asking('s1', 'c1')] } });
    expect(pendingPrompts(state).map((s) => s.id)).toEqual(['s1']);
    expect(state.waitingElsewhere).toEqual([]);
  });

  it('forgets the prompts of a deleted conversation', () => {
    let state = applyEvent(showing(), permissionRequest(asking('s9', 'c2'), OTHER), own);
    state = apply(state, { type: 'CONVERSATIONS', requestId: OTHER, payload: { conversations: [conv('c1')] } });
    expect(state.waitingElsewhere).toEqual([]);
  });
});

describe('withBackgroundGone: the browser stopped the background', () => {
  const asking = (id: string, conversationId: string) => step(id, { conversationId, status: 'asking', promptRaised: true });
  const bridge = { enabled: true, url: 'ws://127.0.0.1:1', state: 'connected' as const, clients: [], pairing: [], prompts: [asking('b1', '')], activity: [] };

  it('shows no prompt the stopped background can no longer take an answer to, nor a step it can no longer finish', () => {
    let state = apply(showing(), permissionRequest(asking('s1', 'c1')), logUpdate(step('s0', { status: 'done' })));
    state = applyEvent(state, permissionRequest(asking('s9', 'c2'), OTHER), own);
    state = { ...state, bridge, budgetPrompts: [{ id: 'p1', conversationId: 'c1', messageId: 'a1', scope: 'task', spent: 2, limit: 1 }] };
    expect(pendingPrompts(state).map((s) => s.id)).toEqual(['s1', 'b1']);

    const gone = withBackgroundGone(state);
    expect(pendingPrompts(gone)).toEqual([]);
    expect(isWaiting(gone)).toBe(false);
    expect(Object.fromEntries(gone.steps.map((s) => [s.id, s.status]))).toEqual({ s0: 'done', s1: 'interrupted' });
    expect(gone.steps.find((s) => s.id === 's1')!.result?.summary).toMatch(/background stopped/);
    expect(gone.bridge?.enabled).toBe(true);
  });

  it('takes the restarted background’s word afterwards: a prompt it asks again is shown', () => {
    const gone = withBackgroundGone(apply(showing(), permissionRequest(asking('s1', 'c1'))));
    expect(pendingPrompts(apply(gone, permissionRequest(asking('s2', 'c1')))).map((s) => s.id)).toEqual(['s2']);
  });
});
