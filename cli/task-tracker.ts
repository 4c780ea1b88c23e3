/**
 * Follows one agent task through the background's events. Pure bookkeeping, no browser: the
 * transport (agent-task.ts) feeds it whatever arrives on the Port, and it says which permission
 * prompts need an answer and when the task is over.
 */
import { BackgroundEvent, chainRoot, type AgentStep, type ErrorPayload, type StoredMessage } from '../src/protocol';

export type TaskState =
  | { kind: 'running' }
  | { kind: 'finished'; conversationId: string; answer: StoredMessage }
  | { kind: 'failed'; error: ErrorPayload };

export class TaskTracker {
  private conversationId: string | null;
  private assistantMessageId: string | null = null;
  private readonly steps = new Map<string, AgentStep>();
  private readonly prompted = new Set<string>();
  private readonly prompts: AgentStep[] = [];
  private readonly unanswered: AgentStep[] = [];
  private current: TaskState = { kind: 'running' };

  constructor(
    /** The CHAT_MESSAGE's requestId: every event of this task carries it or a chain under it. */
    private readonly requestId: string,
    conversationId: string | null = null,
  ) {
    this.conversationId = conversationId;
  }

  get state(): TaskState {
    return this.current;
  }

  /** Takes one message as it came off the Port; anything malformed or foreign is ignored. */
  receive(raw: unknown): void {
    if (this.current.kind !== 'running') return;
    const parsed = BackgroundEvent.safeParse(raw);
    if (!parsed.success) return;
    const event = parsed.data;
    switch (event.type) {
      case 'CHAT_RESPONSE':
        return this.onChatResponse(event);
      case 'ACTION_LOG_UPDATE':
        if (this.owns(event.payload.step)) this.steps.set(event.payload.step.id, event.payload.step);
        return;
      case 'PERMISSION_REQUEST':
        return this.onPermissionRequest(event.payload.step);
      case 'ERROR':
        if (this.isOurs(event.requestId)) this.current = { kind: 'failed', error: event.payload };
        return;
      default:
        return;
    }
  }

  /** Prompts received since the last call, each once: the caller answers them. */
  takePrompts(): AgentStep[] {
    return this.unanswered.splice(0);
  }

  /** The latest state of every step of this task, in index order. */
  stepsInOrder(): AgentStep[] {
    return [...this.steps.values()].sort((a, b) => a.index - b.index);
  }

  allPrompts(): AgentStep[] {
    return [...this.prompts];
  }

  /** The conversation the task runs in, once the background has said (null before that). */
  get conversation(): string | null {
    return this.conversationId;
  }

  /** The last step seen, for a timeout message that says where the task was stuck. */
  lastStep(): AgentStep | undefined {
    return this.stepsInOrder().at(-1);
  }

  private onChatResponse(event: Extract<BackgroundEvent, { type: 'CHAT_RESPONSE' }>): void {
    const { payload } = event;
    if (payload.phase === 'start') {
      if (event.requestId !== this.requestId) return;
      this.conversationId = payload.conversation.id;
      this.assistantMessageId = payload.assistantMessage.id;
      return;
    }
    if (payload.phase !== 'final') return;
    const ours = this.assistantMessageId ? payload.message.id === this.assistantMessageId : event.requestId === this.requestId;
    if (!ours) return;
    this.current = { kind: 'finished', conversationId: payload.conversationId, answer: payload.message };
  }

  private onPermissionRequest(step: AgentStep): void {
    if (!this.owns(step)) return;
    this.steps.set(step.id, step);
    if (this.prompted.has(step.id)) return;
    this.prompted.add(step.id);
    this.prompts.push(step);
    this.unanswered.push(step);
  }

  private owns(step: AgentStep): boolean {
    return this.isOurs(step.requestId) || (this.assistantMessageId !== null && step.messageId === this.assistantMessageId);
  }

  private isOurs(requestId: string): boolean {
    return chainRoot(requestId) === this.requestId;
  }
}
