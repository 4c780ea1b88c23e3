/**
 * The agent loop: the model proposes tool calls, Harbor and the guard decide, the user approves
 * what needs approval, the registry runs the rest. Each step is stored and streamed as it moves
 * (ACTION_LOG_UPDATE), and the loop ends with the model's answer — or with Jawad's own account
 * of what was done when it had to stop (step limit, a loop, deny-all, stop).
 */
import {
  childRequestId,
  targetOf,
  type AgentStep,
  type BackgroundEvent,
  type Decision,
  type PermissionLevel,
  type ProviderSettings,
  type Target,
  type TargetDescription,
  type Usage,
} from '../../protocol';
import { checkPermission, isGrantable, siteOf, type HarborPolicy } from '../harbor';
import type { RouterRequest } from '../llm/router';
import type { LlmConfig, LlmMessage, StreamEvent, ToolCall, ToolDefinition } from '../llm/types';
import type { ToolRegistry } from '../tools/registry';
import { classifyStep, type StepClass } from './classify';
import { guardStep, PageDataLedger, TaskScope } from './guard';
import { LoopDetector } from './loop-detector';
import type { PermissionBroker } from './permission-broker';
import { addUsage, usageOf } from '../llm/usage-meter';
import { progressReport } from './report';
import { deniedForModel, resultForModel, resultText, summarise } from './tool-results';

export const MAX_STEPS = 30;

export interface TaskTab {
  id: number;
  url: string;
  windowId: number;
  /** The tab this one was opened from (a link with target=_blank), when the browser knows. */
  openerTabId?: number;
}

export interface AgentDeps {
  stream: (config: LlmConfig, request: RouterRequest) => AsyncIterable<StreamEvent>;
  tools: ToolRegistry;
  harbor: {
    policy(): Promise<HarborPolicy>;
    decide(decision: Decision, step: { site: string; level: PermissionLevel; critical: boolean }): Promise<unknown>;
  };
  steps: { put(step: AgentStep): Promise<void> };
  broker: PermissionBroker;
  describe: (context: { requestId: string; windowId?: number }, target: Target) => Promise<TargetDescription>;
  tabs: { active(windowId: number | undefined): Promise<TaskTab>; url(tabId: number): Promise<string | undefined> };
  /** Which tool-call format a model needs, remembered once its server rejected native tools. */
  toolModes: { get(model: string): Promise<'native' | 'xml' | undefined>; remember(model: string, mode: 'native' | 'xml'): Promise<void> };
  emit: (event: BackgroundEvent) => void;
  now?: () => number;
  newId?: () => string;
}

export interface AgentTask {
  settings: ProviderSettings;
  conversationId: string;
  messageId: string;
  /** The assistant message's chain (user-…:chat-…); each step extends it. */
  requestId: string;
  /** The user's request, which events answer. */
  eventRequestId: string;
  /** The conversation so far, ending with the user's task; the system prompt first. */
  messages: LlmMessage[];
  /** The user's own words in this conversation: data in them is theirs to send. */
  userTexts: string[];
  windowId?: number;
  signal: AbortSignal;
  onText: (text: string) => void;
  /** The model's thinking, shown apart from the answer and never sent back. */
  onReasoning?: (text: string) => void;
}

export interface AgentOutcome {
  status: 'complete' | 'stopped';
  usage?: Usage;
}

interface ModelTurn {
  text: string;
  calls: ToolCall[];
}

/** Where one step leaves the task. */
interface StepEnd {
  forModel: string;
  /** Set when the task must end here, with the reason for the user. */
  stop?: string;
}

/** Everything one task keeps between steps. */
class TaskState {
  readonly ledger = new PageDataLedger();
  readonly loops = new LoopDetector();
  readonly steps: AgentStep[] = [];
  usage: Usage = { inputTokens: 0, outputTokens: 0 };
  sawUsage = false;

  constructor(
    readonly task: AgentTask,
    readonly windowId: number,
    readonly scope: TaskScope,
  ) {
    for (const text of task.userTexts) this.ledger.addUserText(text);
  }
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

export class AgentRunner {
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: AgentDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
  }

  async run(task: AgentTask): Promise<AgentOutcome> {
    const start = await this.deps.tabs.active(task.windowId);
    const state = new TaskState(task, start.windowId, new TaskScope({ tabId: start.id, url: start.url }, task.userTexts.at(-1) ?? ''));
    const messages = [...task.messages];
    const tools: ToolDefinition[] = this.deps.tools.list().map(({ type, function: fn }) => ({ type, function: fn }));
    const modelKey = `${task.settings.provider} ${task.settings.baseUrl} ${task.settings.model}`;
    let toolMode = (await this.deps.toolModes.get(modelKey)) ?? 'native';

    for (;;) {
      const usage = { requestId: task.requestId, kind: 'agent' as const, conversationId: task.conversationId, messageId: task.messageId };
      const turn = await this.modelTurn(state, { messages, tools, signal: task.signal, toolMode, usage }, async (mode) => {
        if (mode !== toolMode) await this.deps.toolModes.remember(modelKey, (toolMode = mode));
      });
      if (turn.calls.length === 0) {
        if (!turn.text.trim()) task.onText(progressReport(state.steps, 'The model ended without an answer.'));
        return this.outcome(state, 'complete');
      }
      messages.push({ role: 'assistant', content: turn.text, toolCalls: turn.calls });
      for (const [position, call] of turn.calls.entries()) {
        if (state.steps.length >= MAX_STEPS) {
          task.onText(progressReport(state.steps, `I stopped after ${MAX_STEPS} steps, the most one task may take.`));
          return this.outcome(state, 'stopped');
        }
        const end = await this.step(state, call, position === 0 ? turn.text : '');
        messages.push({ role: 'tool', toolCallId: call.id, content: end.forModel });
        if (end.stop) {
          task.onText(progressReport(state.steps, end.stop));
          return this.outcome(state, 'stopped');
        }
      }
    }
  }

  private outcome(state: TaskState, status: AgentOutcome['status']): AgentOutcome {
    return { status, ...(state.sawUsage ? { usage: state.usage } : {}) };
  }

  private async modelTurn(state: TaskState, request: RouterRequest, learnedMode: (mode: 'native' | 'xml') => Promise<void>): Promise<ModelTurn> {
    const turn: ModelTurn = { text: '', calls: [] };
    for await (const event of this.deps.stream(state.task.settings, request)) {
      if (event.type === 'text') {
        turn.text += event.text;
        state.task.onText(event.text);
      } else if (event.type === 'tool_call') {
        turn.calls.push(event.call);
      } else if (event.type === 'reasoning') {
        state.task.onReasoning?.(event.text);
      } else if (event.type === 'usage') {
        // One usage event per model call (its usage record): the task's total is their sum.
        state.sawUsage = true;
        state.usage = addUsage(state.usage, usageOf(event));
      } else if (event.type === 'done' && event.toolMode !== 'none') {
        await learnedMode(event.toolMode);
      }
    }
    // Text between turns reads as paragraphs in the answer.
    if (turn.calls.length > 0 && turn.text.trim()) state.task.onText('\n\n');
    return turn;
  }

  /** One tool call, from proposal to result. */
  private async step(state: TaskState, call: ToolCall, thinking: string): Promise<StepEnd> {
    const params = parseArguments(call.arguments);
    const tab = await this.deps.tabs.active(state.windowId);
    // A tab one of the task's tabs opened (a link to a new tab) is the task's too.
    if (tab.openerTabId !== undefined && state.scope.hasTab(tab.openerTabId)) state.scope.adoptTab(tab.id);
    const base = this.newStep(state, call.name, params ?? { arguments: call.arguments.slice(0, 500) }, tab.url, thinking);
    if (!params) {
      const error = { code: 'VALIDATION_ERROR' as const, message: 'Arguments are not valid JSON.' };
      const failed: AgentStep = { ...base, status: 'failed', decision: 'auto-approve', result: { success: false, summary: 'The model sent arguments that are not valid JSON.', error } };
      return this.finishWithoutRunning(state, failed, `VALIDATION_ERROR: the arguments of ${call.name} are not valid JSON. Send a JSON object.`);
    }
    const step = await this.judge(state, base, params, tab);
    if (step.verdict === 'deny') {
      const denied: AgentStep = { ...step, status: 'denied', decision: 'policy-deny', result: { success: false, summary: step.reasons.join(' ') || 'Not allowed.' } };
      return this.finishWithoutRunning(state, denied, deniedForModel(step.tool, false));
    }
    if (step.verdict === 'auto-approve') return this.execute(state, step, params);
    const decision = await this.ask(state, step);
    const answered: AgentStep = { ...step, decision };
    if (decision === 'deny' || decision === 'deny-all') return this.refused(state, answered);
    await this.deps.harbor.decide(decision, { site: step.site, level: step.level, critical: step.critical });
    this.widenScope(state, step, params);
    return this.execute(state, { ...answered, status: 'running' }, params);
  }

  /** Harbor's verdict and the guard's findings, written into the step the user will see. */
  private async judge(state: TaskState, base: AgentStep, params: Record<string, unknown>, tab: TaskTab): Promise<AgentStep> {
    const classified = await this.classify(state, base, params, tab);
    const policy = await this.deps.harbor.policy();
    const guard = guardStep(classified.facts, state.scope, state.ledger);
    let verdict = checkPermission(policy, base.tool, classified.level, classified.site, classified.critical);
    const forced = [...guard.reasons, ...(classified.unreadable ? ['Jawad could not inspect the target element.'] : [])];
    if (verdict === 'auto-approve' && forced.length > 0) verdict = 'ask';
    const reasons = verdict === 'auto-approve' ? [] : [...classified.reasons, ...forced];
    if (verdict === 'ask' && reasons.length === 0) reasons.push(askingReason(classified.level, classified.site));
    return {
      ...base,
      site: classified.site,
      level: classified.level,
      critical: classified.critical,
      reasons,
      ...(classified.target ? { target: classified.target } : {}),
      egress: guard.egress,
      verdict,
      grantable: isGrantable(policy, classified.level, classified.critical),
      promptRaised: verdict === 'ask',
      status: verdict === 'ask' ? 'asking' : 'running',
      ...(verdict === 'auto-approve' ? { decision: 'auto-approve' as const } : {}),
    };
  }

  /** Shows the prompt and waits for the user (a stop counts as deny-all). */
  private async ask(state: TaskState, step: AgentStep): Promise<Decision> {
    const { task } = state;
    await this.save(state, step);
    if (!task.signal.aborted) this.deps.emit({ type: 'PERMISSION_REQUEST', requestId: task.eventRequestId, payload: { step } });
    return this.deps.broker.wait(step.id, task.signal);
  }

  private async refused(state: TaskState, step: AgentStep): Promise<StepEnd> {
    const stopped = state.task.signal.aborted;
    const summary = stopped ? 'Stopped.' : 'You denied this step.';
    const end = await this.finishWithoutRunning(state, { ...step, status: stopped ? 'stopped' : 'denied', result: { success: false, summary } }, deniedForModel(step.tool, true));
    if (step.decision !== 'deny-all') return end;
    return { ...end, stop: stopped ? 'You stopped the task.' : `You denied step ${step.index} and stopped the task.` };
  }

  /** `base.level` is the tool's declared level (newStep looked the tool up). */
  private async classify(state: TaskState, base: AgentStep, params: Record<string, unknown>, tab: TaskTab): Promise<StepClass & { unreadable: boolean }> {
    const { tool, level } = base;
    let target: TargetDescription | undefined;
    let unreadable = false;
    // An unknown tool fails in the registry; there is no target to ask the page about.
    const wanted = targetOf(params);
    if ((wanted.ref ?? wanted.selector) && this.deps.tools.get(tool)) {
      target = await this.deps.describe({ requestId: childRequestId(state.task.requestId, 'describe'), windowId: state.windowId }, wanted).catch(() => {
        unreadable = true;
        return undefined;
      });
    }
    const otherTabUrl = typeof params.tabId === 'number' ? await this.deps.tabs.url(params.tabId) : undefined;
    const classified = classifyStep({ tool, level, params, tab, ...(target ? { target } : {}), ...(otherTabUrl === undefined ? {} : { otherTabUrl }) });
    return { ...classified, unreadable };
  }

  /** After the user allowed a step that leaves the task's sites or tabs, those become the task's. */
  private widenScope(state: TaskState, step: AgentStep, params: Record<string, unknown>): void {
    state.scope.allowSite(step.site);
    if (typeof params.tabId === 'number') state.scope.adoptTab(params.tabId);
  }

  private async execute(state: TaskState, step: AgentStep, params: Record<string, unknown>): Promise<StepEnd> {
    await this.save(state, step);
    const outcome = await this.deps.tools.execute(step.tool, params, { requestId: step.requestId, windowId: state.windowId });
    const text = resultText(step.tool, outcome);
    state.ledger.addPageText(text, step.site || siteOf(step.url ?? ''));
    const opened = (outcome.data as { id?: unknown } | undefined)?.id;
    if (outcome.success && step.tool === 'new_tab' && typeof opened === 'number') state.scope.adoptTab(opened);
    const finished: AgentStep = {
      ...step,
      status: outcome.success ? 'done' : 'failed',
      result: { success: outcome.success, summary: summarise(step.tool, outcome, step.target), ...(outcome.error ? { error: outcome.error } : {}) },
      duration: outcome.duration,
    };
    await this.save(state, finished);
    const loop = state.loops.record(step.tool, params, outcome.success);
    return { forModel: resultForModel(step.tool, outcome), ...(loop ? { stop: `I stopped because I was going round in circles: ${loop}` } : {}) };
  }

  private async finishWithoutRunning(state: TaskState, step: AgentStep, forModel: string): Promise<StepEnd> {
    await this.save(state, step);
    const loop = state.loops.record(step.tool, step.params, false);
    return { forModel, ...(loop ? { stop: `I stopped because I was going round in circles: ${loop}` } : {}) };
  }

  private newStep(state: TaskState, tool: string, params: Record<string, unknown>, url: string, thinking: string): AgentStep {
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

  /** Stores the step and tells the sidebars; the step list keeps the latest version of each. */
  private async save(state: TaskState, step: AgentStep): Promise<void> {
    const at = state.steps.findIndex((known) => known.id === step.id);
    if (at === -1) state.steps.push(step);
    else state.steps[at] = step;
    await this.deps.steps.put(step);
    this.deps.emit({ type: 'ACTION_LOG_UPDATE', requestId: state.task.eventRequestId, payload: { step } });
  }
}
