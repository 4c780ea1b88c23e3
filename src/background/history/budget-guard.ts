import { JawadError, type BackgroundEvent, type UsageRecord } from '../../protocol';
import type { JawadDatabase } from '../../db/database';
import { cancelledError } from '../llm/errors';
import type { RouterRequest } from '../llm/router';
import type { LlmConfig, StreamEvent } from '../llm/types';
import { callCost, dayOf, priceOf } from './cost';
import type { CostService } from './cost-service';
import { overrun, raisedAllowance, type Overrun } from './budget';

type Stream = (config: LlmConfig, request: RouterRequest) => AsyncIterable<StreamEvent>;

export interface TrackedTask {
  conversationId: string;
  messageId: string;
  /** The answer's chain: the task's model calls are recorded under it. */
  requestId: string;
  /** The sidebar request the task answers (its prompts go out under it). */
  eventRequestId: string;
}

interface Tracked extends TrackedTask {
  allowance: { task?: number; day?: number };
}

const DAY_MS = 86_400_000;

/**
 * Pauses work before a model call that would go over the task's or the day's budget, and asks the
 * user. It wraps the router's stream, so chat replies and every agent turn pass through it; a task
 * is known by its AbortSignal (ChatService registers it for the answer's lifetime).
 */
export class BudgetGuard {
  private readonly tasks = new WeakMap<AbortSignal, Tracked>();
  private readonly pending = new Map<string, (go: boolean) => void>();

  constructor(
    private readonly db: JawadDatabase,
    private readonly costs: CostService,
    private readonly emit: (event: BackgroundEvent) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Follows a task's model calls until the returned function is called. */
  track(signal: AbortSignal, task: TrackedTask): () => void {
    this.tasks.set(signal, { ...task, allowance: {} });
    return () => this.tasks.delete(signal);
  }

  wrap(stream: Stream): Stream {
    const guard = this;
    return async function* (config, request) {
      await guard.check(request.signal);
      yield* stream(config, request);
    };
  }

  respond(id: string, go: boolean): void {
    const settle = this.pending.get(id);
    if (!settle) throw new JawadError('NOT_FOUND', 'That budget question is no longer waiting: the task ended or was stopped.');
    settle(go);
  }

  private async check(signal: AbortSignal | undefined): Promise<void> {
    const task = signal && this.tasks.get(signal);
    if (!task) return;
    const budgets = await this.costs.budgets();
    if (budgets.perTask === undefined && budgets.perDay === undefined) return;
    for (;;) {
      const over = overrun(await this.spending(task), budgets, task.allowance);
      if (!over) return;
      if (!(await this.ask(task, over, signal))) throw cancelledError();
      task.allowance[over.scope] = raisedAllowance(over, budgets);
    }
  }

  private async spending(task: Tracked): Promise<{ task: number; day: number; lastCall: number }> {
    const prices = await this.costs.prices();
    const cost = (record: UsageRecord) => {
      const price = priceOf(prices, record.provider, record.model);
      return price ? callCost(record, price) : 0;
    };
    const ofTask = await this.db.usage.where('requestId').startsWith(`${task.requestId}:`).toArray();
    const today = dayOf(this.now());
    const recent = await this.db.usage.where('createdAt').aboveOrEqual(this.now() - DAY_MS).toArray();
    const last = ofTask.reduce<UsageRecord | undefined>((latest, record) => (!latest || record.createdAt > latest.createdAt ? record : latest), undefined);
    return {
      task: ofTask.reduce((sum, record) => sum + cost(record), 0),
      day: recent.filter((record) => dayOf(record.createdAt) === today).reduce((sum, record) => sum + cost(record), 0),
      lastCall: last ? cost(last) : 0,
    };
  }

  /** Waits for the user's answer; a stop of the task counts as "stop". */
  private ask(task: Tracked, over: Overrun, signal: AbortSignal): Promise<boolean> {
    const id = crypto.randomUUID();
    return new Promise((resolve) => {
      const settle = (go: boolean) => {
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        this.emit({ type: 'BUDGET_SETTLED', requestId: task.eventRequestId, payload: { id } });
        resolve(go);
      };
      const onAbort = () => settle(false);
      if (signal.aborted) return settle(false);
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, settle);
      this.emit({ type: 'BUDGET_REQUEST', requestId: task.eventRequestId, payload: { id, conversationId: task.conversationId, messageId: task.messageId, ...over } });
    });
  }
}
