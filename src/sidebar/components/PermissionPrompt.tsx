import { useLayoutEffect, useRef } from 'preact/hooks';
import type { AgentStep, Decision, Egress } from '../../protocol';
import { answeringStep, bridgeStatus, pendingPrompt, respondToPermission } from '../store';
import { LEVEL_LABELS, paramsJson, siteLabel, summarizeParams } from '../step-format';
import { ExpandableText } from './ExpandableText';

interface Choice {
  decision: Decision;
  label: string;
  style: 'primary' | 'secondary' | 'danger';
  /** Leaves a standing grant behind, which critical and submit steps may not. */
  grants?: true;
}

const CHOICES: Choice[] = [
  { decision: 'allow-once', label: 'Allow once', style: 'primary' },
  { decision: 'allow-site', label: 'Allow on this site', style: 'secondary', grants: true },
  { decision: 'allow-session', label: 'Allow for this session', style: 'secondary', grants: true },
  { decision: 'deny', label: 'Deny', style: 'danger' },
  { decision: 'deny-all', label: 'Deny all (stop the task)', style: 'danger' },
];

const EGRESS_LABELS: Record<Egress['kind'], string> = { text: 'Text it would type', url: 'URL it would open' };

/**
 * Focus moves into the prompt when it appears, so keyboard and screen-reader users meet it at once,
 * and goes back where it was once the step is answered. A layout effect, so the prompt is never shown
 * without focus: a plain effect waits for the next frame (up to 100 ms in a sidebar not painting), and a
 * key pressed in that gap would still go to the composer.
 */
function useFocusOnAppear(stepId: string) {
  const dialog = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const element = dialog.current;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element?.focus();
    return () => {
      const active = document.activeElement;
      const focusLost = !active || active === document.body || Boolean(element?.contains(active));
      if (focusLost) (previous?.isConnected ? previous : document.getElementById('composer-input'))?.focus();
    };
  }, [stepId]);
  return dialog;
}

function TargetLine({ step }: { step: AgentStep }) {
  if (!step.target) return <dd>{summarizeParams(step.params, 200) || 'the page'}</dd>;
  const { role, name, url } = step.target;
  return (
    <dd>
      <span class="target-role">{role}</span> “<ExpandableText text={name} limit={160} />”
      {url && (
        <span class="target-url">
          {' '}→ <ExpandableText text={url} limit={200} />
        </span>
      )}
    </dd>
  );
}

function Details({ step, describedBy }: { step: AgentStep; describedBy: string }) {
  return (
    <>
      <div id={describedBy}>
        {step.reasons.length > 0 && (
          <ul class="prompt-reasons">
            {step.reasons.map((reason, i) => <li key={i}><ExpandableText text={reason} limit={300} /></li>)}
          </ul>
        )}
      </div>
      <dl class="prompt-facts">
        <dt>Tool</dt>
        <dd>
          <code>{step.tool}</code> <span class="level-badge" data-level={step.level}>{LEVEL_LABELS[step.level]}</span>
        </dd>
        <dt>Target</dt>
        <TargetLine step={step} />
        {step.url && (
          <>
            <dt>Page</dt>
            <dd><ExpandableText text={step.url} limit={200} /></dd>
          </>
        )}
        {step.site && (
          <>
            <dt>Site</dt>
            <dd><ExpandableText text={step.site} limit={200} /></dd>
          </>
        )}
      </dl>
    </>
  );
}

function EgressList({ egress }: { egress: Egress[] }) {
  if (egress.length === 0) return null;
  return (
    <div class="egress" data-testid="egress">
      <h3>Data that would leave the page</h3>
      {egress.map((item, i) => (
        <div key={i} class="egress-item" data-kind={item.kind}>
          <p class="hint">
            {EGRESS_LABELS[item.kind]} — <ExpandableText text={item.reason} limit={300} />
          </p>
          <ExpandableText text={item.value} limit={600} mono />
        </div>
      ))}
    </div>
  );
}

function Decisions({ step, busy, noGrantNote }: { step: AgentStep; busy: boolean; noGrantNote: string }) {
  return (
    <div class="prompt-decisions" role="group" aria-label="Your decision">
      {CHOICES.map((choice) => {
        const blocked = choice.grants === true && !step.grantable;
        // aria-disabled rather than disabled: the buttons stay reachable by Tab and say why they are off.
        return (
          <button
            key={choice.decision}
            type="button"
            class={choice.style}
            data-testid={`decision-${choice.decision}`}
            aria-disabled={blocked || busy ? 'true' : undefined}
            aria-describedby={blocked ? noGrantNote : undefined}
            onClick={() => {
              if (!blocked && !busy) respondToPermission(step.id, choice.decision);
            }}
          >
            {choice.label}
          </button>
        );
      })}
      {!step.grantable && (
        <p id={noGrantNote} class="hint prompt-no-grant">
          Critical actions and form submissions always ask, so this one can only be allowed once.
        </p>
      )}
    </div>
  );
}

/** A paired bridge client's step: the user answers on the client's behalf, so say whose it is. */
function AskedBy({ step }: { step: AgentStep }) {
  if (!step.conversationId.startsWith('bridge-')) return null;
  const clientId = step.conversationId.slice('bridge-'.length);
  const name = bridgeStatus.value?.clients.find((client) => client.id === clientId)?.name ?? 'a paired client';
  return (
    <p class="hint" data-testid="prompt-client">
      Asked by Agent({name}), through the bridge.
    </p>
  );
}

function Prompt({ step, waitingAfter }: { step: AgentStep; waitingAfter: number }) {
  const dialog = useFocusOnAppear(step.id);
  const busy = answeringStep.value === step.id;
  const ids = { title: `prompt-title-${step.id}`, description: `prompt-description-${step.id}`, noGrant: `prompt-no-grant-${step.id}` };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    if (!busy) respondToPermission(step.id, 'deny');
  };
  return (
    <section
      ref={dialog}
      class="permission-prompt"
      role="alertdialog"
      aria-labelledby={ids.title}
      aria-describedby={ids.description}
      aria-busy={busy}
      tabIndex={-1}
      data-testid="permission-prompt"
      data-step-id={step.id}
      data-level={step.level}
      data-critical={String(step.critical)}
      onKeyDown={onKeyDown}
    >
      <header class="prompt-header">
        <h2 id={ids.title}>
          Allow <code>{step.tool}</code>
          {step.site ? ` on ${siteLabel(step.site)}` : ''}?
        </h2>
        {step.critical && <span class="critical-badge">Critical</span>}
      </header>
      <AskedBy step={step} />
      <Details step={step} describedBy={ids.description} />
      <EgressList egress={step.egress} />
      <details class="prompt-params">
        <summary>Parameters</summary>
        <pre class="mono-block">{paramsJson(step.params)}</pre>
      </details>
      <Decisions step={step} busy={busy} noGrantNote={ids.noGrant} />
      {waitingAfter > 0 && <p class="hint">{waitingAfter === 1 ? 'One more action is' : `${waitingAfter} more actions are`} waiting after this one.</p>}
    </section>
  );
}

/** Harbor's question about the first step that waits on the user, above the composer. */
export function PermissionPrompt() {
  const [step, ...rest] = pendingPrompt.value;
  if (!step) return null;
  return <Prompt key={step.id} step={step} waitingAfter={rest.length} />;
}
