/**
 * Background entry (Chrome service worker / Firefox event page). Listeners are registered
 * synchronously at the top level so the browser can wake this context for them.
 */
import browser from 'webextension-polyfill';
import { JawadError, type UsageRecord } from '../protocol';
import { ConversationStore } from '../db/conversations';
import { HarborStore } from '../db/harbor-store';
import { StepStore } from '../db/steps';
import { database } from '../db/database';
import { SettingsStore } from '../db/settings';
import { PageCache } from '../db/page-cache';
import { SearchIndex } from '../db/search-index';
import { allowProviderOrigin, installBrowserHooks } from '../platform';
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
import { queryActiveTab } from './page-scripts';
import { readActivePage } from './page-reader';
import { describePageTarget } from './tools/page-action';
import { SidebarPorts } from './sidebar-port';
import { createToolRegistry } from './tools';
import { VoiceService } from './voice/voice-service';
import { transcribe } from './voice/whisper';

const db = database();
const conversations = new ConversationStore(db);
const settings = new SettingsStore(db);
const steps = new StepStore(db);
const search = new SearchIndex(db);
const costs = new CostService(db);
const memory = new MemoryService({ db, search, pageCache: new PageCache(db), activeUrl: async (windowId) => (await queryActiveTab(windowId))?.url });
// storage.session: grants "for this session" outlive a stopped background, not the browser.
const harbor = new HarborStore(db, {
  get: async (key) => (await browser.storage.session.get(key))[key],
  set: (key, value) => browser.storage.session.set({ [key]: value }),
});
const broker = new PermissionBroker();
const recordUsage = async (record: UsageRecord) => void (await db.usage.put(record));
const streamChat = createRouter({
  shapes: { get: (model) => settings.requestShape(model), remember: (model, shape) => settings.rememberRequestShape(model, shape) },
  recordUsage,
});
const budget = new BudgetGuard(db, costs, (event) => ports.broadcast(event));
const stream = budget.wrap(streamChat);
const tools = createToolRegistry();

const ready = (async () => {
  await conversations.markInterrupted();
  await steps.markInterrupted();
  await allowProviderOrigin((await settings.load())?.baseUrl);
})();

const chat: ChatService = new ChatService({
  conversations,
  settings,
  readPage: readActivePage,
  stream,
  agent: new AgentRunner({
    stream,
    tools,
    harbor,
    steps,
    broker,
    describe: describePageTarget,
    tabs: {
      async active(windowId) {
        const tab = await queryActiveTab(windowId);
        if (tab?.id === undefined) throw new JawadError('PAGE_UNREADABLE', 'No page is open in this window.');
        return { id: tab.id, url: tab.url ?? '', windowId: tab.windowId ?? -1, ...(tab.openerTabId === undefined ? {} : { openerTabId: tab.openerTabId }) };
      },
      url: (tabId) => browser.tabs.get(tabId).then((tab) => tab.url, () => undefined),
    },
    toolModes: { get: (model) => settings.toolMode(model), remember: (model, mode) => settings.rememberToolMode(model, mode) },
    emit: (event) => ports.broadcast(event),
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
    history: (sendConversations) => createHistoryHandlers({ db, conversations, steps, search, costs, memory, budget, sendConversations }),
  }),
  { id: browser.runtime.id, baseUrl: browser.runtime.getURL('/') },
  ready,
);

installBrowserHooks();

browser.runtime.onConnect.addListener((port) => ports.accept(port));

browser.runtime.onInstalled.addListener((details) => {
  if (details.reason === 'install') void browser.tabs.create({ url: browser.runtime.getURL('src/welcome/index.html') });
});
