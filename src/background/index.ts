/**
 * Background entry (Chrome service worker / Firefox event page). Listeners are registered
 * synchronously at the top level so the browser can wake this context for them.
 */
import browser, { type Runtime } from 'webextension-polyfill';
import { JawadError, type BackgroundEvent } from '../protocol';
import { ConversationStore } from '../db/conversations';
import { HarborStore } from '../db/harbor-store';
import { StepStore } from '../db/steps';
import { database } from '../db/database';
import { SettingsStore } from '../db/settings';
import { allowProviderOrigin, installBrowserHooks } from '../platform';
import { AgentRunner } from './agent/agent-runner';
import { PermissionBroker } from './gate/permission-broker';
import { ChatService } from './chat/chat-service';
import { createHandlers } from './handlers';
import { streamChat } from './llm/router';
import { testConnection } from './llm/test-connection';
import { queryActiveTab } from './page-scripts';
import { readActivePage } from './page-reader';
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
const conversations = new ConversationStore(db);
const settings = new SettingsStore(db);
const steps = new StepStore(db);
// storage.session: grants "for this session" outlive a stopped background, not the browser.
const harbor = new HarborStore(db, {
  get: async (key) => (await browser.storage.session.get(key))[key],
  set: (key, value) => browser.storage.session.set({ [key]: value }),
});
const broker = new PermissionBroker();
const tools = createToolRegistry();

const agentDeps = {
  stream: streamChat,
  tools,
  harbor,
  steps,
  broker,
  describe: describePageTarget,
  toolModes: { get: (model: string) => settings.toolMode(model), remember: (model: string, mode: 'native' | 'xml') => settings.rememberToolMode(model, mode) },
  emit: (event: BackgroundEvent) => ports.broadcast(event),
};
const mask = new MaskController();
const workflows = new WorkflowRunner({
  mask,
  store: new WorkflowStore(db),
  conversations,
  settings: () => settings.load(),
  agent: agentDeps,
  tabs: browserTabs,
  emit: (event) => ports.broadcast(event),
});

const ready = (async () => {
  await conversations.markInterrupted();
  await steps.markInterrupted();
  await allowProviderOrigin((await settings.load())?.baseUrl);
  await workflows.resume();
})();

const chat: ChatService = new ChatService({
  conversations,
  settings,
  readPage: readActivePage,
  stream: streamChat,
  agent: new AgentRunner({
    ...agentDeps,
    tabs: {
      async active(windowId) {
        const tab = await queryActiveTab(windowId);
        if (tab?.id === undefined) throw new JawadError('PAGE_UNREADABLE', 'No page is open in this window.');
        return { id: tab.id, url: tab.url ?? '', windowId: tab.windowId ?? -1, ...(tab.openerTabId === undefined ? {} : { openerTabId: tab.openerTabId }) };
      },
      url: (tabId) => browser.tabs.get(tabId).then((tab) => tab.url, () => undefined),
    },
  }),
  emit: (event) => ports.broadcast(event),
});
const ports = new SidebarPorts(
  createHandlers({ chat, conversations, settings, testConnection, allowProviderOrigin, voice: new VoiceService(settings, transcribe), tools, steps, harbor, broker, workflows: createWorkflowHandlers(workflows) }),
  { id: browser.runtime.id, baseUrl: browser.runtime.getURL('/') },
  ready,
);

installBrowserHooks();

browser.runtime.onConnect.addListener((port) => ports.accept(port));
browser.tabs.onRemoved.addListener((tabId) => workflows.tabRemoved(tabId));
mask.listen();
browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
  // The mask's Stop button, in a tab a research step drives.
  if ((message as { type?: unknown } | null)?.type === 'MASK_STOP' && sender.tab?.id !== undefined) void workflows.stopFromTab(sender.tab.id);
  return undefined;
});

browser.runtime.onInstalled.addListener((details) => {
  if (details.reason === 'install') void browser.tabs.create({ url: browser.runtime.getURL('src/welcome/index.html') });
});
