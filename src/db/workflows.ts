import type { WorkflowPlan } from '../protocol';
import type { JawadDatabase, JournalEntry } from './database';

const UNFINISHED = ['planning', 'proposed', 'running'] as const;

/**
 * Research workflows, journalled: every change writes the whole plan and a journal line in one
 * transaction, so what a restart finds is never half of a change.
 */
export class WorkflowStore {
  constructor(private readonly db: JawadDatabase) {}

  async save(plan: WorkflowPlan, entry: Omit<JournalEntry, 'seq' | 'workflowId' | 'at'>): Promise<void> {
    await this.db.transaction('rw', this.db.workflows, this.db.workflowJournal, async () => {
      await this.db.workflows.put(plan);
      await this.db.workflowJournal.add({ workflowId: plan.id, at: plan.updatedAt, ...entry });
    });
  }

  get(id: string): Promise<WorkflowPlan | undefined> {
    return this.db.workflows.get(id);
  }

  unfinished(): Promise<WorkflowPlan[]> {
    return this.db.workflows.where('status').anyOf(UNFINISHED).toArray();
  }

  /** The newest workflow, finished or not: what a sidebar opened later shows. */
  latest(): Promise<WorkflowPlan | undefined> {
    return this.db.workflows.orderBy('updatedAt').last();
  }

  journal(workflowId: string): Promise<JournalEntry[]> {
    return this.db.workflowJournal.where('workflowId').equals(workflowId).sortBy('seq');
  }
}
