/**
 * Research mode's workflow planner: the model plans, the user approves (as edited), and each
 * step runs in a tab the workflow opens, as an agent task whose every tool call passes the one
 * step gate with the approved plan as its scope. Steps that only read may run side by side.
 * Every change is journalled before it takes effect, so a stopped background resumes where it
 * was; the evidence the steps collected becomes a report with numbered citations, saved to history.
 */
import { childRequestId, DEFAULT_PARALLEL, JawadError, type BackgroundEvent, type PageContent, type PlanEdit, type ProviderSettings, type WorkflowPlan, type WorkflowStep } from '../../protocol';
import type { ConversationStore } from '../../db/conversations';
import type { JournalEntry } from '../../db/database';
import { SupersededError, type WorkflowStore } from '../../db/workflows';
import { AgentRunner, type AgentDeps } from '../agent/agent-runner';
import type { LlmMessage } from '../llm/types';
import { AGENT_SYSTEM_PROMPT } from '../prompts';
import type { ToolRegistry } from '../tools/registry';
import { checkClaims, evidenceList, FACTS_FORMAT, failureIn, inPlanOrder, parseClaims, renderReport, REPORT_SYSTEM_PROMPT, type PageRead } from './evidence';
import { afterRestart, applyEdits, newStep, nextBatch, withinApproved } from './plan';
import { MAX_PLANNER_ATTEMPTS, parsePlan, plannerMessages, repairMessages, replanMessages, type PlannedStep } from './planner';
import { approvedScope } from './scope';
import { siteOf } from '../harbor/site';

export interface WorkflowTabs {
  /** The window to work in: the given one, else the last focused. */
  window(windowId: number | undefined): Promise<number>;
  /** Opens the page in a new background tab of the window; resolves once it has loaded. */
  open(url: string, windowId: number): Promise<number>;
  url(tabId: number): Promise<string | undefined>;
  close(tabIds: number[]): Promise<void>;
  /** Groups the tabs under the title (a new group unless `existing`); undefined without tab groups. */
  group(tabIds: number[], windowId: number, title: string, existing?: number): Promise<number | undefined>;
}

export interface WorkflowDeps {
  store: Pick<WorkflowStore, 'save' | 'unfinished' | 'latest'>;
  conversations: Pick<ConversationStore, 'create' | 'addMessage' | 'getMessage'>;
  settings: () => Promise<ProviderSettings | undefined>;
  /** The stored number of read-only steps a new plan runs side by side (the plan card can change it). */
  parallel?: () => Promise<number>;
  /** What each step's agent needs (its tabs are the step's own). */
  agent: Omit<AgentDeps, 'tabs'>;
  tabs: WorkflowTabs;
  emit: (event: BackgroundEvent) => void;
  /** Keeps the background up (and wakes it if stopped) while any workflow plans or runs. */
  keepAlive?: (on: boolean) => void;
  /** The mask over the tab a step drives (seed 001). */
  mask?: { drive(tabId: number): Promise<void>; release(tabId: number): Promise<void> };
  now?: () => number;
  newId?: () => string;
}

/** A workflow this background is working on. */
interface Live {
  plan: WorkflowPlan;
  controller: AbortController;
  steps: Map<string, AbortController>;
  /** Journal writes, in order. */
  saving: Promise<void>;
  /** Tab grouping, in order: steps opening tabs side by side must join one group, not make two. */
  grouping: Promise<unknown>;
  /** Another background instance took this workflow over: this one does nothing more for it. */
  superseded: boolean;
  driving: boolean;
}

export const WORKER_PROMPT = [
  'You are one step of a research task: the page for your step is already open in your tab.',
  'Read it with read_page (follow links or act only if your step needs it and is allowed to), then report what the step asks for.',
  FACTS_FORMAT,
].join('\n');

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class WorkflowRunner {
  private readonly live = new Map<string, Live>();
  private readonly now: () => number;
  private readonly newId: () => string;
  /** This background instance: a stopped one that lingers must not drive a workflow a new one resumed. */
  private readonly instance: string;

  constructor(private readonly deps: WorkflowDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
    this.instance = this.newId();
  }

  // ---- What the sidebar asks ----------------------------------------------------------------

  async start(intent: string, windowId: number | undefined, requestId: string): Promise<WorkflowPlan> {
    if (!(await this.deps.settings())) throw new JawadError('NOT_CONFIGURED', 'Choose a model in Settings first: the planner needs one.');
    const now = this.now();
    const plan: WorkflowPlan = {
      id: this.newId(), requestId: childRequestId(requestId, 'workflow'), intent, steps: [], status: 'planning', createdAt: now, updatedAt: now,
      revision: 0, changes: [], evidence: [], unsupported: [], tabs: [], keepTabs: false, parallel: (await this.deps.parallel?.()) ?? DEFAULT_PARALLEL, windowId: await this.deps.tabs.window(windowId),
    };
    const live = this.adopt(plan);
    await this.commit(live, () => undefined, { kind: 'planning', detail: intent });
    this.inBackground(this.plan(live));
    return plan;
  }

  async approve(workflowId: string, edits: PlanEdit[], keepTabs: boolean, parallel = DEFAULT_PARALLEL): Promise<void> {
    const live = this.find(workflowId);
    if (live.plan.status !== 'proposed') throw new JawadError('VALIDATION_ERROR', `This plan is ${live.plan.status}: only a proposed plan can be approved.`);
    const { steps, changes } = applyEdits(live.plan.steps, edits);
    const conversationId = live.plan.conversationId ?? (await this.openConversation(live.plan));
    await this.commit(live, (plan) => {
      plan.steps = steps;
      plan.keepTabs = keepTabs;
      plan.parallel = parallel;
      plan.conversationId = conversationId;
      plan.status = 'running';
      if (changes.length) {
        plan.revision += 1;
        plan.changes.push(...changes);
      }
    }, { kind: 'approved', detail: changes.join(' ') });
    this.inBackground(this.drive(live));
  }

  async confirmStep(workflowId: string, stepId: string, run: boolean): Promise<void> {
    const live = this.find(workflowId);
    const step = live.plan.steps.find((known) => known.id === stepId);
    if (step?.status !== 'confirm') throw new JawadError('NOT_FOUND', 'That step is not waiting for your word.');
    await this.commit(live, () => {
      step.status = run ? 'pending' : 'cancelled';
      step.result = run ? undefined : 'Not run again: you chose to skip it after the restart.';
    }, { kind: run ? 'step-rerun' : 'step-skipped', stepId });
    this.inBackground(this.drive(live));
  }

  async cancel(workflowId: string): Promise<void> {
    const live = this.find(workflowId);
    if (['done', 'failed', 'cancelled'].includes(live.plan.status)) return;
    live.controller.abort();
    await this.commit(live, (plan) => {
      plan.status = 'cancelled';
      for (const step of plan.steps) if (['pending', 'running', 'confirm'].includes(step.status)) step.status = 'cancelled';
    }, { kind: 'cancelled' });
    await this.releaseTabs(live);
  }

  /** The workflows to show: every unfinished one, else the newest finished one. */
  async shown(): Promise<WorkflowPlan[]> {
    const unfinished = [...this.live.values()].map((live) => live.plan).filter((plan) => !['done', 'failed', 'cancelled'].includes(plan.status));
    if (unfinished.length) return unfinished;
    const latest = await this.deps.store.latest();
    return latest ? [latest] : [];
  }

  /** The user pressed Stop on the mask in this tab: the workflow it belongs to is cancelled. */
  async stopFromTab(tabId: number): Promise<void> {
    for (const live of this.live.values()) if (live.plan.tabs.some((tab) => tab.id === tabId)) await this.cancel(live.plan.id);
  }

  /** A tab was closed: a step running there fails (and is re-planned); the tab leaves the list. */
  tabRemoved(tabId: number): void {
    for (const live of this.live.values()) {
      const tab = live.plan.tabs.find((known) => known.id === tabId);
      if (!tab) continue;
      const step = live.plan.steps.find((known) => known.id === tab.stepId && known.status === 'running');
      if (step) live.steps.get(step.id)?.abort(new JawadError('CANCELLED', 'You closed the step’s tab.'));
      void this.commit(live, (plan) => void (plan.tabs = plan.tabs.filter((known) => known.id !== tabId)), { kind: 'tab-closed', detail: String(tabId) });
    }
  }

  /**
   * A tab of a workflow went to another page (a link, a redirect, the user): the list of its tabs
   * shows where each now is, and a tab that left the plan's sites is said in the plan's changes —
   * the step's agent may not act there without asking.
   */
  tabNavigated(tabId: number, url: string): void {
    if (!/^(https?|file):/i.test(url)) return; // the blank page a tab starts on
    for (const live of this.live.values()) {
      const tab = live.plan.tabs.find((known) => known.id === tabId);
      if (!tab || tab.url === url) continue;
      const site = siteOf(url);
      const leftPlan = !approvedScope(live.plan.steps).some((approved) => approved.site === site);
      const task = live.plan.steps.find((step) => step.id === tab.stepId)?.task ?? '';
      void this.commit(live, (plan) => {
        plan.tabs = plan.tabs.map((known) => (known.id === tabId ? { ...known, url } : known));
        if (leftPlan) plan.changes.push(`The tab of step “${task.slice(0, 60)}” went to ${site}, which the plan does not visit: nothing is done there without asking you.`);
      }, { kind: 'tab-navigated', stepId: tab.stepId, detail: url });
    }
  }

  /** At background start: picks up every unfinished workflow where its journal left it. */
  async resume(): Promise<void> {
    for (const plan of await this.deps.store.unfinished()) {
      const live = this.adopt(plan);
      if (plan.status === 'planning') this.inBackground(this.plan(live));
      if (plan.status !== 'running') continue;
      const { steps, confirm } = afterRestart(plan.steps);
      await this.commit(live, (current) => {
        current.steps = steps;
        current.changes.push(`Jawad’s background restarted; the workflow resumed${confirm.length ? ` (${confirm.length} step${confirm.length > 1 ? 's' : ''} waiting for your word)` : ''}.`);
      }, { kind: 'resumed' }, true);
      this.inBackground(this.drive(live));
    }
  }

  // ---- The work -----------------------------------------------------------------------------

  private awake = false;

  /** Asks for the keep-alive while a workflow plans or runs, and lets it go once none does. */
  private holdAwake(): void {
    const busy = [...this.live.values()].some((live) => !live.superseded && ['planning', 'running'].includes(live.plan.status));
    if (busy === this.awake) return;
    this.awake = busy;
    this.deps.keepAlive?.(busy);
  }

  private adopt(plan: WorkflowPlan): Live {
    const live: Live = { plan, controller: new AbortController(), steps: new Map(), saving: Promise.resolve(), grouping: Promise.resolve(), driving: false, superseded: false };
    this.live.set(plan.id, live);
    return live;
  }

  private find(workflowId: string): Live {
    const live = this.live.get(workflowId);
    if (!live) throw new JawadError('NOT_FOUND', 'That workflow is not running any more.');
    return live;
  }

  /**
   * Changes the plan, tells the sidebars, and journals it (awaited: the journal comes before the
   * work). `claim`: this instance takes the workflow over (resuming it after a restart). An instance
   * whose workflow another one took over stops working on it at once.
   */
  private commit(live: Live, change: (plan: WorkflowPlan) => void, entry: Omit<JournalEntry, 'seq' | 'workflowId' | 'at'>, claim = false): Promise<void> {
    if (live.superseded) return Promise.resolve();
    change(live.plan);
    live.plan.updatedAt = this.now();
    this.holdAwake();
    this.deps.emit({ type: 'WORKFLOW_UPDATE', requestId: live.plan.requestId, payload: live.plan });
    const snapshot = structuredClone(live.plan);
    // After the previous write, whether or not it landed: one failed write (a full disk) must not
    // swallow every later one.
    live.saving = live.saving.catch(() => undefined).then(() => this.deps.store.save(snapshot, entry, this.instance, claim)).catch((error: unknown) => {
      if (!(error instanceof SupersededError)) throw error;
      live.superseded = true;
      live.controller.abort();
      if (this.live.get(live.plan.id) === live) this.live.delete(live.plan.id);
    });
    return live.saving;
  }

  private async plan(live: Live): Promise<void> {
    try {
      const planned = await this.askForPlan(live, plannerMessages(live.plan.intent));
      await this.commit(live, (plan) => {
        plan.steps = planned.map((step) => newStep(step, this.newId()));
        plan.status = 'proposed';
        plan.revision += 1;
      }, { kind: 'proposed' });
    } catch (error) {
      await this.fail(live, `Planning failed: ${errorText(error)}`);
    }
  }

  /** The model's plan, re-asked once when it is malformed; then a clear error. */
  private async askForPlan(live: Live, messages: LlmMessage[]): Promise<PlannedStep[]> {
    let problem = '';
    for (let attempt = 1; attempt <= MAX_PLANNER_ATTEMPTS; attempt++) {
      const answer = await this.complete(messages, live.controller.signal);
      const parsed = parsePlan(answer);
      if (parsed.ok) return parsed.steps;
      problem = parsed.problem;
      messages = repairMessages(messages, answer, problem);
    }
    throw new JawadError('VALIDATION_ERROR', `the model did not write a usable plan, even when asked again. ${problem}`);
  }

  private async complete(messages: LlmMessage[], signal: AbortSignal): Promise<string> {
    const settings = await this.deps.settings();
    if (!settings) throw new JawadError('NOT_CONFIGURED', 'Choose a model in Settings first.');
    let text = '';
    for await (const event of this.deps.agent.stream(settings, { messages, signal })) if (event.type === 'text') text += event.text;
    return text;
  }

  private async drive(live: Live): Promise<void> {
    if (live.driving) return;
    live.driving = true;
    try {
      while (live.plan.status === 'running' && !live.controller.signal.aborted) {
        const batch = nextBatch(live.plan.steps, live.plan.parallel);
        if (batch.length === 0) {
          if (!live.plan.steps.some((step) => step.status === 'confirm')) await this.finish(live);
          return;
        }
        await Promise.all(batch.map((step) => this.runStep(live, step)));
        for (const step of batch) if (step.status === 'failed' && !live.controller.signal.aborted) await this.replan(live, step);
      }
    } catch (error) {
      await this.fail(live, errorText(error));
    } finally {
      live.driving = false;
    }
  }

  private async runStep(live: Live, step: WorkflowStep): Promise<void> {
    const controller = new AbortController();
    const stopAll = () => controller.abort(new JawadError('CANCELLED', 'You cancelled the workflow.'));
    live.controller.signal.addEventListener('abort', stopAll, { once: true });
    live.steps.set(step.id, controller);
    try {
      const tabId = await this.openStepTab(live, step);
      await this.commit(live, () => {
        step.status = 'running';
        step.tabId = tabId;
        step.result = undefined;
      }, { kind: 'step-start', stepId: step.id });
      const pages: PageRead[] = [];
      await this.deps.mask?.drive(tabId).catch(() => undefined);
      const { text, stopped } = await this.work(live, step, tabId, pages, controller.signal).finally(() => this.deps.mask?.release(tabId).catch(() => undefined));
      if (live.controller.signal.aborted) return;
      const failure = failureIn(text) ?? (stopped ? errorText(controller.signal.reason ?? 'The step stopped before it finished.') : undefined);
      if (failure) return await this.stepFailed(live, step, failure);
      await this.commit(live, (plan) => {
        const checked = checkClaims(parseClaims(text), pages, step, plan.evidence.length);
        plan.evidence.push(...checked.evidence);
        plan.unsupported.push(...checked.unsupported);
        step.status = 'done';
        step.result = text.trim().slice(0, 4_000);
      }, { kind: 'step-done', stepId: step.id });
    } catch (error) {
      if (!live.controller.signal.aborted) await this.stepFailed(live, step, errorText(error));
    } finally {
      live.controller.signal.removeEventListener('abort', stopAll);
      live.steps.delete(step.id);
    }
  }

  private stepFailed(live: Live, step: WorkflowStep, reason: string): Promise<void> {
    return this.commit(live, () => {
      step.status = 'failed';
      step.result = reason;
    }, { kind: 'step-failed', stepId: step.id, detail: reason });
  }

  /** A tab of the workflow's own for the step (a re-run closes the one it had), in the workflow's group. */
  private async openStepTab(live: Live, step: WorkflowStep): Promise<number> {
    const { plan } = live;
    const windowId = plan.windowId ?? (await this.deps.tabs.window(undefined));
    const stale = plan.tabs.filter((tab) => tab.stepId === step.id).map((tab) => tab.id);
    if (stale.length) await this.deps.tabs.close(stale).catch(() => undefined);
    const tabId = await this.deps.tabs.open(step.site, windowId);
    await this.joinGroup(live, tabId, windowId);
    await this.commit(live, (current) => {
      current.tabs = [...current.tabs.filter((tab) => !stale.includes(tab.id)), { id: tabId, url: step.site, stepId: step.id }];
    }, { kind: 'tab-opened', stepId: step.id, detail: String(tabId) });
    return tabId;
  }

  private joinGroup(live: Live, tabId: number, windowId: number): Promise<unknown> {
    const title = `Task(${live.plan.id.slice(0, 6)})`;
    live.grouping = live.grouping.then(async () => {
      const groupId = await this.deps.tabs.group([tabId], windowId, title, live.plan.groupId).catch(() =>
        // The group went away (the user closed its last tab): start a new one.
        this.deps.tabs.group([tabId], windowId, title).catch(() => undefined),
      );
      if (groupId === undefined) return;
      live.plan.groupId = groupId;
      live.plan.group = title;
    });
    return live.grouping;
  }

  /** Runs the step as an agent task in its tab; every tool call goes through the gate, scoped to the approved plan. */
  private async work(live: Live, step: WorkflowStep, tabId: number, pages: PageRead[], signal: AbortSignal): Promise<{ text: string; stopped: boolean }> {
    const { plan } = live;
    const settings = await this.deps.settings();
    if (!settings) throw new JawadError('NOT_CONFIGURED', 'Choose a model in Settings first.');
    const windowId = plan.windowId ?? -1;
    const runner = new AgentRunner({
      ...this.deps.agent,
      tools: this.readingRecorder(pages),
      tabs: {
        active: async () => ({ id: tabId, url: (await this.deps.tabs.url(tabId)) ?? step.site, windowId }),
        url: (id) => this.deps.tabs.url(id),
      },
    });
    let text = '';
    const outcome = await runner.run({
      settings,
      conversationId: plan.conversationId ?? plan.id,
      messageId: step.id,
      requestId: childRequestId(plan.requestId, 'step'),
      eventRequestId: plan.requestId,
      messages: [
        { role: 'system', content: `${AGENT_SYSTEM_PROMPT}\n${WORKER_PROMPT}` },
        { role: 'user', content: `Research request: ${plan.intent}\nYour step: ${step.task}\nYour page: ${step.site}` },
      ],
      userTexts: [plan.intent, step.task],
      windowId,
      signal,
      onText: (chunk) => void (text += chunk),
      approved: approvedScope(plan.steps),
    });
    return { text, stopped: outcome.status === 'stopped' };
  }

  /**
   * The tool registry as the step sees it, noting every page read_page returns: the pages a
   * quote is checked against. (A view of the shared registry, not a copy: same tools, same limits.)
   */
  private readingRecorder(pages: PageRead[]): ToolRegistry {
    const shared = this.deps.agent.tools;
    const view = Object.create(shared) as ToolRegistry;
    view.execute = async (name, parameters, context, timeoutMs) => {
      const outcome = await shared.execute(name, parameters, context, timeoutMs);
      if (name === 'read_page' && outcome.success && context.tabId !== undefined) {
        const page = outcome.data as PageContent;
        pages.push({ url: page.url, title: page.title, text: page.markdown, at: this.now(), tabId: context.tabId });
      }
      return outcome;
    };
    return view;
  }

  /** A failed step: the model re-plans what is left, and the change is shown on the plan. */
  /**
   * Asks the model for other steps in place of one that failed. Once per step of the approved
   * plan: a step a re-plan added that fails too is not re-planned again, so steps that keep failing
   * (a site that is down, a full disk) end the workflow instead of re-planning it for ever.
   */
  private async replan(live: Live, failed: WorkflowStep): Promise<void> {
    if (failed.replaces) {
      await this.commit(live, (plan) => void plan.changes.push(`Step “${failed.task.slice(0, 80)}” failed too (${failed.result}); it was itself a re-plan, so it is not re-planned again.`), { kind: 'replan-failed', stepId: failed.id });
      return;
    }
    let planned: PlannedStep[];
    try {
      planned = await this.askForPlan(live, replanMessages(live.plan, failed));
    } catch (error) {
      await this.commit(live, (plan) => void plan.changes.push(`Step ${failed.task.slice(0, 80)} failed (${failed.result}); re-planning did not work (${errorText(error)}): the other steps run as planned.`), { kind: 'replan-failed' });
      return;
    }
    const added = planned.map((step) => ({ ...newStep(step, this.newId()), replaces: failed.id }));
    const needsApproval = !withinApproved(live.plan, added);
    await this.commit(live, (plan) => {
      plan.steps = [...plan.steps.filter((step) => step.status !== 'pending'), ...added];
      plan.revision += 1;
      plan.changes.push(`Step “${failed.task.slice(0, 80)}” failed (${failed.result}). Re-planned: ${added.map((step) => `“${step.task.slice(0, 60)}” on ${step.site}`).join('; ')}.${needsApproval ? ' The new plan visits sites or does things you have not approved: approve it to go on.' : ''}`);
      if (needsApproval) plan.status = 'proposed';
    }, { kind: 'replanned', stepId: failed.id });
  }

  /** The report, from the evidence: written by the model, checked and cited by Jawad, saved to history. */
  private async finish(live: Live): Promise<void> {
    const { plan } = live;
    const evidence = inPlanOrder(plan.evidence, plan.steps);
    const summary = evidence.length
      ? await this.complete([{ role: 'system', content: REPORT_SYSTEM_PROMPT }, { role: 'user', content: `Request: ${plan.intent}\n\nEvidence:\n${evidenceList(evidence)}` }], live.controller.signal)
      : 'The workflow collected no evidence for this request.';
    const report = renderReport({ intent: plan.intent, summary, evidence, unsupported: plan.unsupported });
    await this.saveReport(plan, report);
    await this.commit(live, (current) => {
      current.evidence = evidence;
      current.report = report;
      current.status = 'done';
    }, { kind: 'done' });
    await this.releaseTabs(live);
  }

  private async openConversation(plan: WorkflowPlan): Promise<string> {
    const conversation = await this.deps.conversations.create(this.newId(), `Research: ${plan.intent}`, this.now());
    await this.deps.conversations.addMessage({ id: this.newId(), conversationId: conversation.id, role: 'user', content: plan.intent, status: 'complete', createdAt: this.now(), requestId: plan.requestId });
    return conversation.id;
  }

  /** Saved once, under an id of the workflow's: a finish repeated after a restart does not save it twice. */
  private async saveReport(plan: WorkflowPlan, report: string): Promise<void> {
    const id = `report-${plan.id}`;
    if (!plan.conversationId || (await this.deps.conversations.getMessage(id))) return;
    const model = (await this.deps.settings())?.model;
    await this.deps.conversations.addMessage({ id, conversationId: plan.conversationId, role: 'assistant', content: report, status: 'complete', createdAt: this.now(), requestId: childRequestId(plan.requestId, 'report'), ...(model ? { model } : {}) });
  }

  /**
   * Planning and driving go on after the sidebar's request is answered. Their failures end in
   * fail(), which tells the sidebars first; what can still go wrong then is the journal's write
   * itself (a full disk), and there is no one left to tell but the log.
   */
  private inBackground(work: Promise<void>): void {
    work.catch((error: unknown) => console.warn('A workflow could not write its journal:', error));
  }

  /** The sidebars are told at once; the tabs are closed even when the journal cannot be written. */
  private async fail(live: Live, reason: string): Promise<void> {
    const journalled = this.commit(live, (plan) => {
      plan.status = 'failed';
      plan.error = reason;
    }, { kind: 'failed', detail: reason });
    await Promise.all([journalled, this.releaseTabs(live)]);
  }

  /** The workflow's tabs are closed at the end unless the user chose to keep them: never left orphaned. */
  private async releaseTabs(live: Live): Promise<void> {
    if (live.plan.keepTabs || live.plan.tabs.length === 0) return;
    const ids = live.plan.tabs.map((tab) => tab.id);
    await this.deps.tabs.close(ids).catch(() => undefined);
    await this.commit(live, (plan) => void (plan.tabs = []), { kind: 'tabs-closed', detail: ids.join(',') });
  }
}
