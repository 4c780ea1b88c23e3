import type { WorkflowPlan } from '../protocol';
import type { JawadDatabase, JournalEntry } from './database';

const UNFINISHED = ['planning', 'proposed', 'running'] as const;

/** Another background instance has taken the workflow over (this one outlived a stop): it must stop. */
export class SupersededError extends Error {
  override name = 'SupersededError';
}

/** The stored row: the plan, and which background instance drives it. */
type WorkflowRow = WorkflowPlan & { owner?: string };

/**
 * Research workflows, journalled: every change writes the whole plan and a journal line in one
 * transaction, so what a restart finds is never half of a change.
 */
export class WorkflowStore {
  constructor(private readonly db: JawadDatabase) {}

  /**
   * `owner`: the background instance writing. A write from an instance that no longer owns the
   * workflow is refused (SupersededError) unless it `claim`s it — what a fresh instance does once,
   * when it resumes the workflow after a restart.
   */
  async save(plan: WorkflowPlan, entry: Omit<JournalEntry, 'seq' | 'workflowId' | 'at'>, owner?: string, claim = false): Promise<void> {
    await this.db.transaction('rw', this.db.workflows, this.db.workflowJournal, async () => {
      const stored = owner && !claim ? ((await this.db.workflows.get(plan.id)) as WorkflowRow | undefined) : undefined;
      if (stored?.owner && stored.owner !== owner) throw new SupersededError(`Workflow ${plan.id} is driven by another background instance.`);
      const row: WorkflowRow = { ...plan, ...(owner ? { owner } : {}) };
      await this.db.workflows.put(row);
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
