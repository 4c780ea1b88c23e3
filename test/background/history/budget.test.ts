import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { overrun, raisedAllowance } from '../../../src/background/history/budget';
import { BudgetGuard } from '../../../src/background/history/budget-guard';
import { CostService } from '../../../src/background/history/cost-service';
import { LlmError } from '../../../src/background/llm/errors';
import type { StreamEvent } from '../../../src/background/llm/types';
import { JawadDatabase } from '../../../src/db/database';
import type { BackgroundEvent, UsageRecord } from '../../../src/protocol';

describe('overrun', () => {
  it('stops before a call that would go over the task budget, estimating it at the last call', () => {
    expect(overrun({ task: 0.08, day: 0.08, lastCall: 0.01 }, { perTask: 0.1 })).toBeUndefined();
    expect(overrun({ task: 0.095, day: 0.095, lastCall: 0.01 }, { perTask: 0.1 })).toEqual({ scope: 'task', spent: 0.095, limit: 0.1 });
    expect(overrun({ task: 0.1, day: 0.1, lastCall: 0 }, { perTask: 0.1 })).toMatchObject({ scope: 'task' });
  });

  it('checks the day budget too, and an allowance the user granted replaces a limit', () => {
    expect(overrun({ task: 0.01, day: 4.99, lastCall: 0.02 }, { perTask: 1, perDay: 5 })).toEqual({ scope: 'day', spent: 4.99, limit: 5 });
    expect(overrun({ task: 0.15, day: 0.15, lastCall: 0.01 }, { perTask: 0.1 }, { task: 0.2 })).toBeUndefined();
    expect(raisedAllowance({ scope: 'task', spent: 0.1, limit: 0.1 }, { perTask: 0.1 })).toBeCloseTo(0.2, 10);
  });

  it('never stops work without a budget', () => {
    expect(overrun({ task: 1000, day: 1000, lastCall: 1000 }, {})).toBeUndefined();
  });
});

describe('BudgetGuard', () => {
  let db: JawadDatabase;
  let events: BackgroundEvent[];
  let guard: BudgetGuard;
  let costs: CostService;
  let calls: number;
  const NOW = Date.UTC(2026, 10, 23, 12);
  const chain = 'user-0000000a:chat-0000000b';
  const stream = guardStream();

  function guardStream() {
    return async function* (): AsyncGenerator<StreamEvent> {
      calls++;
      yield { type: 'text', text: 'ok' };
    };
  }
  const record = (n: number): UsageRecord => ({
    requestId: `${chain}:llm-0000000${n}`, kind: 'agent', provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o',
    inputTokens: 20_000, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, createdAt: NOW - n,
  });
  const drain = async (iterable: AsyncIterable<StreamEvent>) => {
    for await (const _event of iterable) void _event;
  };

  beforeEach(async () => {
    db = new JawadDatabase(`budget-${crypto.randomUUID()}`);
    events = [];
    calls = 0;
    costs = new CostService(db, () => NOW);
    guard = new BudgetGuard(db, costs, (event) => events.push(event), () => NOW);
    await costs.saveBudgets({ perTask: 0.1 });
  });
  afterEach(async () => {
    await db.delete();
  });

  it('lets calls through under budget, and any call of an untracked request', async () => {
    const controller = new AbortController();
    guard.track(controller.signal, { conversationId: 'c1', messageId: 'm1', requestId: chain, eventRequestId: 'user-0000000a' });
    await db.usage.add(record(1)); // $0.05 at gpt-4o's $2.50 per million input tokens
    const wrapped = guard.wrap(stream);
    await drain(wrapped({} as never, { messages: [], signal: controller.signal }));
    await drain(wrapped({} as never, { messages: [] }));
    expect(calls).toBe(2);
    expect(events).toEqual([]);
  });

  it('pauses before going over, asks, and stops the work when told to', async () => {
    const controller = new AbortController();
    guard.track(controller.signal, { conversationId: 'c1', messageId: 'm1', requestId: chain, eventRequestId: 'user-0000000a' });
    await db.usage.bulkAdd([record(1), record(2)]); // $0.10 spent, the next ~$0.05
    const run = drain(guard.wrap(stream)({} as never, { messages: [], signal: controller.signal }));
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]).toMatchObject({ type: 'BUDGET_REQUEST', requestId: 'user-0000000a', payload: { conversationId: 'c1', messageId: 'm1', scope: 'task', limit: 0.1 } });
    expect(calls).toBe(0);
    guard.respond((events[0] as Extract<BackgroundEvent, { type: 'BUDGET_REQUEST' }>).payload.id, false);
    await expect(run).rejects.toSatisfy((error) => error instanceof LlmError && error.kind === 'cancelled');
    expect(events[1]).toMatchObject({ type: 'BUDGET_SETTLED' });
    expect(calls).toBe(0);
  });

  it('counts the last call\'s usage even when its record was still being written as the next call began', async () => {
    const controller = new AbortController();
    guard.track(controller.signal, { conversationId: 'c1', messageId: 'm1', requestId: chain, eventRequestId: 'user-0000000a' });
    await db.usage.add(record(1));
    costs.record(record(2)); // the router does not wait for it: the $0.10 is spent all the same
    void drain(guard.wrap(stream)({} as never, { messages: [], signal: controller.signal })).catch(() => undefined);
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]).toMatchObject({ type: 'BUDGET_REQUEST', payload: { scope: 'task' } });
    expect(calls).toBe(0);
    controller.abort();
  });

  it('goes on after "continue" with one more budget, asking again only past it', async () => {
    const controller = new AbortController();
    guard.track(controller.signal, { conversationId: 'c1', messageId: 'm1', requestId: chain, eventRequestId: 'user-0000000a' });
    await db.usage.bulkAdd([record(1), record(2)]);
    const wrapped = guard.wrap(stream);
    const first = drain(wrapped({} as never, { messages: [], signal: controller.signal }));
    await expect.poll(() => events.length).toBe(1);
    guard.respond((events[0] as Extract<BackgroundEvent, { type: 'BUDGET_REQUEST' }>).payload.id, true);
    await first;
    expect(calls).toBe(1);
    await db.usage.add(record(3)); // $0.15: under the $0.20 now allowed
    await drain(wrapped({} as never, { messages: [], signal: controller.signal }));
    expect(calls).toBe(2);
    await db.usage.add(record(4)); // $0.20: the next call would go over
    const second = drain(wrapped({} as never, { messages: [], signal: controller.signal }));
    await expect.poll(() => events.filter((e) => e.type === 'BUDGET_REQUEST').length).toBe(2);
    controller.abort();
    await expect(second).rejects.toThrow();
    expect(calls).toBe(2);
  });
});
