/**
 * The one step gate: every tool call a principal proposes — the built-in agent today, the
 * research planner and the external bridge tomorrow — goes classify → policy → guard → ask →
 * decide → execute here, and nowhere else.
 *
 * What the user approves is bound: the tab, the document and the target's identity are fixed
 * when the step is judged and checked again in the page at the moment of acting; any change and
 * the step does not run. Stop reaches every tool: no tool of the task starts after it, and a
 * running one is cancelled. The tools panel is the user's own manual action and does not come here.
 */
import {
  childRequestId,
  frameOfRef,
  framePrefix,
  targetOf,
  type AgentStep,
  type BackgroundEvent,
  type Binding,
  type ContentRequest,
  type Decision,
  type PageSnapshot,
  type PermissionLevel,
  type TargetDescription,
} from '../../protocol';
import { JawadError } from '../../protocol/errors';
import { checkPermission, isGrantable, originOf, siteOf, type HarborPolicy } from '../harbor';
import type { ToolOutcome, ToolRegistry } from '../tools/registry';
import type { TaskTab } from '../page-scripts';
import { deniedForModel, resultForModel, resultText, summarise } from '../agent/tool-results';
import { LoopDetector } from '../agent/loop-detector';
import { classifyStep, type StepClass } from './classify';
import { guardStep, PageDataLedger, TaskScope, type ApprovedSite } from './guard';
import type { PermissionBroker } from './permission-broker';

export type { TaskTab };

/** What the gate asks the page: the target, and what the action would do to it. */
export type DescribeRequest = Extract<ContentRequest, { type: 'DESCRIBE' }>['payload'];

export interface GateDeps {
  tools: ToolRegistry;
  /** Grants are per principal: a paired client's grants are its own, never the user's. */
  harbor: {
    policy(principal?: string): Promise<HarborPolicy>;
    decide(decision: Decision, step: { site: string; level: PermissionLevel; critical: boolean }, principal?: string): Promise<unknown>;
  };
  steps: { put(step: AgentStep): Promise<void> };
  broker: PermissionBroker;
  describe: (context: { requestId: string; windowId?: number; tabId: number; tabUrl: string }, request: DescribeRequest) => Promise<TargetDescription>;
  tabs: { active(windowId: number | undefined): Promise<TaskTab>; url(tabId: number): Promise<string | undefined> };
  emit: (event: BackgroundEvent) => void;
  now?: () => number;
  newId?: () => string;
}

/** Who started a task and where its steps are filed; only `principal` may answer its prompts. */
export interface GateTask {
  /** "user" for the sidebar and the runner; a paired client's own id for the bridge. */
  principal: string;
  conversationId: string;
  messageId: string;
  /** The chain each step extends (user-…:chat-…). */
  requestId: string;
  /** The user's request, which events answer. */
  eventRequestId: string;
  windowId?: number;
  signal: AbortSignal;
  /**
   * Who answers this task's prompts; defaults to `principal`. A paired client's steps are answered
   * by the user who paired it (USER), never by the client itself nor by another client.
   */
  answeredBy?: string;
  /** Where the task's steps act; defaults to the active tab of its window (the bridge routes per client). */
  tab?: () => Promise<TaskTab>;
  /** A research plan's approved sites and levels: its scope (see TaskScope). */
  approved?: readonly ApprovedSite[];
}

/** Everything the gate keeps for one task between steps. */
export class GatedTask {
  readonly ledger = new PageDataLedger();
  readonly loops = new LoopDetector();
  readonly steps: AgentStep[] = [];
  /** Per tab, the document each frame's snapshot refs came from (refs restart at e1 on every page). */
  readonly snapshotDocuments = new Map<number, Record<string, string>>();

  /** The steps' writes, one after the other: a later version of a step never lands before an earlier one. */
  private writes: Promise<void> = Promise.resolve();
  /** A write nobody waited for that failed: reported at the task's next step or its end. */
  private unreportedFailure: unknown;

  constructor(
    readonly task: GateTask,
    readonly windowId: number,
    readonly scope: TaskScope,
  ) {}

  /** Queues a write; with `wait` false the caller goes on, and a failure is reported by `settled`. */
  write(work: () => Promise<unknown>, wait: boolean): Promise<void> {
    const done = this.writes.then(work).then(() => undefined);
    this.writes = done.catch((error: unknown) => {
      if (!wait) this.unreportedFailure ??= error;
    });
    return wait ? done : Promise.resolve();
  }

  /** Throws a failed write nobody waited for (once), without waiting for the ones under way. */
  reportFailedWrite(): void {
    const failure = this.unreportedFailure;
    this.unreportedFailure = undefined;
    if (failure !== undefined) throw failure;
  }

  /** Resolves once every write queued so far has landed; rejects with a failed one nobody waited for. */
  async settled(): Promise<void> {
    await this.writes;
    this.reportFailedWrite();
  }
}

/** Where one step leaves the task. */
export interface StepEnd {
  forModel: string;
  /** The tool's own outcome, when it ran (the bridge answers its client with the data itself). */
  outcome?: ToolOutcome;
  /** Set when the task must end here, with the reason for the user. */
  stop?: string;
}

export interface ProposedCall {
  name: string;
  /** The arguments as the proposer wrote them (JSON text). */
  arguments: string;
  /** What the proposer said before the call. */
  thinking?: string;
}

/** A judged step, with what running it is bound to. */
interface Judged {
  step: AgentStep;
  tab: TaskTab;
  binding?: Binding;
  /** The page itself refused before anything ran (the refs are stale): tell the proposer. */
  refused?: JawadError;
}

function parseArguments(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw.trim() || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function askingReason(level: PermissionLevel, site: string): string {
  const where = site || 'this page';
  return level === 'submit' ? `Submitting on ${where} always asks.` : `Jawad needs your permission to ${level === 'navigate' ? 'navigate' : 'act'} on ${where}.`;
}


export class StepGate {
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: GateDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
  }

  /** Starts a task in the active tab of its window: that tab and site are its own. */
  async open(task: GateTask, userText: string): Promise<GatedTask> {
    const start = await this.tabOf(task);
    return new GatedTask(task, start.windowId, new TaskScope({ tabId: start.id, url: start.url }, userText, task.approved));
  }

  /** One tool call, from proposal to result. */
  async step(state: GatedTask, call: ProposedCall): Promise<StepEnd> {
    state.reportFailedWrite();
    const params = parseArguments(call.arguments);
    const tab = await this.tabOf(state.task, state.windowId);
    // A tab one of the task's tabs opened (a link to a new tab) is the task's too.
    if (tab.openerTabId !== undefined && state.scope.hasTab(tab.openerTabId)) state.scope.adoptTab(tab.id);
    const base = this.newStep(state, call.name, params ?? { arguments: call.arguments.slice(0, 500) }, tab.url, call.thinking ?? '');
    if (!params) {
      const error = { code: 'VALIDATION_ERROR' as const, message: 'Arguments are not valid JSON.' };
      const failed: AgentStep = { ...base, status: 'failed', decision: 'auto-approve', result: { success: false, summary: 'The model sent arguments that are not valid JSON.', error } };
      return this.finishWithoutRunning(state, failed, `VALIDATION_ERROR: the arguments of ${call.name} are not valid JSON. Send a JSON object.`);
    }
    if (state.task.signal.aborted) return this.stoppedBeforeStart(state, base);
    const judged = await this.judge(state, base, params, tab);
    const { step } = judged;
    if (judged.refused) {
      const error = { code: judged.refused.code, message: judged.refused.message };
      const failed: AgentStep = { ...step, status: 'failed', decision: 'auto-approve', verdict: 'auto-approve', reasons: [], promptRaised: false, result: { success: false, summary: judged.refused.message, error } };
      return this.finishWithoutRunning(state, failed, resultForModel(step.tool, { success: false, error, duration: 0 }));
    }
    if (step.verdict === 'deny') {
      const denied: AgentStep = { ...step, status: 'denied', decision: 'policy-deny', result: { success: false, summary: step.reasons.join(' ') || 'Not allowed.' } };
      return this.finishWithoutRunning(state, denied, deniedForModel(step.tool, false));
    }
    if (step.verdict === 'auto-approve') return this.execute(state, judged, params);
    const decision = await this.ask(state, step);
    const answered: AgentStep = { ...step, decision };
    if (decision === 'deny' || decision === 'deny-all' || state.task.signal.aborted) return this.refused(state, answered);
    await this.deps.harbor.decide(decision, { site: step.site, level: step.level, critical: step.critical }, state.task.principal);
    this.widenScope(state, step, params);
    return this.execute(state, { ...judged, step: { ...answered, status: 'running' } }, params);
  }

  private tabOf(task: GateTask, windowId = task.windowId): Promise<TaskTab> {
    return task.tab ? task.tab() : this.deps.tabs.active(windowId);
  }

  /** Harbor's verdict and the guard's findings, written into the step the user will see, with what it is bound to. */
  private async judge(state: GatedTask, base: AgentStep, params: Record<string, unknown>, tab: TaskTab): Promise<Judged> {
    // Both are waits on other processes (the page, storage): side by side, not one after the other.
    const [described, policy] = await Promise.all([this.describe(state, base, params, tab), this.deps.harbor.policy(state.task.principal)]);
    if (described.refused) return { step: base, tab, refused: described.refused };
    const classified = this.classify(base, params, tab, described.target, described.otherTabUrl);
    const guard = guardStep(classified.facts, state.scope, state.ledger);
    let verdict = checkPermission(policy, base.tool, classified.level, classified.site, classified.critical);
    const beyondPlan = state.scope.beyondApproved(classified.site, classified.level);
    const forced = [...guard.reasons, ...(beyondPlan ? [beyondPlan] : []), ...(described.unreadable ? ['Jawad could not inspect the target element.'] : [])];
    if (verdict === 'auto-approve' && (forced.length > 0 || classified.readsSecret)) verdict = 'ask';
    const reasons = verdict === 'auto-approve' ? [] : [...classified.reasons, ...forced];
    if (verdict === 'ask' && reasons.length === 0) reasons.push(askingReason(classified.level, classified.site));
    const step: AgentStep = {
      ...base,
      site: classified.site,
      level: classified.level,
      critical: classified.critical,
      reasons,
      ...(classified.target ? { target: classified.target } : {}),
      egress: guard.egress,
      verdict,
      grantable: isGrantable(policy, classified.level, classified.critical) && !classified.readsSecret,
      promptRaised: verdict === 'ask',
      status: verdict === 'ask' ? 'asking' : 'running',
      ...(verdict === 'auto-approve' ? { decision: 'auto-approve' as const } : {}),
    };
    const target = described.target;
    const binding: Binding | undefined = target?.documentId
      ? { documentId: target.documentId, role: target.role, name: target.name, ...(target.effect?.destination ?? target.url ? { url: (target.effect?.destination ?? target.url)! } : {}) }
      : undefined;
    return { step, tab, ...(binding ? { binding } : {}) };
  }

  /**
   * Asks the page what the target is and what the action would do to it. A ref from a snapshot of
   * another document is refused here, before anything is judged: the refs restart on every page.
   */
  private async describe(state: GatedTask, base: AgentStep, params: Record<string, unknown>, tab: TaskTab) {
    const tool = this.deps.tools.get(base.tool);
    const effects = tool?.effects ?? {};
    const tabParam = effects.tab;
    const otherTabUrl = tabParam && typeof params[tabParam] === 'number' ? await this.deps.tabs.url(params[tabParam] as number) : undefined;
    // An unknown tool fails in the registry; there is nothing to ask the page about.
    if (!tool || !effects.target) return { otherTabUrl, unreadable: false };
    const wanted = targetOf(params);
    // Reading the page itself (its title, URL, text) is judged on the tab's site alone: the
    // description of the page as a target changes no verdict, and asking cost a page round trip.
    if (tool.level === 'read-only' && !wanted.ref && !wanted.selector) return { otherTabUrl, unreadable: false };
    const expectDocument = wanted.ref ? state.snapshotDocuments.get(tab.id)?.[framePrefix(frameOfRef(wanted.ref))] : undefined;
    const value = effects.keys ? params[effects.keys] : effects.typesKeys && effects.text ? params[effects.text] : undefined;
    const request: DescribeRequest = {
      target: wanted,
      action: effects.target,
      ...(typeof value === 'string' ? { value } : {}),
      ...(expectDocument ? { expectDocument } : {}),
    };
    try {
      const target = await this.deps.describe({ requestId: childRequestId(state.task.requestId, 'describe'), windowId: state.windowId, tabId: tab.id, tabUrl: tab.url }, request);
      return { target, otherTabUrl, unreadable: false };
    } catch (error) {
      if (error instanceof JawadError && error.code === 'STALE_REF') return { refused: error, otherTabUrl, unreadable: false };
      return { otherTabUrl, unreadable: true };
    }
  }

  /** `base.level` is the tool's declared level (newStep looked the tool up). */
  private classify(base: AgentStep, params: Record<string, unknown>, tab: TaskTab, target: TargetDescription | undefined, otherTabUrl: string | undefined): StepClass {
    const effects = this.deps.tools.get(base.tool)?.effects ?? {};
    return classifyStep({ tool: base.tool, level: base.level, effects, params, tab, ...(target ? { target } : {}), ...(otherTabUrl === undefined ? {} : { otherTabUrl }) });
  }

  /** Shows the prompt and waits for the task's own principal (a stop counts as deny-all). */
  private async ask(state: GatedTask, step: AgentStep): Promise<Decision> {
    const { task } = state;
    await this.save(state, step);
    if (!task.signal.aborted) this.deps.emit({ type: 'PERMISSION_REQUEST', requestId: task.eventRequestId, payload: { step } });
    return this.deps.broker.wait(step.id, task.signal, task.answeredBy ?? task.principal);
  }

  private async refused(state: GatedTask, step: AgentStep): Promise<StepEnd> {
    const stopped = state.task.signal.aborted;
    const summary = stopped ? 'Stopped.' : 'You denied this step.';
    const end = await this.finishWithoutRunning(state, { ...step, status: stopped ? 'stopped' : 'denied', result: { success: false, summary } }, deniedForModel(step.tool, true));
    if (step.decision !== 'deny-all' && !stopped) return end;
    return { ...end, stop: stopped ? 'You stopped the task.' : `You denied step ${step.index} and stopped the task.` };
  }

  private async stoppedBeforeStart(state: GatedTask, step: AgentStep): Promise<StepEnd> {
    const stopped: AgentStep = { ...step, status: 'stopped', result: { success: false, summary: 'Not run: you stopped the task.' } };
    await this.save(state, stopped);
    return { forModel: `CANCELLED: ${step.tool} was not run: the user stopped the task.`, stop: 'You stopped the task.' };
  }

  /** After the user allowed a step that leaves the task's sites or tabs, those become the task's. */
  private widenScope(state: GatedTask, step: AgentStep, params: Record<string, unknown>): void {
    state.scope.allowSite(step.site);
    const leadsTo = step.target?.url;
    if (leadsTo) state.scope.allowSite(siteOf(leadsTo));
    const tabParam = this.deps.tools.get(step.tool)?.effects.tab;
    if (tabParam && typeof params[tabParam] === 'number') state.scope.adoptTab(params[tabParam] as number);
  }

  private async execute(state: GatedTask, judged: Judged, params: Record<string, unknown>): Promise<StepEnd> {
    const { step, tab, binding } = judged;
    if (state.task.signal.aborted) return this.stoppedBeforeStart(state, step);
    await this.save(state, step, step.level !== 'read-only');
    const tool = this.deps.tools.get(step.tool);
    const outcome = await this.deps.tools.execute(step.tool, params, {
      requestId: step.requestId,
      windowId: state.windowId,
      tabId: tab.id,
      // Read as this step began; after a prompt (seconds, minutes) the tool reads it again.
      ...(step.promptRaised ? {} : { tabUrl: tab.url }),
      visibleTabs: state.scope.tabList(),
      signal: state.task.signal,
      ...(binding ? { binding } : {}),
    });
    const text = resultText(step.tool, outcome);
    const readFrom = step.url ?? tab.url;
    state.ledger.addPageText(text, step.site || siteOf(readFrom), originOf(readFrom));
    this.rememberDocuments(state, tab, step.tool, outcome.data);
    const opened = (outcome.data as { id?: unknown } | undefined)?.id;
    if (outcome.success && tool?.effects.opensTab && typeof opened === 'number') state.scope.adoptTab(opened);
    const cancelled = outcome.error?.code === 'CANCELLED';
    const finished: AgentStep = {
      ...step,
      status: cancelled ? 'stopped' : outcome.success ? 'done' : 'failed',
      result: { success: outcome.success, summary: summarise(step.tool, outcome, step.target), ...(outcome.error ? { error: outcome.error } : {}) },
      duration: outcome.duration,
    };
    await this.save(state, finished, false);
    if (cancelled) return { forModel: resultForModel(step.tool, outcome), outcome, stop: 'You stopped the task.' };
    const loop = state.loops.record(step.tool, params, outcome.success);
    return { forModel: resultForModel(step.tool, outcome), outcome, ...(loop ? { stop: `I stopped because I was going round in circles: ${loop}` } : {}) };
  }

  /** A snapshot's refs are good for the documents it was taken of: later refs are checked against them. */
  private rememberDocuments(state: GatedTask, tab: TaskTab, tool: string, data: unknown): void {
    const documents = tool === 'snapshot' ? (data as Partial<PageSnapshot> | undefined)?.documents : undefined;
    if (documents) state.snapshotDocuments.set(tab.id, documents);
  }

  private async finishWithoutRunning(state: GatedTask, step: AgentStep, forModel: string): Promise<StepEnd> {
    await this.save(state, step);
    const loop = state.loops.record(step.tool, step.params, false);
    return { forModel, ...(loop ? { stop: `I stopped because I was going round in circles: ${loop}` } : {}) };
  }

  private newStep(state: GatedTask, tool: string, params: Record<string, unknown>, url: string, thinking: string): AgentStep {
    const { task } = state;
    return {
      id: this.newId(),
      conversationId: task.conversationId,
      messageId: task.messageId,
      requestId: childRequestId(task.requestId, 'step'),
      index: state.steps.length + 1,
      createdAt: this.now(),
      ...(thinking.trim() ? { thinking: thinking.trim() } : {}),
      tool,
      params,
      site: siteOf(url),
      url,
      level: this.deps.tools.get(tool)?.level ?? 'read-only',
      critical: false,
      reasons: [],
      egress: [],
      verdict: 'auto-approve',
      grantable: false,
      promptRaised: false,
      status: 'running',
    };
  }

  /**
   * Stores the step and tells the sidebars; the step list keeps the latest version of each. `wait`:
   * whether the step may go on only once the write has landed — before anything that may change a
   * page runs, and before a prompt, so that a restarted background finds them (a read needs no such
   * record: it can simply run again).
   */
  private async save(state: GatedTask, step: AgentStep, wait = true): Promise<void> {
    const at = state.steps.findIndex((known) => known.id === step.id);
    if (at === -1) state.steps.push(step);
    else state.steps[at] = step;
    await state.write(() => this.deps.steps.put(step), wait);
    this.deps.emit({ type: 'ACTION_LOG_UPDATE', requestId: state.task.eventRequestId, payload: { step } });
  }
}
