/**
 * The plan's own rules, pure: what the user's edits make of it, which steps run next, what a
 * re-plan may add without asking again, and what a restart does to steps that were running.
 */
import { JawadError, type PlanEdit, type WorkflowPlan, type WorkflowStep } from '../../protocol';
import type { PlannedStep } from './planner';
import { approvedScope, mayChangeThings } from './scope';
import { siteOf } from '../harbor/site';

const LEVEL_RANK = ['read-only', 'navigate', 'interact', 'submit'];

export function newStep(planned: PlannedStep, id: string): WorkflowStep {
  return { id, agent: 'reader', task: planned.task, site: planned.site, permissions: planned.permissions, status: 'pending' };
}

const describe = (step: Pick<WorkflowStep, 'task' | 'site'>) => `“${step.task.slice(0, 80)}” (${step.site})`;

/**
 * The plan after the user's approval: the pending steps replaced by the edited ones, in the
 * user's order; steps already run stay. The list of changes says what the user did, in words.
 */
export function applyEdits(steps: readonly WorkflowStep[], edits: readonly PlanEdit[]): { steps: WorkflowStep[]; changes: string[] } {
  const pending = new Map(steps.filter((step) => step.status === 'pending').map((step) => [step.id, step]));
  const seen = new Set<string>();
  for (const edit of edits) {
    if (!pending.has(edit.id)) throw new JawadError('VALIDATION_ERROR', `Step ${edit.id} is not a step of this plan that can still be changed.`);
    if (seen.has(edit.id)) throw new JawadError('VALIDATION_ERROR', `Step ${edit.id} appears twice.`);
    seen.add(edit.id);
  }
  const changes: string[] = [];
  for (const step of pending.values()) if (!seen.has(step.id)) changes.push(`You removed ${describe(step)}.`);
  const before = [...pending.keys()].filter((id) => seen.has(id));
  if (before.join() !== edits.map((edit) => edit.id).join()) changes.push('You changed the order of the steps.');
  const edited = edits.map((edit) => {
    const original = pending.get(edit.id)!;
    if (original.task !== edit.task || original.site !== edit.site || original.permissions.join() !== edit.permissions.join()) changes.push(`You changed step ${describe(original)} to ${describe(edit)} (${edit.permissions.join(', ')}).`);
    return { ...original, task: edit.task, site: edit.site, permissions: edit.permissions };
  });
  return { steps: [...steps.filter((step) => step.status !== 'pending'), ...edited], changes };
}

const readOnly = (step: WorkflowStep) => step.permissions.every((level) => level === 'read');

/**
 * The steps to run now: the first pending one, and — when it only reads — the read-only pending
 * steps right after it, up to `parallel` in all (reading cannot change what the next step sees).
 */
export function nextBatch(steps: readonly WorkflowStep[], parallel: number): WorkflowStep[] {
  const start = steps.findIndex((step) => step.status === 'pending');
  if (start === -1) return [];
  const first = steps[start]!;
  if (!readOnly(first)) return [first];
  const batch = [first];
  for (const step of steps.slice(start + 1)) {
    if (batch.length >= parallel || step.status !== 'pending' || !readOnly(step)) break;
    batch.push(step);
  }
  return batch;
}

/** Whether new steps stay on the approved sites at the approved levels (else the user approves again). */
export function withinApproved(plan: Pick<WorkflowPlan, 'steps'>, added: readonly Pick<WorkflowStep, 'site' | 'permissions'>[]): boolean {
  const approved = new Map(approvedScope(plan.steps).map(({ site, level }) => [site, level]));
  return approvedScope(added).every(({ site, level }) => {
    const allowed = approved.get(site);
    return allowed !== undefined && LEVEL_RANK.indexOf(level) <= LEVEL_RANK.indexOf(allowed);
  });
}

/** The sites a plan visits, for the plan card and for logs. */
export function sitesOf(steps: readonly Pick<WorkflowStep, 'site'>[]): string[] {
  return [...new Set(steps.map((step) => siteOf(step.site)).filter(Boolean))];
}

/**
 * After the background restarted: a step that was running and only read runs again; one that may
 * have changed something waits for the user's word (it is never replayed on its own).
 */
export function afterRestart(steps: readonly WorkflowStep[]): { steps: WorkflowStep[]; confirm: WorkflowStep[] } {
  const confirm: WorkflowStep[] = [];
  const next = steps.map((step): WorkflowStep => {
    if (step.status !== 'running') return step;
    if (!mayChangeThings(step)) return { ...step, status: 'pending' };
    const waiting: WorkflowStep = { ...step, status: 'confirm', result: 'Jawad’s background stopped during this step, which may have changed something: run it again?' };
    confirm.push(waiting);
    return waiting;
  });
  return { steps: next, confirm };
}
