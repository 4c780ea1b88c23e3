import { computed, signal } from '@preact/signals';
import { splitText, type BackgroundEvent, type Budgets, type Decision, type HarborOptions, type ModelPrice, type PlanEdit, type ProviderSettings, type VoiceSettings } from '../protocol';
import { saveFile } from './files';
import { SEARCH_DELAY_MS } from './history-format';
import { PortClient, type ConnectionState, type Outgoing } from './port-client';
import { applyEvent, initialState, withBackgroundGone, isStreaming, isWaiting, pendingPrompts, withOpenSteps, type ChatState } from './state';
import { VoiceController } from './voice/controller';

export type View = 'chat' | 'history' | 'settings' | 'tools' | 'memory' | 'bridge' | 'research';

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

/**
 * A settings save is done when the background broadcasts what it stored (with the save's
 * requestId), not when the form is submitted: until then the old settings still apply.
 */
export type SaveOutcome = { status: 'saving' } | { status: 'saved' } | { status: 'failed'; error: string };
export const saves = signal<ReadonlyMap<string, SaveOutcome>>(new Map());
const SAVE_CONFIRMATIONS = new Set<BackgroundEvent['type']>(['SETTINGS', 'VOICE_SETTINGS']);
const SAVE_LOST = "The background stopped before it confirmed the save. Check the form and save again.";

function settleSave(requestId: string, outcome: SaveOutcome): void {
  if (saves.value.get(requestId)?.status !== 'saving') return;
  saves.value = new Map(saves.value).set(requestId, outcome);
}

/** Sends a save and follows it in `saves`; the form shows its outcome by the returned requestId. */
function sendSave(message: Outgoing): string {
  const requestId = send(message);
  saves.value = new Map(saves.value).set(requestId, { status: 'saving' });
  return requestId;
}

draft.subscribe((text) => localStorage.setItem(DRAFT_KEY, text));
agentMode.subscribe((on) => localStorage.setItem(AGENT_KEY, String(on)));

let windowId: number | undefined;

const client = new PortClient({
  onState: (next) => (connection.value = next),
  onConnected: resync,
  // While the bridge is on, a paired client's prompt can come at any time: reconnect at once.
  mustStayConnected: () => busy() || workflowBusy.value || Boolean(state.value.bridge?.enabled),
  onLost: () => {
    state.value = withBackgroundGone(state.value);
    permissionRequests.clear();
    answeringStep.value = undefined;
    for (const requestId of saves.value.keys()) settleSave(requestId, { status: 'failed', error: SAVE_LOST });
  },
  onEvent: (event) => {
    if (event.type === 'CHAT_RESPONSE' && event.payload.phase === 'start') unsentDrafts.delete(event.requestId);
    if (event.type === 'ERROR') {
      restoreDraft(event.requestId);
      if (releasePrompt(event.requestId) && event.payload.code === 'NOT_FOUND') reloadOpenConversation();
    }
    if (event.type === 'TEST_RESULT') testing.value = false;
    if (event.type === 'TOOL_RESULT' && ownRequests.has(event.requestId)) toolRunning.value = false;
    if (event.type.startsWith('VOICE_')) voiceInput.handle(event);
    if (ownRequests.has(event.requestId)) receiveFiles(event);
    if (event.type === 'MEMORIES') confirmForgotten(event.requestId);
    if (event.type === 'CONVERSATION' || (event.type === 'CHAT_RESPONSE' && event.payload.phase === 'final')) queueMicrotask(loadCosts);
    if (event.type === 'IMPORT_RESULT' || (event.type === 'ERROR' && transfer.value === 'importing')) transfer.value = undefined;
    state.value = applyEvent(state.value, event, ownRequests);
    // After applyEvent: once a form says "saved", what it saved is what the sidebar uses.
    if (SAVE_CONFIRMATIONS.has(event.type)) settleSave(event.requestId, { status: 'saved' });
    if (event.type === 'ERROR') settleSave(event.requestId, { status: 'failed', error: event.payload.message });
    const open = state.value.conversation?.id;
    if (open) sessionStorage.setItem(CONVERSATION_KEY, open);
    else sessionStorage.removeItem(CONVERSATION_KEY);
    forgetAnsweredPrompts();
    if (event.type === 'WORKFLOW_UPDATE') followWorkflow();
    client.setKeepalive(busy() || workflowBusy.value);
  },
  onInvalidEvent: (error) => console.error('Jawad: invalid message from the background', error),
});

/**
 * The background must stay up: an answer or a task is under way, or an import is (Chrome stops a
 * service worker that receives no event for 30 s, even in the middle of a long import). An export
 * is made here, in the sidebar: it needs no background.
 */
function busy(): boolean {
  return waiting.value || transfer.value === 'importing';
}

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
  send({ type: 'GET_STATUS', payload: {} });
  send({ type: 'GET_SETTINGS', payload: {} });
  send({ type: 'GET_VOICE_SETTINGS', payload: {} });
  send({ type: 'LIST_CONVERSATIONS', payload: {} });
  send({ type: 'GET_WORKFLOWS', payload: {} });
  send({ type: 'GET_RESEARCH_SETTINGS', payload: {} });
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

/** Whether the browser keeps Jawad's data under storage pressure (undefined until it says). */
export const storagePersisted = signal<boolean | undefined>(undefined);

export function startSidebar(): void {
  client.start();
  // unlimitedStorage lifts the quota; persist() also asks the browser not to evict the data when disk runs low.
  void navigator.storage?.persist?.().then(
    (persisted) => (storagePersisted.value = persisted),
    () => (storagePersisted.value = false),
  );
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

/** Opens a conversation; `focus` is a message to bring into view (a search hit). */
export function openConversation(conversationId: string, focus?: string): void {
  send({ type: 'OPEN_CONVERSATION', payload: { conversationId, ...(focus ? { focus } : {}) } });
  view.value = 'chat';
}

export function deleteConversation(conversationId: string): void {
  send({ type: 'DELETE_CONVERSATION', payload: { conversationId } });
}

export function clearHistory(): void {
  send({ type: 'CLEAR_HISTORY', payload: {} });
}

export function saveSettings(settings: ProviderSettings): string {
  return sendSave({ type: 'SAVE_SETTINGS', payload: settings });
}

export function saveVoiceSettings(settings: VoiceSettings): string {
  return sendSave({ type: 'SAVE_VOICE_SETTINGS', payload: settings });
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

// ---- The external agent bridge (the sidebar's Bridge view and the popup) ----------------------

export const bridgeStatus = computed(() => state.value.bridge);

export function connectBridge(): void {
  send({ type: 'CONNECT', payload: {} });
}

export function disconnectBridge(): void {
  send({ type: 'DISCONNECT', payload: {} });
}

export function updateBridgeUrl(url: string): void {
  send({ type: 'UPDATE_URL', payload: { url } });
}

export function approvePairing(client: string): void {
  send({ type: 'APPROVE_PAIRING', payload: { client } });
}

export function refusePairing(client: string): void {
  send({ type: 'REFUSE_PAIRING', payload: { client } });
}

export function unpairClient(clientId: string): void {
  send({ type: 'UNPAIR_CLIENT', payload: { clientId } });
}

export function killBridge(): void {
  send({ type: 'KILL_BRIDGE', payload: {} });
}

// ---- History, import/export and costs (issue 14) ---------------------------------------------

/** An export or import in progress, for the history view to say so. */
export const transfer = signal<'exporting' | 'importing' | undefined>(undefined);
transfer.subscribe(() => client.setKeepalive(busy()));
/** The file chosen for import, kept until the user confirms or cancels the preview. */
let pendingImport: { name: string; text: string } | undefined;
let searchTimer: ReturnType<typeof setTimeout> | undefined;

/** Saves what the background sent as a file: a conversation as Markdown. */
function receiveFiles(event: BackgroundEvent): void {
  if (event.type === 'MARKDOWN') saveFile(event.payload.filename, [event.payload.markdown], 'text/markdown');
}

/** Searches as the user types, once they pause. */
export function searchHistory(query: string): void {
  clearTimeout(searchTimer);
  latestSearch = query;
  if (!query.trim()) {
    state.value = { ...state.value, search: undefined };
    return;
  }
  // The background sleeps: get the saved index ready while the user types (sleeping-search.ts).
  if (connection.value === 'idle') void sleepingSearch().then((module) => module.prepare()).catch(() => undefined);
  searchTimer = setTimeout(() => void search(query), SEARCH_DELAY_MS);
}

let latestSearch = '';
let sleeping: Promise<typeof import('./sleeping-search')> | undefined;
const sleepingSearch = () => (sleeping ??= import('./sleeping-search'));

/** Asks the background, unless it sleeps and the saved index can answer without waking it. */
async function search(query: string): Promise<void> {
  const askBackground = () => send({ type: 'SEARCH_HISTORY', payload: { query } });
  if (connection.value !== 'idle') return void askBackground();
  const module = await sleepingSearch();
  const hits = await module.searchAsleep(query, askBackground).catch((error: unknown) => console.warn('Jawad: searching the saved index failed; the background searches', error));
  if (!hits) return void askBackground();
  if (latestSearch === query) state.value = { ...state.value, search: { query, hits } };
}
/**
 * When the background goes to sleep under the History view, the saved index is made ready (its
 * head read, or only its stamp checked when the copy held is still the saved one), so that a
 * search typed then reads only what it asks for: reading the head takes 100–250 ms with 100k
 * messages, and in Chromium the first read after the background stopped is slow too (70–150 ms).
 * The copy and the database stay held while the view shows, whether the background wakes or not;
 * held open, the database also stays open in Chromium, which closes it 2 s after its last
 * connection went (reopening it took 100 ms more). (Opening the view asks the background for
 * costs, which wakes it: nothing is read ahead then.)
 */
connection.subscribe((next) => {
  if (next === 'idle' && view.value === 'history') void sleepingSearch().then((module) => module.prepare()).catch(() => undefined);
});
view.subscribe((shown) => {
  // Its code (with the database's) loads with the view, so that the first search does not wait for it.
  if (shown === 'history') void sleepingSearch();
  else void sleeping?.then((module) => module.release());
});

export function renameConversation(conversationId: string, title: string): void {
  send({ type: 'RENAME_CONVERSATION', payload: { conversationId, title } });
}

export function pinConversation(conversationId: string, pinned: boolean): void {
  send({ type: 'PIN_CONVERSATION', payload: { conversationId, pinned } });
}

/** Loads more of the open conversation's older messages. */
export function loadEarlier(): void {
  const { conversation, messages } = state.value;
  if (conversation) send({ type: 'OPEN_CONVERSATION', payload: { conversationId: conversation.id, limit: messages.length + 100 } });
}

/** Why the last export failed, shown beside the button until the next one. */
export const exportError = signal<string | undefined>(undefined);

export async function exportArchive(): Promise<void> {
  transfer.value = 'exporting';
  exportError.value = undefined;
  try {
    const { archiveFile } = await import('./export-archive');
    saveFile(`jawad-archive-${new Date().toISOString().slice(0, 10)}.json`, [await archiveFile()], 'application/json');
  } catch (error) {
    exportError.value = `The archive could not be made: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    transfer.value = undefined;
  }
}

export function exportMarkdown(conversationId: string): void {
  send({ type: 'EXPORT_MARKDOWN', payload: { conversationId } });
}

function sendImport(apply: boolean): void {
  if (!pendingImport) return;
  transfer.value = 'importing';
  const { text } = pendingImport;
  const transferId = crypto.randomUUID();
  const parts = splitText(text);
  parts.forEach((part, index) => send({ type: 'IMPORT_PART', payload: { transferId, index, count: parts.length, text: part, apply } }));
}

/** Reads the chosen file and asks the background what importing it would add (nothing is written yet). */
export async function previewImport(file: File): Promise<void> {
  state.value = { ...state.value, importResult: undefined };
  pendingImport = { name: file.name, text: await file.text() };
  sendImport(false);
}

export function confirmImport(): void {
  sendImport(true);
  pendingImport = undefined;
}

export function cancelImport(): void {
  pendingImport = undefined;
  state.value = { ...state.value, importResult: undefined };
}

export function loadCosts(): void {
  const conversationId = state.value.conversation?.id;
  send({ type: 'GET_COSTS', payload: conversationId ? { conversationId } : {} });
}

export function loadMemories(): void {
  send({ type: 'LIST_MEMORIES', payload: {} });
}

export function saveMemory(text: string, pinned: boolean, id?: string): void {
  send({ type: 'SAVE_MEMORY', payload: { text, pinned, ...(id ? { id } : {}) } });
}

/** Memories and past messages the background confirmed it forgot (the answers that used them say so). */
export const forgotten = signal<ReadonlySet<string>>(new Set());
const forgetting = new Map<string, string>();

/** Forgets a memory, or keeps a past message out of memory (the message stays in its conversation). */
export function forgetMemory(kind: 'memory' | 'message', id: string): void {
  forgetting.set(send({ type: 'FORGET_MEMORY', payload: { kind, id } }), id);
}

function confirmForgotten(requestId: string): void {
  const id = forgetting.get(requestId);
  if (id === undefined) return;
  forgetting.delete(requestId);
  forgotten.value = new Set([...forgotten.value, id]);
}

export function setMemoryEnabled(enabled: boolean): void {
  send({ type: 'SET_MEMORY_ENABLED', payload: { enabled } });
}

/** The trace of an answer, or of one agent step. */
export function openTrace(from: { messageId: string } | { stepId: string }): void {
  send({ type: 'GET_TRACE', payload: from });
}

export function closeTrace(): void {
  state.value = { ...state.value, trace: undefined };
}

export function exportTrace(): void {
  const trace = state.value.trace;
  if (trace) saveFile(`jawad-trace-${trace.root}.json`, [JSON.stringify(trace, null, 2)], 'application/json');
}

export function saveBudgets(budgets: Budgets): void {
  send({ type: 'SAVE_BUDGETS', payload: budgets });
}

export function savePrice(key: string, price: ModelPrice | null): void {
  send({ type: 'SAVE_PRICE', payload: { key, price } });
}

export function answerBudget(id: string, decision: 'continue' | 'stop'): void {
  send({ type: 'BUDGET_RESPONSE', payload: { id, decision } });
}

export function previewRecall(question: string): void {
  if (question.trim()) send({ type: 'PREVIEW_RECALL', payload: { question, ...(state.value.conversation ? { conversationId: state.value.conversation.id } : {}), ...(windowId === undefined ? {} : { windowId }) } });
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

export function saveResearchSettings(parallel: number): void {
  send({ type: 'SAVE_RESEARCH_SETTINGS', payload: { parallel } });
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
