/**
 * The sidebar's state as plain data, and the pure function that applies a background event to it.
 * Signals in store.ts hold it; this file has no browser calls, so it is unit-tested directly.
 */
import {
  chainRoot,
  INTERRUPTED_STEP,
  type ActivityEntry,
  type AgentStep,
  type BackgroundEvent,
  type BridgeStatus,
  type BackgroundEventOf,
  type Conversation,
  type CostReport,
  type ImportPreview,
  type Memory,
  type Trace,
  type UsedContext,
  type SearchHit,
  type ErrorPayload,
  type Grant,
  type HarborOptions,
  type PublicSettings,
  type PublicVoiceSettings,
  type StoredMessage,
  type TestResultPayload,
  type ToolListing,
  type ToolResult,
  type WorkflowPlan,
  type ResearchSettings,
} from '../protocol';

export interface ChatState {
  /** null: a new conversation that has no messages yet. */
  conversation: Conversation | null;
  messages: StoredMessage[];
  conversations: Conversation[];
  /** undefined until the background has answered GET_SETTINGS. */
  settings: PublicSettings | null | undefined;
  testResult: TestResultPayload | undefined;
  banner: ErrorPayload | undefined;
  /** undefined until the background has answered GET_VOICE_SETTINGS. */
  voiceSettings: PublicVoiceSettings | undefined;
  /** The tool registry, once the tools panel has asked for it. */
  tools: ToolListing[] | undefined;
  /** The tools panel's last run. */
  toolResult: ToolResult | undefined;
  /** The agent's steps in the open conversation, in index order. */
  steps: AgentStep[];
  /** Steps of other conversations waiting for the user's permission (their tasks are paused). */
  waitingElsewhere: AgentStep[];
  /** Harbor's grants and options, once the settings view has asked for them. */
  harbor: { grants: Grant[]; options: HarborOptions } | undefined;
  /** The external agent bridge: status, clients, pairing requests, client prompts, activity. */
  bridge: BridgeStatus | undefined;
  /** The activity log as GET_ACTIVITY_LOG last answered it. */
  activity: ActivityEntry[] | undefined;
  /** How many older messages of the open conversation are not loaded. */
  earlier: number;
  /** A message to bring into view (opened from a search hit). */
  focus: string | undefined;
  /** The history view's last search. */
  search: { query: string; hits: SearchHit[] } | undefined;
  /** What an import would add, or added. */
  importResult: ImportPreview | undefined;
  costs: CostReport | undefined;
  /** Saved memories and whether memory is on, once the memory view has asked. */
  memory: { enabled: boolean; memories: Memory[] } | undefined;
  /** The trace the user opened from an answer (shown over the chat). */
  trace: Trace | undefined;
  /** Work paused before going over a budget, waiting for the user. */
  budgetPrompts: BudgetPrompt[];
  /** The memory view's "try a question": what memory would use. */
  recall: { question: string; used: UsedContext[] } | undefined;
  /** The research workflow on screen: the newest one the background told of. */
  workflow: WorkflowPlan | undefined;
  /** Research mode's stored settings, once the background has answered. */
  research: ResearchSettings | undefined;
}

export type BudgetPrompt = BackgroundEventOf<'BUDGET_REQUEST'>['payload'];

export const initialState: ChatState = {
  conversation: null,
  messages: [],
  conversations: [],
  settings: undefined,
  testResult: undefined,
  banner: undefined,
  voiceSettings: undefined,
  tools: undefined,
  toolResult: undefined,
  steps: [],
  waitingElsewhere: [],
  harbor: undefined,
  bridge: undefined,
  activity: undefined,
  earlier: 0,
  focus: undefined,
  search: undefined,
  importResult: undefined,
  costs: undefined,
  memory: undefined,
  trace: undefined,
  budgetPrompts: [],
  recall: undefined,
  workflow: undefined,
  research: undefined,
};

/** A deleted conversation's task is stopped with it: its prompts are no one's to answer. */
function dropDeleted(state: ChatState, conversations: Conversation[]): ChatState {
  const waitingElsewhere = state.waitingElsewhere.filter((step) => conversations.some((c) => c.id === step.conversationId));
  return { ...state, waitingElsewhere };
}

/**
 * Switches the open conversation's steps. Prompts of the conversation being left stay known (its
 * task still waits for an answer); those of the one being opened move back on screen.
 */
export function withOpenSteps(state: ChatState, conversationId: string | null, steps: AgentStep[]): ChatState {
  const leaving = state.steps.filter((step) => step.status === 'asking' && step.conversationId !== conversationId);
  const waitingElsewhere = [...state.waitingElsewhere.filter((step) => step.conversationId !== conversationId && !leaving.some((l) => l.id === step.id)), ...leaving];
  return { ...state, steps, waitingElsewhere };
}

function upsertConversation(list: Conversation[], conversation: Conversation): Conversation[] {
  return [conversation, ...list.filter((c) => c.id !== conversation.id)].sort((a, b) => b.updatedAt - a.updatedAt);
}

/** Whether this sidebar sent the request an event answers (the event may carry a longer chain). */
function isOwn(requestId: string, ownRequests: ReadonlySet<string>): boolean {
  return ownRequests.has(requestId) || ownRequests.has(chainRoot(requestId));
}

function byIndex(a: AgentStep, b: AgentStep): number {
  return a.index - b.index || a.createdAt - b.createdAt;
}

function upsertStep(steps: AgentStep[], step: AgentStep): AgentStep[] {
  return [...steps.filter((s) => s.id !== step.id), step].sort(byIndex);
}

function replaceMessage(messages: StoredMessage[], message: StoredMessage): StoredMessage[] {
  const index = messages.findIndex((m) => m.id === message.id);
  if (index === -1) return [...messages, message];
  const next = messages.slice();
  next[index] = message;
  return next;
}

/**
 * Applies one event. `ownRequests` are the requestIds this sidebar sent: a new conversation started
 * from another window's sidebar must not take over this one.
 */
export function applyEvent(state: ChatState, event: BackgroundEvent, ownRequests: ReadonlySet<string>): ChatState {
  switch (event.type) {
    case 'CHAT_RESPONSE':
      return applyChatResponse(state, event.payload, ownRequests.has(event.requestId));
    case 'CONVERSATION':
      return ownRequests.has(event.requestId) || state.conversation?.id === event.payload.conversation.id
        ? {
            ...withOpenSteps(state, event.payload.conversation.id, [...event.payload.steps].sort(byIndex)),
            conversation: event.payload.conversation,
            messages: event.payload.messages,
            earlier: event.payload.earlier ?? 0,
            focus: event.payload.focus,
          }
        : state;
    case 'CONVERSATIONS': {
      const stillThere = state.conversation && event.payload.conversations.some((c) => c.id === state.conversation!.id);
      return stillThere
        ? { ...dropDeleted(state, event.payload.conversations), conversations: event.payload.conversations }
        : { ...dropDeleted(withOpenSteps(state, null, []), event.payload.conversations), conversations: event.payload.conversations, conversation: null, messages: [] };
    }
    case 'SETTINGS':
      return { ...state, settings: event.payload };
    case 'TEST_RESULT':
      return { ...state, testResult: event.payload };
    case 'ERROR':
      return { ...state, banner: event.payload };
    case 'TOOLS':
      return { ...state, tools: event.payload.tools };
    case 'TOOL_RESULT':
      return ownRequests.has(event.requestId) ? { ...state, toolResult: event.payload } : state;
    case 'VOICE_SETTINGS':
      return { ...state, voiceSettings: event.payload };
    case 'VOICE_STARTED':
    case 'VOICE_TRANSCRIBING':
    case 'VOICE_RESULT':
    case 'VOICE_END':
    case 'VOICE_ERROR':
      return state; // the voice machine (voice/controller.ts) follows these
    case 'ACTION_LOG_UPDATE':
    case 'PERMISSION_REQUEST':
      return applyStep(state, event.payload.step, isOwn(event.requestId, ownRequests));
    case 'GRANTS':
      return { ...state, harbor: event.payload };
    case 'BRIDGE_STATUS':
      return { ...state, bridge: event.payload };
    case 'ACTIVITY_LOG':
      return { ...state, activity: event.payload.entries };
    case 'SEARCH_RESULTS':
      return ownRequests.has(event.requestId) ? { ...state, search: event.payload } : state;
    case 'IMPORT_RESULT':
      return ownRequests.has(event.requestId) ? { ...state, importResult: event.payload } : state;
    case 'COSTS':
      return ownRequests.has(event.requestId) ? { ...state, costs: event.payload } : state;
    case 'MEMORIES':
      return { ...state, memory: event.payload };
    case 'BUDGET_REQUEST':
      return { ...state, budgetPrompts: [...state.budgetPrompts.filter((p) => p.id !== event.payload.id), event.payload] };
    case 'BUDGET_SETTLED':
      return { ...state, budgetPrompts: state.budgetPrompts.filter((p) => p.id !== event.payload.id) };
    case 'RECALL':
      return ownRequests.has(event.requestId) ? { ...state, recall: event.payload } : state;
    case 'TRACE':
      return ownRequests.has(event.requestId) ? { ...state, trace: event.payload } : state;
    case 'MARKDOWN':
      return state; // a file to save: the store hands it to the browser (store.ts)
    case 'WORKFLOW_UPDATE':
      return { ...state, workflow: showWorkflow(state.workflow, event.payload) };
    case 'RESEARCH_SETTINGS':
      return { ...state, research: event.payload };
  }
}

/** The same workflow's newer version, or a newer workflow, replaces the one on screen. */
export function showWorkflow(shown: WorkflowPlan | undefined, incoming: WorkflowPlan): WorkflowPlan {
  if (!shown) return incoming;
  if (shown.id === incoming.id) return incoming.updatedAt >= shown.updatedAt ? incoming : shown;
  return incoming.createdAt >= shown.createdAt ? incoming : shown;
}

/**
 * A step belongs on screen when it is in the open conversation, or when it answers this sidebar's
 * own message that is starting a new conversation (the CHAT_RESPONSE start then keeps it). Another
 * window's new conversation, or an older conversation of ours, must not take over this one.
 */
function applyStep(state: ChatState, step: AgentStep, own: boolean): ChatState {
  const open = state.conversation?.id;
  if (step.conversationId !== open && !(own && open === undefined)) {
    const others = state.waitingElsewhere.filter((known) => known.id !== step.id);
    if (step.status !== 'asking' && others.length === state.waitingElsewhere.length) return state;
    return { ...state, waitingElsewhere: step.status === 'asking' ? [...others, step] : others };
  }
  return { ...state, steps: upsertStep(state.steps, step) };
}

function applyChatResponse(state: ChatState, payload: Extract<BackgroundEvent, { type: 'CHAT_RESPONSE' }>['payload'], own: boolean): ChatState {
  if (payload.phase === 'start') {
    const conversations = upsertConversation(state.conversations, payload.conversation);
    const sameConversation = state.conversation?.id === payload.conversation.id;
    if (!own && !sameConversation) return { ...state, conversations };
    let messages = sameConversation ? state.messages : [];
    const replaced = messages.find((m) => m.id === payload.replaces);
    if (replaced) messages = messages.filter((m) => m.createdAt < replaced.createdAt);
    if (payload.userMessage) messages = replaceMessage(messages, payload.userMessage);
    messages = replaceMessage(messages, payload.assistantMessage);
    const steps = stepsKept(state, payload.conversation.id, messages);
    const earlier = sameConversation ? state.earlier : 0;
    return { ...withOpenSteps(state, payload.conversation.id, steps), conversations, conversation: payload.conversation, messages, earlier, banner: undefined };
  }
  if (state.conversation?.id !== payload.conversationId) return state;
  if (payload.phase === 'delta') {
    const messages = state.messages.map((m) => (m.id === payload.messageId ? { ...m, content: m.content + payload.text } : m));
    return { ...state, messages };
  }
  if (payload.phase === 'thinking') {
    const messages = state.messages.map((m) => (m.id === payload.messageId ? { ...m, reasoning: (m.reasoning ?? '') + payload.text } : m));
    return { ...state, messages };
  }
  return { ...state, messages: replaceMessage(state.messages, payload.message) };
}

/** A turn's start keeps the steps of its conversation, minus those of answers a retry replaced. */
function stepsKept(state: ChatState, conversationId: string, messages: StoredMessage[]): AgentStep[] {
  const kept = new Set(messages.map((m) => m.id));
  const dropped = new Set(state.messages.filter((m) => !kept.has(m.id)).map((m) => m.id));
  return state.steps.filter((step) => step.conversationId === conversationId && !dropped.has(step.messageId));
}

/**
 * Steps waiting on the user, oldest first: the permission prompt shows the first. A paired bridge
 * client's prompts are the user's to answer too (on the client's behalf), whatever chat is open.
 */
export function pendingPrompts(state: ChatState): AgentStep[] {
  return [...state.steps.filter((step) => step.status === 'asking'), ...(state.bridge?.prompts ?? [])];
}

/**
 * The background went away (the browser stopped it): prompts and running steps lived only in its
 * memory, so none of them can be answered or finish any more. They are shown as interrupted — what
 * the restarted background records too — until its answers to the resync bring the true state
 * (a research step waiting for the user's word, a client's prompt asked again).
 */
export function withBackgroundGone(state: ChatState): ChatState {
  const interrupted = (step: AgentStep): AgentStep =>
    step.status === 'asking' || step.status === 'running'
      ? { ...step, ...INTERRUPTED_STEP }
      : step;
  return {
    ...state,
    steps: state.steps.map(interrupted),
    waitingElsewhere: [],
    budgetPrompts: [],
    bridge: state.bridge && { ...state.bridge, prompts: [] },
  };
}

/** The agent is mid-task: the background must not be stopped under it. */
export function agentBusy(state: ChatState): boolean {
  return state.waitingElsewhere.length > 0 || state.steps.some((step) => step.status === 'asking' || step.status === 'running');
}

/** The sidebar waits on the background: an answer streams, a step runs, or a prompt awaits the user. */
export function isWaiting(state: ChatState): boolean {
  return isStreaming(state) || agentBusy(state) || state.budgetPrompts.length > 0;
}

export function isStreaming(state: ChatState): boolean {
  return state.messages.some((m) => m.status === 'streaming');
}
