import {
  childRequestId,
  JawadError,
  OPEN_LIMIT,
  type BackgroundEvent,
  type SidebarRequestOf,
  type SidebarRequestType,
} from '../protocol';
import { publicMessage, type ConversationStore } from '../db/conversations';
import { toPublicSettings, toPublicVoiceSettings, type SettingsStore } from '../db/settings';
import type { HarborStore } from '../db/harbor-store';
import type { StepStore } from '../db/steps';
import type { PermissionBroker } from './gate/permission-broker';
import type { ChatService } from './chat/chat-service';
import type { TestResultPayload } from '../protocol';
import type { LlmConfig } from './llm/types';
import type { ToolRegistry } from './tools/registry';
import type { VoiceService } from './voice/voice-service';
import type { HistoryHandlers } from './history/history-handlers';

export interface HandlerContext {
  /** Answers the sidebar that sent the request. */
  reply: (event: BackgroundEvent) => void;
  /** Tells every open sidebar (one per window). */
  broadcast: (event: BackgroundEvent) => void;
}

export type Handler<T extends SidebarRequestType> = (request: SidebarRequestOf<T>, context: HandlerContext) => Promise<void> | void;

/** One handler per sidebar message type; the compiler refuses a table that misses one. */
export type HandlerTable = { [T in SidebarRequestType]: Handler<T> };

export interface HandlerDeps {
  chat: ChatService;
  conversations: ConversationStore;
  settings: SettingsStore;
  testConnection: (config: LlmConfig, requestId: string) => Promise<TestResultPayload>;
  allowProviderOrigin: (baseUrl: string | undefined) => Promise<void>;
  voice: VoiceService;
  tools: ToolRegistry;
  steps: StepStore;
  harbor: HarborStore;
  broker: PermissionBroker;
  /** Search, rename, pin, export, import and costs (history/history-handlers.ts). */
  history: (sendConversations: SendConversations) => HistoryHandlers;
}

type SendConversations = (requestId: string, send: (event: BackgroundEvent) => void) => Promise<void>;

export function createHandlers({ chat, conversations, settings, testConnection, allowProviderOrigin, voice, tools, steps, harbor, broker, history }: HandlerDeps): HandlerTable {
  const sendConversations: SendConversations = async (requestId, send) => {
    send({ type: 'CONVERSATIONS', requestId, payload: { conversations: await conversations.list() } });
  };

  const sendGrants = async (requestId: string, send: (event: BackgroundEvent) => void) => {
    const { grants, options } = await harbor.policy();
    send({ type: 'GRANTS', requestId, payload: { grants, options } });
  };

  return {
    CHAT_MESSAGE: (request) => chat.sendMessage(request),
    SUMMARIZE_PAGE: (request) => chat.summarizePage(request),
    RETRY_MESSAGE: (request) => chat.retry(request),
    STOP_GENERATION: (request) => {
      chat.stop(request.payload.conversationId);
    },

    LIST_CONVERSATIONS: (request, { reply }) => sendConversations(request.requestId, reply),
    OPEN_CONVERSATION: async (request, { reply }) => {
      const { conversationId, limit = OPEN_LIMIT, focus } = request.payload;
      const conversation = await conversations.get(conversationId);
      if (!conversation) throw new JawadError('NOT_FOUND', 'That conversation no longer exists.');
      const { messages, earlier } = await conversations.recentMessages(conversation.id, limit, focus);
      const shown = await steps.list(conversation.id, earlier > 0 ? messages[0]!.createdAt : -Infinity);
      reply({
        type: 'CONVERSATION',
        requestId: request.requestId,
        payload: { conversation, messages: messages.map(publicMessage), steps: shown, earlier, ...(focus ? { focus } : {}) },
      });
    },
    DELETE_CONVERSATION: async (request, { broadcast }) => {
      chat.stop(request.payload.conversationId);
      await conversations.delete(request.payload.conversationId);
      await sendConversations(request.requestId, broadcast);
    },
    CLEAR_HISTORY: async (request, { broadcast }) => {
      chat.stopAll();
      await conversations.clear();
      await sendConversations(request.requestId, broadcast);
    },

    GET_SETTINGS: async (request, { reply }) => {
      reply({ type: 'SETTINGS', requestId: request.requestId, payload: toPublicSettings(await settings.load()) });
    },
    SAVE_SETTINGS: async (request, { broadcast }) => {
      const saved = await settings.save(request.payload);
      await allowProviderOrigin(saved.baseUrl);
      broadcast({ type: 'SETTINGS', requestId: request.requestId, payload: toPublicSettings(saved) });
    },
    TEST_CONNECTION: async (request, { reply }) => {
      const config = await settings.withStoredKey(request.payload);
      await allowProviderOrigin(config.baseUrl);
      try {
        reply({ type: 'TEST_RESULT', requestId: request.requestId, payload: await testConnection(config, request.requestId) });
      } finally {
        await allowProviderOrigin((await settings.load())?.baseUrl ?? config.baseUrl);
      }
    },

    GET_VOICE_SETTINGS: async (request, { reply }) => {
      reply({ type: 'VOICE_SETTINGS', requestId: request.requestId, payload: toPublicVoiceSettings(await settings.loadVoice()) });
    },
    SAVE_VOICE_SETTINGS: async (request, { broadcast }) => {
      const saved = await settings.saveVoice(request.payload);
      broadcast({ type: 'VOICE_SETTINGS', requestId: request.requestId, payload: toPublicVoiceSettings(saved) });
    },
    START_VOICE: (request, { reply }) => voice.start(request, reply),
    STOP_VOICE: (request, { reply }) => voice.stop(request, reply),

    GET_TOOLS: (request, { reply }) => {
      reply({ type: 'TOOLS', requestId: request.requestId, payload: { tools: tools.list() } });
    },
    EXECUTE_TOOL: async (request, { reply }) => {
      const { toolName, parameters, timeoutMs, windowId } = request.payload;
      const context = { requestId: childRequestId(request.requestId, 'tool'), ...(windowId === undefined ? {} : { windowId }) };
      const result = await tools.execute(toolName, parameters, context, timeoutMs);
      reply({ type: 'TOOL_RESULT', requestId: request.requestId, payload: { toolName, ...result } });
    },

    PERMISSION_RESPONSE: (request) => {
      broker.respond(request.payload.stepId, request.payload.decision);
    },
    GET_GRANTS: (request, { reply }) => sendGrants(request.requestId, reply),
    REVOKE_GRANT: async (request, { broadcast }) => {
      await harbor.revoke(request.payload.grantId);
      await sendGrants(request.requestId, broadcast);
    },
    SAVE_HARBOR_OPTIONS: async (request, { broadcast }) => {
      await harbor.saveOptions(request.payload);
      await sendGrants(request.requestId, broadcast);
    },

    PING: () => undefined,
    ...history(sendConversations),
  };
}
