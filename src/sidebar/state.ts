/**
 * The sidebar's state as plain data, and the pure function that applies a background event to it.
 * Signals in store.ts hold it; this file has no browser calls, so it is unit-tested directly.
 */
import type {
  BackgroundEvent,
  Conversation,
  ErrorPayload,
  PublicSettings,
  PublicVoiceSettings,
  StoredMessage,
  TestResultPayload,
  ToolListing,
  ToolResult,
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
}

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
};

function upsertConversation(list: Conversation[], conversation: Conversation): Conversation[] {
  return [conversation, ...list.filter((c) => c.id !== conversation.id)].sort((a, b) => b.updatedAt - a.updatedAt);
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
        ? { ...state, conversation: event.payload.conversation, messages: event.payload.messages }
        : state;
    case 'CONVERSATIONS': {
      const stillThere = state.conversation && event.payload.conversations.some((c) => c.id === state.conversation!.id);
      return stillThere
        ? { ...state, conversations: event.payload.conversations }
        : { ...state, conversations: event.payload.conversations, conversation: null, messages: [] };
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
    case 'GRANTS':
      return state; // TODO(agent UI)
  }
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
    return { ...state, conversations, conversation: payload.conversation, messages, banner: undefined };
  }
  if (state.conversation?.id !== payload.conversationId) return state;
  if (payload.phase === 'delta') {
    const messages = state.messages.map((m) => (m.id === payload.messageId ? { ...m, content: m.content + payload.text } : m));
    return { ...state, messages };
  }
  return { ...state, messages: replaceMessage(state.messages, payload.message) };
}

export function isStreaming(state: ChatState): boolean {
  return state.messages.some((m) => m.status === 'streaming');
}
