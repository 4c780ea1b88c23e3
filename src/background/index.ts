/**
 * Background entry (Chrome service worker / Firefox event page). Listeners are registered
 * synchronously at the top level so the browser can wake this context for them.
 */
import browser from 'webextension-polyfill';
import { ConversationStore } from '../db/conversations';
import { database } from '../db/database';
import { SettingsStore } from '../db/settings';
import { allowProviderOrigin, installBrowserHooks } from '../platform';
import { ChatService } from './chat/chat-service';
import { createHandlers } from './handlers';
import { streamChat } from './llm/router';
import { testConnection } from './llm/test-connection';
import { readActivePage } from './page-reader';
import { SidebarPorts } from './sidebar-port';
import { createToolRegistry } from './tools';
import { VoiceService } from './voice/voice-service';
import { transcribe } from './voice/whisper';

const db = database();
const conversations = new ConversationStore(db);
const settings = new SettingsStore(db);

const ready = (async () => {
  await conversations.markInterrupted();
  await allowProviderOrigin((await settings.load())?.baseUrl);
})();

const chat: ChatService = new ChatService({
  conversations,
  settings,
  readPage: readActivePage,
  stream: streamChat,
  emit: (event) => ports.broadcast(event),
});
const ports = new SidebarPorts(
  createHandlers({ chat, conversations, settings, testConnection, allowProviderOrigin, voice: new VoiceService(settings, transcribe), tools: createToolRegistry() }),
  { id: browser.runtime.id, baseUrl: browser.runtime.getURL('/') },
  ready,
);

installBrowserHooks();

browser.runtime.onConnect.addListener((port) => ports.accept(port));

browser.runtime.onInstalled.addListener((details) => {
  if (details.reason === 'install') void browser.tabs.create({ url: browser.runtime.getURL('src/welcome/index.html') });
});
