import { INTERRUPTED_STEP, type AgentStep } from '../protocol';
import type { JawadDatabase } from './database';
import { settleConversation } from './import-queue';

/** The agent's action log: one row per step, rewritten as the step moves on. */
export class StepStore {
  constructor(private readonly db: JawadDatabase) {}

  async put(step: AgentStep): Promise<void> {
    await this.db.steps.put(step);
  }

  /** The conversation's steps, or those made at or after `since` (the oldest message shown). */
  async list(conversationId: string, since = -Infinity): Promise<AgentStep[]> {
    await settleConversation(this.db, conversationId);
    return this.db.steps
      .where('[conversationId+createdAt]')
      .between([conversationId, since], [conversationId, Infinity])
      .toArray();
  }

  /**
   * Run at background start: a step still asking or running was cut off with the background. It
   * is never resumed on its own (a submit must not be replayed without asking again).
   */
  markInterrupted(): Promise<number> {
    return this.db.steps.where('status').anyOf('asking', 'running').modify({ ...INTERRUPTED_STEP });
  }
}
