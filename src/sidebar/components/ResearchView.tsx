import { useState } from 'preact/hooks';
import { MAX_PARALLEL, type PlanEdit, type WorkflowLevel, type WorkflowPlan, type WorkflowStep } from '../../protocol';
import { approveWorkflow, cancelWorkflow, confirmWorkflowStep, startWorkflow, state } from '../store';
import { Markdown } from './Markdown';
import { ErrorBanner } from './ErrorBanner';
import { PermissionPrompt } from './PermissionPrompt';

const LEVELS: readonly WorkflowLevel[] = ['read', 'navigate', 'interact'];
const LEVEL_TEXT: Record<WorkflowLevel, string> = { read: 'read', navigate: 'navigate', interact: 'interact (click, type)' };
const STATUS_TEXT: Record<WorkflowPlan['status'], string> = {
  planning: 'Planning…',
  proposed: 'Review the plan',
  running: 'Working…',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function IntentForm() {
  const [intent, setIntent] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    if (intent.trim()) startWorkflow(intent.trim());
  };
  return (
    <form class="research-intent" onSubmit={submit}>
      <label for="research-intent">What should Jawad research across sites?</label>
      <textarea id="research-intent" rows={3} value={intent} onInput={(event) => setIntent((event.target as HTMLTextAreaElement).value)} placeholder="Compare the price of the Trail jacket on these three shops: …" />
      <button type="submit" class="primary" disabled={!intent.trim()}>
        Plan it
      </button>
    </form>
  );
}

const editsOf = (plan: WorkflowPlan): PlanEdit[] => plan.steps.filter((step) => step.status === 'pending').map(({ id, task, site, permissions }) => ({ id, task, site, permissions }));

/** The plan as proposed: every site and what may be done there; the user edits, reorders, removes, then approves. */
function PlanCard({ plan }: { plan: WorkflowPlan }) {
  const [edits, setEdits] = useState<PlanEdit[]>(() => editsOf(plan));
  const [keepTabs, setKeepTabs] = useState(plan.keepTabs);
  const [parallel, setParallel] = useState(plan.parallel);
  const change = (index: number, patch: Partial<PlanEdit>) => setEdits(edits.map((edit, at) => (at === index ? { ...edit, ...patch } : edit)));
  const move = (index: number, by: number) => {
    const next = edits.slice();
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    setEdits(next);
  };
  const toggle = (index: number, level: WorkflowLevel, on: boolean) => {
    const levels = on ? [...edits[index]!.permissions, level] : edits[index]!.permissions.filter((known) => known !== level);
    change(index, { permissions: LEVELS.filter((known) => levels.includes(known)) });
  };
  const sites = [...new Set(edits.map((edit) => hostOf(edit.site)))];
  const valid = edits.length > 0 && edits.every((edit) => edit.task.trim() && edit.permissions.length && /^https?:\/\/\S+$/.test(edit.site));
  return (
    <div class="plan-card" data-testid="plan-card">
      <p class="plan-sites" data-testid="plan-sites">
        Visits {sites.length} site{sites.length === 1 ? '' : 's'}: {sites.join(', ') || 'none'}. Jawad asks before anything beyond what you approve here.
      </p>
      <ol class="plan-steps">
        {edits.map((edit, index) => (
          <li key={edit.id} class="plan-step" data-testid="plan-step" data-site={edit.site}>
            <input aria-label={`Step ${index + 1} task`} class="plan-task" value={edit.task} onInput={(event) => change(index, { task: (event.target as HTMLInputElement).value })} />
            <input aria-label={`Step ${index + 1} site`} class="plan-site" value={edit.site} onInput={(event) => change(index, { site: (event.target as HTMLInputElement).value.trim() })} />
            <fieldset class="plan-levels">
              <legend class="visually-hidden">What step {index + 1} may do</legend>
              {LEVELS.map((level) => (
                <label key={level}>
                  <input type="checkbox" data-level={level} checked={edit.permissions.includes(level)} onChange={(event) => toggle(index, level, (event.target as HTMLInputElement).checked)} /> {LEVEL_TEXT[level]}
                </label>
              ))}
            </fieldset>
            <div class="plan-step-actions">
              <button type="button" aria-label={`Move step ${index + 1} up`} disabled={index === 0} onClick={() => move(index, -1)}>↑</button>
              <button type="button" aria-label={`Move step ${index + 1} down`} disabled={index === edits.length - 1} onClick={() => move(index, 1)}>↓</button>
              <button type="button" class="remove-step" aria-label={`Remove step ${index + 1}`} onClick={() => setEdits(edits.filter((_, at) => at !== index))}>✕</button>
            </div>
          </li>
        ))}
      </ol>
      <label class="keep-tabs">
        <input type="checkbox" checked={keepTabs} onChange={(event) => setKeepTabs((event.target as HTMLInputElement).checked)} /> Keep the task’s tabs open when it ends
      </label>
      <label class="parallel">
        Pages read at once{' '}
        <select value={String(parallel)} onChange={(event) => setParallel(Number((event.target as HTMLSelectElement).value))}>
          {Array.from({ length: MAX_PARALLEL }, (_, index) => (
            <option key={index} value={String(index + 1)}>{index + 1}</option>
          ))}
        </select>
      </label>
      <div class="plan-actions">
        <button type="button" class="primary" data-testid="approve-plan" disabled={!valid} onClick={() => approveWorkflow(plan.id, edits, keepTabs, parallel)}>
          Approve and run
        </button>
        <button type="button" class="danger" data-testid="cancel-workflow" onClick={() => cancelWorkflow(plan.id)}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function StepRow({ plan, step, index }: { plan: WorkflowPlan; step: WorkflowStep; index: number }) {
  return (
    <li class="workflow-step" data-testid="workflow-step" data-status={step.status} data-site={step.site}>
      <span class="step-status">{step.status}</span> {index + 1}. {step.task} <span class="muted">— {hostOf(step.site)} ({step.permissions.join(', ')})</span>
      {step.result && <p class="step-result">{step.result.slice(0, 500)}</p>}
      {step.status === 'confirm' && (
        <div class="plan-actions">
          <button type="button" class="primary" data-testid="rerun-step" onClick={() => confirmWorkflowStep(plan.id, step.id, true)}>Run it again</button>
          <button type="button" class="secondary" data-testid="skip-step" onClick={() => confirmWorkflowStep(plan.id, step.id, false)}>Skip it</button>
        </div>
      )}
    </li>
  );
}

/** The workflow as it runs and once it ended: steps, its tabs, every plan change, the report. */
function Progress({ plan }: { plan: WorkflowPlan }) {
  const shownSteps = plan.status === 'proposed' ? plan.steps.filter((step) => step.status !== 'pending') : plan.steps;
  return (
    <>
      {shownSteps.length > 0 && <ol class="workflow-steps">{shownSteps.map((step, index) => <StepRow key={step.id} plan={plan} step={step} index={index} />)}</ol>}
      {plan.tabs.length > 0 && (
        <div class="workflow-tabs" data-testid="workflow-tabs">
          <h3>{plan.group ? `Tabs of this task (group “${plan.group}”)` : 'Tabs of this task'}</h3>
          <ul>{plan.tabs.map((tab) => <li key={tab.id} data-tab-id={tab.id}>{tab.url}</li>)}</ul>
        </div>
      )}
      {plan.changes.length > 0 && (
        <div class="plan-changes" data-testid="plan-changes" role="status">
          <h3>Plan changes</h3>
          <ul>{plan.changes.map((change, index) => <li key={index}>{change}</li>)}</ul>
        </div>
      )}
      {plan.error && <p class="message-error" role="alert">{plan.error}</p>}
      {plan.report && (
        <article class="workflow-report" data-testid="workflow-report">
          <Markdown text={plan.report} />
        </article>
      )}
    </>
  );
}

export function ResearchView() {
  const { workflow } = state.value;
  const active = workflow && ['planning', 'proposed', 'running'].includes(workflow.status);
  return (
    <section class="research" aria-label="Research">
      <div class="research-body">
        {workflow && (
          <header class="workflow-head" data-testid="workflow" data-status={workflow.status} data-id={workflow.id}>
            <h2>{workflow.intent}</h2>
            <p class="muted">{STATUS_TEXT[workflow.status]}</p>
            {workflow.status === 'running' || workflow.status === 'planning' ? (
              <button type="button" class="stop" data-testid="cancel-workflow" onClick={() => cancelWorkflow(workflow.id)}>
                Cancel
              </button>
            ) : null}
          </header>
        )}
        {workflow && <Progress plan={workflow} />}
        {/* Keyed by revision: a re-plan starts the card afresh, an edit in progress is never overwritten. */}
        {workflow?.status === 'proposed' && <PlanCard key={`${workflow.id}:${workflow.revision}`} plan={workflow} />}
        {!active && <IntentForm />}
      </div>
      <ErrorBanner />
      <PermissionPrompt />
    </section>
  );
}
