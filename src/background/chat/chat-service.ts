import {
  childRequestId,
  clipText,
  JawadError,
  oneLine,
  toErrorPayload,
  type BackgroundEvent,
  type Conversation,
  type PageContent,
  type PageRef,
  type ProviderSettings,
  type SidebarRequestOf,
  type Usage,
  type UsedContext,
} from '../../protocol';
import { publicMessage, type ConversationStore } from '../../db/conversations';
import type { MessageRow } from '../../db/database';
import type { SettingsStore } from '../../db/settings';
import { LlmError } from '../llm/errors';
import type { RouterRequest } from '../llm/router';
import type { LlmConfig, StreamEvent } from '../llm/types';
import { usageOf } from '../llm/usage-meter';
import type { AgentOutcome, AgentTask } from '../agent/agent-runner';
import { AGENT_SYSTEM_PROMPT, SUMMARY_INSTRUCTION, wrapPageContent } from '../prompts';
import { toLlmMessages } from './history';
import { ThrottledSave } from './throttled-save';

export interface ChatDeps {
  conversations: ConversationStore;
  settings: SettingsStore;
  readPage: (requestId: string, windowId?: number) => Promise<PageContent>;
  stream: (config: LlmConfig, request: RouterRequest) => AsyncIterable<StreamEvent>;
  /** Runs a turn as a tool-calling agent (CHAT_MESSAGE with agent: true). */
  agent?: { run(task: AgentTask): Promise<AgentOutcome> };
  /** Sends an event to every open sidebar. */
  emit: (event: BackgroundEvent) => void;
  /** Recalls what may help with a question, and keeps what pages said (issue 14's memory). */
  memory?: {
    recall(question: string, conversationId: string | undefined, windowId?: number, page?: PageContent): Promise<{ block: string; used: UsedContext[] }>;
    rememberPage(page: PageContent): Promise<void>;
  };
  /** Pauses the answer's model calls that would go over a budget (history/budget-guard.ts). */
  budget?: { track(signal: AbortSignal, task: { conversationId: string; messageId: string; requestId: string; eventRequestId: string }): () => void };
  now?: () => number;
  newId?: () => string;
}

interface Turn {
  conversationId: string | null;
  content: string;
  /** What the model is asked, when it differs from what the user sees. */
  prompt?: string;
  page?: PageContent;
  titleHint: string;
  /** Set when the model may act on the page: the window whose active tab it acts in. */
  agent?: { windowId?: number };
  /** The sidebar's window: memory offers a page's memories only on that page's site. */
  windowId?: number | undefined;
}

/** Chat turns: stores them, streams the model's answer to the sidebar, and stops or retries it. */
export class ChatService {
  private readonly running = new Map<string, AbortController>();
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: ChatDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
  }

  isStreaming(conversationId: string): boolean {
    return this.running.has(conversationId);
  }

  async sendMessage(request: SidebarRequestOf<'CHAT_MESSAGE'>): Promise<void> {
    const { conversationId, content, attachPage, agent, windowId } = request.payload;
    const settings = await this.requireSettings();
    if (agent && !this.deps.agent) throw new JawadError('REGISTRY_NOT_READY', 'The agent is not available.');
    const page = attachPage ? await this.deps.readPage(request.requestId, windowId) : undefined;
    await this.runTurn(settings, request.requestId, { conversationId, content, page, titleHint: content, windowId, ...(agent ? { agent: { windowId } } : {}) });
  }

  async summarizePage(request: SidebarRequestOf<'SUMMARIZE_PAGE'>): Promise<void> {
    const settings = await this.requireSettings();
    const page = await this.deps.readPage(request.requestId, request.payload.windowId);
    const title = page.title || page.url;
    await this.runTurn(settings, request.requestId, {
      conversationId: request.payload.conversationId,
      content: `Summarize this page: ${title}`,
      prompt: SUMMARY_INSTRUCTION,
      page,
      titleHint: `Summary: ${title}`,
      windowId: request.payload.windowId,
    });
  }

  /** Regenerates an assistant answer: it and everything after it are replaced. */
  async retry(request: SidebarRequestOf<'RETRY_MESSAGE'>): Promise<void> {
    const { conversationId, messageId } = request.payload;
    const settings = await this.requireSettings();
    const controller = this.reserve(conversationId);
    try {
      const conversation = await this.requireConversation(conversationId);
      const target = await this.deps.conversations.getMessage(messageId);
      if (!target || target.conversationId !== conversationId || target.role !== 'assistant') {
        throw new JawadError('NOT_FOUND', 'That answer no longer exists.');
      }
      await this.deps.conversations.truncateFrom(conversationId, target.createdAt);
      const assistant = {
        ...this.assistantRow(conversationId, childRequestId(request.requestId, 'chat'), settings),
        ...(target.agent ? { agent: true } : {}),
        ...(target.context ? { context: target.context } : {}),
      };
      await this.deps.conversations.addMessage(assistant);
      const current = { ...conversation, updatedAt: assistant.createdAt };
      this.emit(request.requestId, { phase: 'start', conversation: current, assistantMessage: publicMessage(assistant), replaces: messageId });
      await this.generate(settings, conversation, assistant, request.requestId, controller, target.agent ? {} : undefined);
    } finally {
      this.release(conversationId, controller);
    }
  }

  stop(conversationId: string): boolean {
    const controller = this.running.get(conversationId);
    controller?.abort();
    return controller !== undefined;
  }

  stopAll(): void {
    for (const controller of this.running.values()) controller.abort();
  }

  private async runTurn(settings: ProviderSettings, requestId: string, turn: Turn): Promise<void> {
    const controller = this.reserve(turn.conversationId);
    try {
      await this.startTurn(settings, requestId, turn, controller);
    } finally {
      this.release(turn.conversationId, controller);
    }
  }

  /**
   * Claims a conversation before the first await, so two requests racing for the same conversation
   * cannot both pass the check (the loser's stream would run on with no way to stop it).
   */
  private reserve(conversationId: string | null): AbortController {
    const controller = new AbortController();
    if (conversationId) {
      this.assertIdle(conversationId);
      this.running.set(conversationId, controller);
    }
    return controller;
  }

  private release(conversationId: string | null, controller: AbortController): void {
    if (conversationId && this.running.get(conversationId) === controller) this.running.delete(conversationId);
  }

  private async startTurn(settings: ProviderSettings, requestId: string, turn: Turn, controller: AbortController): Promise<void> {
    const conversation = turn.conversationId
      ? await this.requireConversation(turn.conversationId)
      : await this.deps.conversations.create(this.newId(), turn.titleHint, this.now());
    const chain = childRequestId(requestId, 'chat');
    const recalled = await this.recall(turn, conversation.id);
    const user: MessageRow = {
      id: this.newId(),
      conversationId: conversation.id,
      role: 'user',
      content: turn.content,
      status: 'complete',
      createdAt: this.now(),
      requestId: chain,
      ...(turn.page ? { page: pageRefOf(turn.page), pageContext: wrapPageContent(turn.page) } : {}),
      ...(turn.prompt ? { prompt: turn.prompt } : {}),
      ...(recalled.block ? { memoryContext: recalled.block } : {}),
    };
    await this.deps.conversations.addMessage(user);
    const assistant: MessageRow = {
      ...this.assistantRow(conversation.id, chain, settings),
      ...(turn.agent ? { agent: true } : {}),
      ...(recalled.used.length > 0 ? { context: recalled.used } : {}),
    };
    await this.deps.conversations.addMessage(assistant);
    // addMessage moved updatedAt forward; the sidebar sorts its history by it.
    const current = { ...conversation, updatedAt: assistant.createdAt };
    this.emit(requestId, { phase: 'start', conversation: current, userMessage: publicMessage(user), assistantMessage: publicMessage(assistant) });
    await this.generate(settings, conversation, assistant, requestId, controller, turn.agent);
  }

  /** What memory has for this turn; a memory failure never stops the answer. */
  private async recall(turn: Turn, conversationId: string): Promise<{ block: string; used: UsedContext[] }> {
    const memory = this.deps.memory;
    if (!memory) return { block: '', used: [] };
    if (turn.page) await memory.rememberPage(turn.page).catch((error: unknown) => console.warn('Jawad: could not remember the page', error));
    return memory.recall(turn.content, conversationId, turn.windowId, turn.page).catch((error: unknown) => {
      console.warn('Jawad: memory recall failed', error);
      return { block: '', used: [] };
    });
  }

  private assistantRow(conversationId: string, requestId: string, settings: ProviderSettings): MessageRow {
    // +1 keeps the answer ordered after a user turn stored in the same millisecond.
    return { id: this.newId(), conversationId, role: 'assistant', content: '', status: 'streaming', createdAt: this.now() + 1, requestId, model: settings.model };
  }

  private async generate(settings: ProviderSettings, conversation: Conversation, assistant: MessageRow, requestId: string, controller: AbortController, agent?: { windowId?: number }): Promise<void> {
    this.running.set(conversation.id, controller);
    const history = (await this.deps.conversations.messages(conversation.id)).filter((row) => row.id !== assistant.id);
    const answer = { content: '', reasoning: '' };
    const journal = new ThrottledSave<typeof answer>((saved) => this.deps.conversations.updateMessage(assistant.id, { content: saved.content, ...(saved.reasoning ? { reasoning: saved.reasoning } : {}) }));
    let usage: Usage | undefined;
    let outcome: Pick<MessageRow, 'status' | 'error'> = { status: 'complete' };
    const ids = { conversationId: conversation.id, messageId: assistant.id };
    const append = (text: string) => {
      answer.content += text;
      this.emit(requestId, { phase: 'delta', ...ids, text });
      journal.push({ ...answer });
    };
    const think = (text: string) => {
      answer.reasoning += text;
      this.emit(requestId, { phase: 'thinking', ...ids, text });
      journal.push({ ...answer });
    };
    const untrack = this.deps.budget?.track(controller.signal, { conversationId: conversation.id, messageId: assistant.id, requestId: assistant.requestId, eventRequestId: requestId });
    try {
      const messages = toLlmMessages(history);
      if (agent && this.deps.agent) {
        const task = { settings, ...ids, requestId: assistant.requestId, eventRequestId: requestId, signal: controller.signal, onText: append, onReasoning: think };
        const result = await this.deps.agent.run({
          ...task,
          messages: [{ role: 'system', content: AGENT_SYSTEM_PROMPT }, ...messages.slice(1)],
          userTexts: history.filter((row) => row.role === 'user').map((row) => row.content),
          ...(agent.windowId === undefined ? {} : { windowId: agent.windowId }),
        });
        usage = result.usage;
        if (result.status === 'stopped') outcome = { status: 'stopped' };
      } else {
        const kind = history.at(-1)?.prompt === SUMMARY_INSTRUCTION ? 'summarize' : 'chat';
        const request: RouterRequest = { messages, signal: controller.signal, usage: { requestId: assistant.requestId, kind, ...ids } };
        for await (const event of this.deps.stream(settings, request)) {
          if (event.type === 'text') append(event.text);
          else if (event.type === 'reasoning') think(event.text);
          else if (event.type === 'usage') usage = usageOf(event);
        }
      }
      if (answer.content.trim() === '' && outcome.status === 'complete') {
        const why = answer.reasoning ? 'The model only thought and gave no answer (it may have run out of tokens).' : 'The model returned an empty answer.';
        outcome = { status: 'error', error: { code: 'LLM_ERROR', message: `${why} Press Retry, or try another model.` } };
      }
    } catch (error) {
      outcome = error instanceof LlmError && error.kind === 'cancelled'
        ? { status: 'stopped' }
        : { status: 'error', error: toErrorPayload(error) };
    } finally {
      untrack?.();
      if (this.running.get(conversation.id) === controller) this.running.delete(conversation.id);
    }
    await journal.flush();
    const final = await this.deps.conversations.updateMessage(assistant.id, {
      content: answer.content,
      ...(answer.reasoning ? { reasoning: answer.reasoning } : {}),
      ...outcome,
      ...(usage ? { usage } : {}),
    });
    if (final) this.emit(requestId, { phase: 'final', conversationId: conversation.id, message: publicMessage(final) });
  }

  private emit(requestId: string, payload: Extract<BackgroundEvent, { type: 'CHAT_RESPONSE' }>['payload']): void {
    this.deps.emit({ type: 'CHAT_RESPONSE', requestId, payload });
  }

  private async requireSettings(): Promise<ProviderSettings> {
    const settings = await this.deps.settings.load();
    if (!settings) throw new JawadError('NOT_CONFIGURED', 'Choose a model provider in Settings first.');
    return settings;
  }

  private async requireConversation(id: string): Promise<Conversation> {
    const conversation = await this.deps.conversations.get(id);
    if (!conversation) throw new JawadError('NOT_FOUND', 'That conversation no longer exists.');
    return conversation;
  }

  private assertIdle(conversationId: string): void {
    if (this.running.has(conversationId)) {
      throw new JawadError('EXECUTION_ERROR', 'An answer is still streaming in this conversation. Stop it first.');
    }
  }
}

/** How much of the user's selection the page chip shows. */
const SELECTION_SHOWN = 80;

/** The page a message was about, as its chip shows it: title, address, and the start of the selection. */
function pageRefOf({ title, url, selection }: PageContent): PageRef {
  return { title, url, ...(selection ? { selection: clipText(oneLine(selection), SELECTION_SHOWN) } : {}) };
}
