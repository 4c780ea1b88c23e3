/**
 * Background entry (Chrome service worker / Firefox event page). Listeners are registered
 * synchronously at the top level so the browser can wake this context for them.
 */
import browser, { type Runtime } from 'webextension-polyfill';
import { type BackgroundEvent, type UsageRecord } from '../protocol';
import { ConversationStore } from '../db/conversations';
import { HarborStore } from '../db/harbor-store';
import { StepStore } from '../db/steps';
import { database } from '../db/database';
import { SettingsStore } from '../db/settings';
import { allowProviderOrigin, BROWSER, installBrowserHooks, keepBackgroundAlive, onKeepAlive } from '../platform';
import { groupTab } from '../platform/tab-groups';
import { BridgeStore } from '../db/bridge-store';
import { BridgeService } from './bridge/bridge-service';
import { RelayConnection } from './bridge/connection';
import { createPopupMenu, listenForPopupMenu } from './bridge/popup-menu';
import { StepGate, type GateDeps } from './gate/step-gate';
import { PageCache } from '../db/page-cache';
import { SearchIndex } from '../db/search-index';
import { drainImports } from '../db/import-queue';
import { AgentRunner } from './agent/agent-runner';
import { PermissionBroker } from './gate/permission-broker';
import { ChatService } from './chat/chat-service';
import { createHandlers } from './handlers';
import { BudgetGuard } from './history/budget-guard';
import { CostService } from './history/cost-service';
import { createHistoryHandlers } from './history/history-handlers';
import { MemoryService } from './memory/memory-service';
import { createRouter } from './llm/router';
import { createConnectionTest } from './llm/test-connection';
import { activeTab, queryActiveTab, taskTabOf } from './page-scripts';
import { readTab, TabCache } from './tab-cache';
import { readActivePage } from './page-reader';
import { forgetClosedTab } from './tools/dialog-aftermath';
import { unmarkLeftNavigations } from './tools/opened-pages';
import { describePageTarget } from './tools/page-action';
import { SidebarPorts } from './sidebar-port';
import { createToolRegistry } from './tools';
import { VoiceService } from './voice/voice-service';
import { WorkflowStore } from '../db/workflows';
import { browserTabs } from './workflow/browser-tabs';
import { createWorkflowHandlers } from './workflow/handlers';
import { WorkflowRunner } from './workflow/runner';
import { MaskController } from './workflow/mask';
import { transcribe } from './voice/whisper';

const db = database();
// Opening takes a storage round trip: started now, it overlaps the rest of start-up. A failure is
// reported by the first query that needs the database.
db.open().catch(() => undefined);
const conversations = new ConversationStore(db);
const settings = new SettingsStore(db);
const steps = new StepStore(db);
const search = new SearchIndex(db);
const costs = new CostService(db);
const memory = new MemoryService({ db, search, pageCache: new PageCache(db), activeUrl: async (windowId) => (await queryActiveTab(windowId))?.url });
// storage.session: what holds "for this session" (grants, the bridge's clients' tabs and log)
// outlives a stopped background, not the browser.
const sessionArea = {
  get: async (key: string): Promise<unknown> => (await browser.storage.session.get(key))[key],
  set: (key: string, value: unknown) => browser.storage.session.set({ [key]: value }),
};
const harbor = new HarborStore(db, sessionArea);
const broker = new PermissionBroker();
const recordUsage = (record: UsageRecord) => costs.record(record);
const streamChat = createRouter({
  shapes: { get: (model) => settings.requestShape(model), remember: (model, shape) => settings.rememberRequestShape(model, shape) },
  recordUsage,
});
const budget = new BudgetGuard(db, costs, (event) => ports.broadcast(event));
const stream = budget.wrap(streamChat);
const tools = createToolRegistry();

/** What the step gate needs, for the agent and the bridge alike; only where events go differs. */
const gateDeps: Omit<GateDeps, 'emit'> = {
  tools,
  harbor,
  steps,
  broker,
  describe: describePageTarget,
  tabs: {
    active: activeTab,
    url: (tabId) => browser.tabs.get(tabId).then((tab) => tab.url, () => undefined),
  },
};

const bridgeTabs = new TabCache(readTab);
// A client's steps are logged in the bridge's activity log, not in a conversation.
const bridge: BridgeService = new BridgeService({
  store: new BridgeStore(db),
  revokeGrants: (principal) => harbor.revokePrincipal(principal),
  gate: new StepGate({ ...gateDeps, steps: { put: async () => undefined }, emit: (event) => bridge.onGateEvent(event) }),
  connection: (handlers) => new RelayConnection({ open: (url) => new WebSocket(url), ...handlers }),
  tabs: {
    active: async () => taskTabOf(await queryActiveTab(undefined)),
    get: (tabId) => bridgeTabs.get(tabId),
    group: async (tabId, title) => {
      const tab = await browser.tabs.get(tabId);
      await groupTab(tabId, tab.windowId ?? -1, title);
    },
  },
  browserName: BROWSER,
  sessionArea,
  keepAlive: keepBackgroundAlive,
  broadcast: (event) => ports.broadcast(event),
});

/** The agent's dependencies, for the chat's agent and each research step alike. */
const agentDeps = {
  ...gateDeps,
  stream,
  toolModes: { get: (model: string) => settings.toolMode(model), remember: (model: string, mode: 'native' | 'xml') => settings.rememberToolMode(model, mode) },
  emit: (event: BackgroundEvent) => ports.broadcast(event),
};
const mask = new MaskController();
const workflows = new WorkflowRunner({
  mask,
  store: new WorkflowStore(db),
  conversations,
  settings: () => settings.load(),
  parallel: async () => (await settings.loadResearch()).parallel,
  keepAlive: (on) => keepBackgroundAlive(on, 'research'),
  agent: agentDeps,
  tabs: browserTabs,
  emit: (event) => ports.broadcast(event),
});

const ready = (async () => {
  // Side by side: each waits on storage or the browser. Resuming comes after, so that no step or
  // answer the resumed work starts is taken for one the stopped background left running.
  await Promise.all([conversations.markInterrupted(), steps.markInterrupted(), settings.load().then((saved) => allowProviderOrigin(saved?.baseUrl))]);
  // No tool waits for a navigation yet: a mark the stopped background left on a tab goes.
  void unmarkLeftNavigations();
  await workflows.resume();
  // An import the previous background had not finished unpacking (src/db/import-queue.ts).
  void drainImports(db).catch((error: unknown) => console.warn('Jawad: imported rows stay queued until the next start', error));
  // Memory's recall needs the word index for every question: read it before the first one.
  void search.ready();
})();

const chat: ChatService = new ChatService({
  conversations,
  settings,
  readPage: readActivePage,
  stream,
  agent: new AgentRunner({
    ...agentDeps,
  }),
  emit: (event) => ports.broadcast(event),
  memory,
  budget,
});
const ports = new SidebarPorts(
  createHandlers({
    chat,
    conversations,
    settings,
    testConnection: createConnectionTest(streamChat),
    allowProviderOrigin,
    voice: new VoiceService(settings, transcribe, recordUsage),
    tools,
    steps,
    harbor,
    broker,
    bridge,
    workflows: createWorkflowHandlers(workflows, settings),
    history: (sendConversations) => createHistoryHandlers({ db, conversations, steps, search, costs, memory, budget, sendConversations }),
  }),
  { id: browser.runtime.id, baseUrl: browser.runtime.getURL('/') },
  ready,
);

installBrowserHooks();
listenForPopupMenu();
onKeepAlive(() => void ready.then(() => bridge.wake()));
void ready.then(() => bridge.start());

browser.runtime.onConnect.addListener((port) => ports.accept(port));
browser.tabs.onRemoved.addListener((tabId) => {
  workflows.tabRemoved(tabId);
  forgetClosedTab(tabId);
});
browser.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url !== undefined) void ready.then(() => workflows.tabNavigated(tabId, change.url!));
});
mask.listen();
browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
  // The mask's Stop button, in a tab a research step drives.
  if ((message as { type?: unknown } | null)?.type === 'MASK_STOP' && sender.tab?.id !== undefined) void workflows.stopFromTab(sender.tab.id);
  return undefined;
});

browser.runtime.onInstalled.addListener((details) => {
  createPopupMenu();
  if (details.reason === 'install') void browser.tabs.create({ url: browser.runtime.getURL('src/welcome/index.html') });
});
