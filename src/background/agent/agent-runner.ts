/**
 * The agent loop: the model proposes tool calls, and each goes through the one step gate
 * (classify → Harbor → guard → ask → execute, see gate/step-gate.ts). The loop ends with the
 * model's answer — or with Jawad's own account of what was done when it had to stop (step limit,
 * a loop, deny-all, stop).
 */
import type { BackgroundEvent, ProviderSettings, Usage } from '../../protocol';
import type { RouterRequest } from '../llm/router';
import type { LlmConfig, LlmMessage, StreamEvent, ToolCall, ToolDefinition } from '../llm/types';
import { StepGate, type GateDeps, type GatedTask } from '../gate/step-gate';
import { USER } from '../gate/permission-broker';
import { addUsage, usageOf } from '../llm/usage-meter';
import type { ApprovedSite } from '../gate/guard';
import { progressReport } from './report';

export type { TaskTab } from '../gate/step-gate';

export const MAX_STEPS = 30;

export interface AgentDeps extends GateDeps {
  stream: (config: LlmConfig, request: RouterRequest) => AsyncIterable<StreamEvent>;
  /** Which tool-call format a model needs, remembered once its server rejected native tools. */
  toolModes: { get(model: string): Promise<'native' | 'xml' | undefined>; remember(model: string, mode: 'native' | 'xml'): Promise<void> };
  emit: (event: BackgroundEvent) => void;
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
  /** A research step's approved plan: its sites and levels are the task's scope. */
  approved?: readonly ApprovedSite[];
}

export interface AgentOutcome {
  status: 'complete' | 'stopped';
  usage?: Usage;
}

interface ModelTurn {
  text: string;
  calls: ToolCall[];
}

/** What the loop keeps besides the gate's own state. */
interface LoopState {
  gated: GatedTask;
  task: AgentTask;
  usage: Usage;
  sawUsage: boolean;
}

/** Earlier turns' text (answers, tool results, attached pages) may hold page data: the ledger knows it. */
function rememberEarlierTurns(gated: GatedTask, task: AgentTask): void {
  for (const text of task.userTexts) gated.ledger.addUserText(text);
  const mine = new Set(task.userTexts);
  for (const message of task.messages.slice(1)) {
    if (message.role === 'system' || (message.role === 'user' && mine.has(message.content))) continue;
    gated.ledger.addPageText(message.content, 'an earlier page');
  }
}

export class AgentRunner {
  private readonly gate: StepGate;

  constructor(private readonly deps: AgentDeps) {
    this.gate = new StepGate(deps);
  }

  async run(task: AgentTask): Promise<AgentOutcome> {
    const gated = await this.gate.open({ principal: USER, ...task }, task.userTexts.at(-1) ?? '');
    rememberEarlierTurns(gated, task);
    const state: LoopState = { gated, task, usage: { inputTokens: 0, outputTokens: 0 }, sawUsage: false };
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
        if (!turn.text.trim()) task.onText(progressReport(gated.steps, 'The model ended without an answer.'));
        return this.outcome(state, 'complete');
      }
      messages.push({ role: 'assistant', content: turn.text, toolCalls: turn.calls });
      for (const [position, call] of turn.calls.entries()) {
        if (gated.steps.length >= MAX_STEPS) {
          task.onText(progressReport(gated.steps, `I stopped after ${MAX_STEPS} steps, the most one task may take.`));
          return this.outcome(state, 'stopped');
        }
        const end = await this.gate.step(gated, { ...call, thinking: position === 0 ? turn.text : '' });
        messages.push({ role: 'tool', toolCallId: call.id, content: end.forModel });
        if (end.stop) {
          task.onText(progressReport(gated.steps, end.stop));
          return this.outcome(state, 'stopped');
        }
      }
    }
  }

  /** Ends the task once its steps are stored (a step's last write is not waited for when it is made). */
  private async outcome(state: LoopState, status: AgentOutcome['status']): Promise<AgentOutcome> {
    await state.gated.settled();
    return { status, ...(state.sawUsage ? { usage: state.usage } : {}) };
  }

  private async modelTurn(state: LoopState, request: RouterRequest, learnedMode: (mode: 'native' | 'xml') => Promise<void>): Promise<ModelTurn> {
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
}
