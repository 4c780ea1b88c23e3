import type { AgentStep } from '../../protocol';
import {
  DECISION_LABELS,
  formatDuration,
  LEVEL_LABELS,
  outcomeText,
  paramsJson,
  revealHidden,
  siteLabel,
  STATUS_ICONS,
  STATUS_LABELS,
  summarizeParams,
  targetLabel,
} from '../step-format';
import { openTrace } from '../store';

function StepMeta({ step }: { step: AgentStep }) {
  const parts = [
    step.site && siteLabel(step.site),
    LEVEL_LABELS[step.level],
    step.critical && 'critical',
    step.decision && DECISION_LABELS[step.decision],
    step.duration !== undefined && formatDuration(step.duration),
  ].filter((part): part is string => typeof part === 'string' && part !== '');
  return <span class="step-meta">{parts.join(' · ')}</span>;
}

function StepItem({ step }: { step: AgentStep }) {
  const outcome = outcomeText(step);
  const failed = step.status === 'failed' || step.status === 'interrupted' || Boolean(step.result?.error);
  return (
    <li
      class="step"
      data-testid="action-step"
      data-step-id={step.id}
      data-status={step.status}
      data-tool={step.tool}
      data-decision={step.decision ?? ''}
    >
      <div class="step-line">
        <span class="step-status" title={STATUS_LABELS[step.status]}>
          <span aria-hidden="true">{STATUS_ICONS[step.status]}</span>
          <span class="visually-hidden">{STATUS_LABELS[step.status]}:</span>
        </span>
        <code class="step-tool">{step.tool}</code>
        <span class="step-params">{summarizeParams(step.params, 60)}</span>
        {step.target && <span class="step-target">→ {targetLabel(step.target, 60)}</span>}
        <StepMeta step={step} />
        <button type="button" class="link-button step-trace" aria-label="Trace this step" onClick={() => openTrace({ stepId: step.id })}>
          Trace
        </button>
      </div>
      {outcome && <p class={failed ? 'step-outcome step-error' : 'step-outcome'}>{revealHidden(outcome)}</p>}
      <details class="step-details">
        <summary>Details</summary>
        {step.thinking && <p class="step-thinking">{step.thinking}</p>}
        <pre class="mono-block">{paramsJson(step.params)}</pre>
        <p class="hint">Request {step.requestId}</p>
      </details>
    </li>
  );
}

/** What the agent did for one answer, step by step, updated live as the steps stream in. */
export function ActionLog({ steps }: { steps: AgentStep[] }) {
  if (steps.length === 0) return null;
  return (
    <ol class="action-log" data-testid="action-log" aria-label="Actions">
      {steps.map((step) => <StepItem key={step.id} step={step} />)}
    </ol>
  );
}
