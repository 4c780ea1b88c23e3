/**
 * `jawad research`: one research workflow in a real browser. The plan, every change of it and each
 * finished step go to stdout as JSON lines; the report with its sources is the last line.
 *
 * ResearchFollower is the pure part (what to print and what to answer, per event); the loop
 * around it speaks the sidebar protocol over a Port in the welcome page, as `jawad run` does.
 */
import type { Page } from 'puppeteer-core';
import { childRequestId, newRequestId, type AgentStep, type BackgroundEvent, type Decision, type SidebarRequest, type WorkflowPlan } from '../src/protocol';
import { closeTaskPort, drainTolerantly, openTaskPort, postOnTaskPort } from './agent-task';
import type { ResearchOptions } from './args';
import { isFinished, stepLine } from './json-lines';
import { EXIT_COMPLETE, EXIT_NOT_COMPLETE, runnerDecision, type Output } from './run';

type Outgoing = Omit<SidebarRequest, 'requestId'>;

export interface FollowerOptions {
  approvePlan: boolean;
  approve: Exclude<Decision, 'deny-all'>;
  /** Critical steps are denied unless this is set, as in `jawad run`. */
  approveCritical?: boolean;
}

/** What the runner does with one event: lines to print, requests to send, and whether it is over. */
export interface Reaction {
  lines: string[];
  send: Outgoing[];
  exit?: number;
}

export function workflowLine(plan: WorkflowPlan): string {
  const { report: _report, ...rest } = plan;
  return JSON.stringify({ type: 'workflow', ...rest });
}

export function reportLine(plan: WorkflowPlan): string {
  return JSON.stringify({
    type: 'report',
    status: plan.status,
    text: plan.report ?? null,
    sources: plan.evidence.map(({ n, url, title, quote, at, tabId }) => ({ n, url, title, quote, at, tabId })),
    unsupported: plan.unsupported,
    ...(plan.error ? { error: plan.error } : {}),
  });
}

export class ResearchFollower {
  private workflowId: string | undefined;
  private readonly printedSteps = new Set<string>();
  private readonly answered = new Set<string>();
  private approvedRevision = -1;

  constructor(private readonly options: FollowerOptions) {}

  receive(event: BackgroundEvent): Reaction {
    switch (event.type) {
      case 'WORKFLOW_UPDATE':
        return this.onPlan(event.payload);
      case 'ACTION_LOG_UPDATE':
        return this.onStep(event.payload.step);
      case 'PERMISSION_REQUEST':
        return this.onPrompt(event.payload.step);
      case 'ERROR':
        return { lines: [JSON.stringify({ type: 'error', error: event.payload })], send: [], exit: EXIT_NOT_COMPLETE };
      default:
        return { lines: [], send: [] };
    }
  }

  private onPlan(plan: WorkflowPlan): Reaction {
    if (this.workflowId && plan.id !== this.workflowId) return { lines: [], send: [] };
    this.workflowId = plan.id;
    const lines = [workflowLine(plan)];
    if (plan.status === 'done' || plan.status === 'failed' || plan.status === 'cancelled') {
      return { lines: [...lines, reportLine(plan)], send: [], exit: plan.status === 'done' ? EXIT_COMPLETE : EXIT_NOT_COMPLETE };
    }
    if (plan.status === 'proposed') {
      if (!this.options.approvePlan) return { lines, send: [{ type: 'CANCEL_WORKFLOW', payload: { workflowId: plan.id } }], exit: EXIT_NOT_COMPLETE };
      if (this.approvedRevision === plan.revision) return { lines, send: [] };
      this.approvedRevision = plan.revision;
      const steps = plan.steps.filter((step) => step.status === 'pending').map(({ id, task, site, permissions }) => ({ id, task, site, permissions }));
      return { lines, send: [{ type: 'APPROVE_WORKFLOW', payload: { workflowId: plan.id, steps, keepTabs: false, parallel: plan.parallel } }] };
    }
    // After a restart, a step that may have changed something runs again only if prompts are allowed.
    const rerun = this.options.approve !== 'deny';
    const confirm = plan.steps.filter((step) => step.status === 'confirm' && !this.answered.has(`confirm:${step.id}`));
    for (const step of confirm) this.answered.add(`confirm:${step.id}`);
    return { lines, send: confirm.map((step) => ({ type: 'CONFIRM_WORKFLOW_STEP', payload: { workflowId: plan.id, stepId: step.id, run: rerun } })) };
  }

  private onStep(step: AgentStep): Reaction {
    if (!isFinished(step) || this.printedSteps.has(step.id)) return { lines: [], send: [] };
    this.printedSteps.add(step.id);
    return { lines: [stepLine(step)], send: [] };
  }

  private onPrompt(step: AgentStep): Reaction {
    if (this.answered.has(step.id)) return { lines: [], send: [] };
    this.answered.add(step.id);
    const decision = runnerDecision(step, { approve: this.options.approve, approveCritical: this.options.approveCritical ?? false });
    return { lines: [], send: [{ type: 'PERMISSION_RESPONSE', payload: { stepId: step.id, decision } }] };
  }
}

const POLL_MS = 50;
const KEEPALIVE_MS = 20_000;
/** Background restarts one run follows (one per step of a long workflow is possible, not endless). */
const MAX_RECONNECTS = 30;

/** Runs the workflow over a Port in `host`; resolves with the exit code. */
export async function runResearch(host: Page, options: ResearchOptions, output: Output, windowId?: number): Promise<number> {
  const taskKey = newRequestId('research');
  const follower = new ResearchFollower({ approvePlan: options.approvePlan, approve: options.approve, approveCritical: options.approveCritical });
  const start: SidebarRequest = { type: 'START_WORKFLOW', requestId: taskKey, payload: { intent: options.intent, ...(windowId === undefined ? {} : { windowId }) } };
  await openTaskPort(host, taskKey, start);
  const deadline = Date.now() + options.timeoutMs;
  let nextKeepalive = Date.now() + KEEPALIVE_MS;
  const failures = { count: 0 };
  let reconnects = 0;
  try {
    for (;;) {
      const drained = await drainTolerantly(host, taskKey, failures);
      for (const text of drained.messages) {
        const reaction = follower.receive(JSON.parse(text) as BackgroundEvent);
        for (const line of reaction.lines) output.line(line);
        for (const message of reaction.send) await postOnTaskPort(host, taskKey, { ...message, requestId: childRequestId(taskKey, 'answer') } as SidebarRequest);
        if (reaction.exit !== undefined) return reaction.exit;
      }
      if (drained.disconnected) {
        // The browser stopped the background (Chrome's idle worker, Firefox's event page): the next
        // one resumes the workflow from its journal, and a new Port follows it from where it is.
        if (++reconnects > MAX_RECONNECTS) throw new Error(`Jawad's background closed the connection ${MAX_RECONNECTS} times before the workflow finished.`);
        await openTaskPort(host, taskKey, { type: 'GET_WORKFLOWS', requestId: childRequestId(taskKey, 'resume'), payload: {} });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`The workflow did not finish within ${Math.round(options.timeoutMs / 1000)} s.`);
      if (Date.now() > nextKeepalive) {
        await postOnTaskPort(host, taskKey, { type: 'PING', requestId: childRequestId(taskKey, 'ping'), payload: {} });
        nextKeepalive = Date.now() + KEEPALIVE_MS;
      }
      await new Promise((done) => setTimeout(done, POLL_MS));
    }
  } finally {
    await closeTaskPort(host, taskKey).catch(() => undefined);
  }
}
