import { computed, signal } from '@preact/signals';
import type { Decision, HarborOptions, PlanEdit, ProviderSettings, VoiceSettings } from '../protocol';
import { PortClient, type ConnectionState, type Outgoing } from './port-client';
import { applyEvent, initialState, isStreaming, isWaiting, pendingPrompts, withOpenSteps, type ChatState } from './state';
import { VoiceController } from './voice/controller';

export type View = 'chat' | 'history' | 'settings' | 'tools' | 'research';

const DRAFT_KEY = 'jawad.draft';
const CONVERSATION_KEY = 'jawad.conversation';
const AGENT_KEY = 'jawad.agent';

export const state = signal<ChatState>(initialState);
export const connection = signal<ConnectionState>('connecting');
export const view = signal<View>('chat');
export const draft = signal<string>(localStorage.getItem(DRAFT_KEY) ?? '');
export const attachPage = signal(false);
/** "Act on page": the model may use tools on the page, each step under Harbor's rules. */
export const agentMode = signal(localStorage.getItem(AGENT_KEY) === 'true');
export const testing = signal(false);
export const toolRunning = signal(false);
export const streaming = computed(() => isStreaming(state.value));
/** An answer streams, an agent step runs, or a prompt waits on the user: keep the background up. */
export const waiting = computed(() => isWaiting(state.value));
/** A workflow is being planned or run: the background works for the user (and must stay up where it can). */
export const workflowBusy = computed(() => ['planning', 'running'].includes(state.value.workflow?.status ?? ''));
export const pendingPrompt = computed(() => pendingPrompts(state.value));
/** The step whose PERMISSION_RESPONSE is on its way, so a second click cannot answer it twice. */
export const answeringStep = signal<string | undefined>(undefined);

/** requestIds this sidebar sent, so it only follows conversations it started. */
const ownRequests = new Set<string>();
/** Chat text sent but not yet accepted: put back in the box if the background refuses it. */
const unsentDrafts = new Map<string, string>();

/** The requestId of each PERMISSION_RESPONSE in flight, by step: an ERROR reply re-enables the prompt. */
const permissionRequests = new Map<string, string>();

draft.subscribe((text) => localStorage.setItem(DRAFT_KEY, text));
agentMode.subscribe((on) => localStorage.setItem(AGENT_KEY, String(on)));

let windowId: number | undefined;

const client = new PortClient({
  onState: (next) => (connection.value = next),
  onConnected: resync,
  mustStayConnected: () => waiting.value || workflowBusy.value,
  onEvent: (event) => {
    if (event.type === 'CHAT_RESPONSE' && event.payload.phase === 'start') unsentDrafts.delete(event.requestId);
    if (event.type === 'ERROR') {
      restoreDraft(event.requestId);
      if (releasePrompt(event.requestId) && event.payload.code === 'NOT_FOUND') reloadOpenConversation();
    }
    if (event.type === 'TEST_RESULT') testing.value = false;
    if (event.type === 'TOOL_RESULT' && ownRequests.has(event.requestId)) toolRunning.value = false;
    if (event.type.startsWith('VOICE_')) voiceInput.handle(event);
    state.value = applyEvent(state.value, event, ownRequests);
    const open = state.value.conversation?.id;
    if (open) sessionStorage.setItem(CONVERSATION_KEY, open);
    else sessionStorage.removeItem(CONVERSATION_KEY);
    forgetAnsweredPrompts();
    if (event.type === 'WORKFLOW_UPDATE') followWorkflow();
    client.setKeepalive(waiting.value || workflowBusy.value);
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
  send({ type: 'GET_WORKFLOWS', payload: {} });
  const open = state.value.conversation?.id ?? sessionStorage.getItem(CONVERSATION_KEY);
  if (open) send({ type: 'OPEN_CONVERSATION', payload: { conversationId: open } });
}

function restoreDraft(requestId: string): void {
  const text = unsentDrafts.get(requestId);
  unsentDrafts.delete(requestId);
  if (text !== undefined && draft.value.trim() === '') draft.value = text;
}

function forgetAnsweredPrompts(): void {
  const pending = new Set(pendingPrompt.value.map((step) => step.id));
  for (const stepId of permissionRequests.keys()) if (!pending.has(stepId)) permissionRequests.delete(stepId);
  if (answeringStep.value && !pending.has(answeringStep.value)) answeringStep.value = undefined;
}

/** The background refused an answer to a prompt: let the user answer again. True if it was one. */
function releasePrompt(requestId: string): boolean {
  for (const [stepId, sent] of permissionRequests) {
    if (sent !== requestId) continue;
    permissionRequests.delete(stepId);
    if (answeringStep.value === stepId) answeringStep.value = undefined;
    return true;
  }
  return false;
}

/** The prompt no longer waits in the background (the task ended or Jawad restarted): show what it stored. */
function reloadOpenConversation(): void {
  const conversationId = state.value.conversation?.id;
  if (conversationId) send({ type: 'OPEN_CONVERSATION', payload: { conversationId } });
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
    payload: { conversationId: state.value.conversation?.id ?? null, content, attachPage: attachPage.value, agent: agentMode.value, windowId },
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
  state.value = { ...withOpenSteps(state.value, null, []), conversation: null, messages: [], banner: undefined };
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

export function respondToPermission(stepId: string, decision: Decision): void {
  if (answeringStep.value === stepId) return;
  answeringStep.value = stepId;
  permissionRequests.set(stepId, send({ type: 'PERMISSION_RESPONSE', payload: { stepId, decision } }));
}

export function loadGrants(): void {
  send({ type: 'GET_GRANTS', payload: {} });
}

export function revokeGrant(grantId: string): void {
  send({ type: 'REVOKE_GRANT', payload: { grantId } });
}

export function saveHarborOptions(options: HarborOptions): void {
  send({ type: 'SAVE_HARBOR_OPTIONS', payload: options });
}

export function dismissBanner(): void {
  if (state.value.banner) state.value = { ...state.value, banner: undefined };
}

/**
 * The running workflow's steps and prompts live in its conversation: the research view opens it,
 * so a step that asks shows its prompt there.
 */
function followWorkflow(): void {
  const workflow = state.value.workflow;
  const conversationId = workflow?.conversationId;
  if (workflow?.status === 'done' && conversationId && reported !== workflow.id) {
    // The report was saved to history: the list and the open conversation show it.
    reported = workflow.id;
    send({ type: 'LIST_CONVERSATIONS', payload: {} });
    if (state.value.conversation?.id === conversationId) send({ type: 'OPEN_CONVERSATION', payload: { conversationId } });
    return;
  }
  if (view.value !== 'research' || !conversationId || state.value.conversation?.id === conversationId) return;
  if (followed === conversationId) return;
  followed = conversationId;
  send({ type: 'OPEN_CONVERSATION', payload: { conversationId } });
}
let followed: string | undefined;
let reported: string | undefined;

export function startWorkflow(intent: string): void {
  send({ type: 'START_WORKFLOW', payload: { intent, ...(windowId === undefined ? {} : { windowId }) } });
}

export function approveWorkflow(workflowId: string, steps: PlanEdit[], keepTabs: boolean, parallel: number): void {
  followed = undefined;
  send({ type: 'APPROVE_WORKFLOW', payload: { workflowId, steps, keepTabs, parallel } });
}

export function cancelWorkflow(workflowId: string): void {
  send({ type: 'CANCEL_WORKFLOW', payload: { workflowId } });
}

export function confirmWorkflowStep(workflowId: string, stepId: string, run: boolean): void {
  send({ type: 'CONFIRM_WORKFLOW_STEP', payload: { workflowId, stepId, run } });
}
