/**
 * Budgets (pure): before a model call, whether the task's or the day's spending would go over its
 * limit. The next call is estimated at the cost of the task's last one (an agent's turns grow, so
 * this errs low rather than stopping work that is cheap).
 */
import type { Budgets } from '../../protocol';

export interface Spending {
  task: number;
  day: number;
  /** The task's last call, as the estimate of the next. */
  lastCall: number;
}

export interface Overrun {
  scope: 'task' | 'day';
  spent: number;
  limit: number;
}

/** `allowance` is what the user already agreed to go up to, per scope, in this task. */
export function overrun(spending: Spending, budgets: Budgets, allowance: { task?: number; day?: number } = {}): Overrun | undefined {
  const limits = { task: allowance.task ?? budgets.perTask, day: allowance.day ?? budgets.perDay };
  for (const scope of ['task', 'day'] as const) {
    const limit = limits[scope];
    if (limit === undefined) continue;
    const spent = spending[scope];
    if (spent + spending.lastCall > limit || spent >= limit) return { scope, spent, limit };
  }
  return undefined;
}

/** After "continue": one more budget's worth on top of what is spent. */
export function raisedAllowance(over: Overrun, budgets: Budgets): number {
  const step = (over.scope === 'task' ? budgets.perTask : budgets.perDay) ?? over.limit;
  return over.spent + step;
}
