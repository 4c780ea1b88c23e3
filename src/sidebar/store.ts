import { computed, signal } from '@preact/signals';
import type { ProviderSettings, VoiceSettings } from '../protocol';
import { PortClient, type ConnectionState, type Outgoing } from './port-client';
import { applyEvent, initialState, isStreaming, type ChatState } from './state';
import { VoiceController } from './voice/controller';

export type View = 'chat' | 'history' | 'settings' | 'tools';

const DRAFT_KEY = 'jawad.draft';
const CONVERSATION_KEY = 'jawad.conversation';

export const state = signal<ChatState>(initialState);
export const connection = signal<ConnectionState>('connecting');
export const view = signal<View>('chat');
export const draft = signal<string>(localStorage.getItem(DRAFT_KEY) ?? '');
export const attachPage = signal(false);
export const testing = signal(false);
export const toolRunning = signal(false);
export const streaming = computed(() => isStreaming(state.value));

/** requestIds this sidebar sent, so it only follows conversations it started. */
const ownRequests = new Set<string>();
/** Chat text sent but not yet accepted: put back in the box if the background refuses it. */
const unsentDrafts = new Map<string, string>();

draft.subscribe((text) => localStorage.setItem(DRAFT_KEY, text));

let windowId: number | undefined;

const client = new PortClient({
  onState: (next) => (connection.value = next),
  onConnected: resync,
  mustStayConnected: () => streaming.value,
  onEvent: (event) => {
    if (event.type === 'CHAT_RESPONSE' && event.payload.phase === 'start') unsentDrafts.delete(event.requestId);
    if (event.type === 'ERROR') restoreDraft(event.requestId);
    if (event.type === 'TEST_RESULT') testing.value = false;
    if (event.type === 'TOOL_RESULT' && ownRequests.has(event.requestId)) toolRunning.value = false;
    if (event.type.startsWith('VOICE_')) voiceInput.handle(event);
    state.value = applyEvent(state.value, event, ownRequests);
    const open = state.value.conversation?.id;
    if (open) sessionStorage.setItem(CONVERSATION_KEY, open);
    else sessionStorage.removeItem(CONVERSATION_KEY);
    client.setKeepalive(streaming.value);
  },
  onInvalidEvent: (error) => console.error('Jawad: invalid message from the background', error),
});

export const voiceInput = new VoiceController({
  send: (message) => send(message),
  draft,
  settings: () => state.value.voiceSettings,
  sendDraft: () => sendChat(),
});

function send(message: Outgoing): string {
  const requestId = client.send(message);
  ownRequests.add(requestId);
  return requestId;
}

/** After a (re)connect the background may be a fresh instance: reload what the sidebar shows. */
function resync(): void {
  send({ type: 'GET_SETTINGS', payload: {} });
  send({ type: 'GET_VOICE_SETTINGS', payload: {} });
  send({ type: 'LIST_CONVERSATIONS', payload: {} });
  const open = state.value.conversation?.id ?? sessionStorage.getItem(CONVERSATION_KEY);
  if (open) send({ type: 'OPEN_CONVERSATION', payload: { conversationId: open } });
}

function restoreDraft(requestId: string): void {
  const text = unsentDrafts.get(requestId);
  unsentDrafts.delete(requestId);
  if (text !== undefined && draft.value.trim() === '') draft.value = text;
}

export function startSidebar(): void {
  client.start();
}

/** The browser window this sidebar belongs to: "this page" is that window's active tab. */
export function setWindowId(id: number | undefined): void {
  windowId = id;
}

export function sendChat(): void {
  const content = draft.value.trim();
  if (!content || streaming.value) return;
  const requestId = send({
    type: 'CHAT_MESSAGE',
    payload: { conversationId: state.value.conversation?.id ?? null, content, attachPage: attachPage.value, agent: false, windowId },
  });
  unsentDrafts.set(requestId, draft.value);
  draft.value = '';
  dismissBanner();
}

export function summarizePage(): void {
  if (streaming.value) return;
  send({ type: 'SUMMARIZE_PAGE', payload: { conversationId: state.value.conversation?.id ?? null, windowId } });
  dismissBanner();
}

export function stopGeneration(): void {
  const conversationId = state.value.conversation?.id;
  if (conversationId) send({ type: 'STOP_GENERATION', payload: { conversationId } });
}

export function retry(messageId: string): void {
  const conversationId = state.value.conversation?.id;
  if (conversationId && !streaming.value) send({ type: 'RETRY_MESSAGE', payload: { conversationId, messageId } });
}

export function newConversation(): void {
  state.value = { ...state.value, conversation: null, messages: [], banner: undefined };
  sessionStorage.removeItem(CONVERSATION_KEY);
  view.value = 'chat';
}

export function openConversation(conversationId: string): void {
  send({ type: 'OPEN_CONVERSATION', payload: { conversationId } });
  view.value = 'chat';
}

export function deleteConversation(conversationId: string): void {
  send({ type: 'DELETE_CONVERSATION', payload: { conversationId } });
}

export function clearHistory(): void {
  send({ type: 'CLEAR_HISTORY', payload: {} });
}

export function saveSettings(settings: ProviderSettings): void {
  send({ type: 'SAVE_SETTINGS', payload: settings });
}

export function saveVoiceSettings(settings: VoiceSettings): void {
  send({ type: 'SAVE_VOICE_SETTINGS', payload: settings });
}

export function testConnection(settings: ProviderSettings): void {
  testing.value = true;
  state.value = { ...state.value, testResult: undefined };
  send({ type: 'TEST_CONNECTION', payload: settings });
}

export function loadTools(): void {
  send({ type: 'GET_TOOLS', payload: {} });
}

export function executeTool(toolName: string, parameters: Record<string, unknown>): void {
  toolRunning.value = true;
  state.value = { ...state.value, toolResult: undefined };
  send({ type: 'EXECUTE_TOOL', payload: { toolName, parameters, ...(windowId === undefined ? {} : { windowId }) } });
}

export function dismissBanner(): void {
  if (state.value.banner) state.value = { ...state.value, banner: undefined };
}
