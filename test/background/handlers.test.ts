import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatService } from '../../src/background/chat/chat-service';
// These handler tests never reach the bridge (test/background/bridge covers it).
import type { BridgeService } from '../../src/background/bridge/bridge-service';
import { createHistoryHandlers } from '../../src/background/history/history-handlers';
import { CostService } from '../../src/background/history/cost-service';
import { SearchIndex } from '../../src/db/search-index';
import { MemoryService } from '../../src/background/memory/memory-service';
import { createHandlers, type HandlerContext, type HandlerTable } from '../../src/background/handlers';
import { ConversationStore } from '../../src/db/conversations';
import { JawadDatabase } from '../../src/db/database';
import { SettingsStore } from '../../src/db/settings';
import { JawadError, type BackgroundEvent, type ProviderSettings, type TestResultPayload } from '../../src/protocol';
import { ToolRegistry } from '../../src/background/tools/registry';
import { VoiceService } from '../../src/background/voice/voice-service';
import { PermissionBroker } from '../../src/background/gate/permission-broker';
import { HarborStore } from '../../src/db/harbor-store';
import { StepStore } from '../../src/db/steps';
import { createWorkflowHandlers } from '../../src/background/workflow/handlers';

const REQ = 'user-00000abc';
const SETTINGS: ProviderSettings = { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-secret-key-1234', timeoutSeconds: 60 };

let db: JawadDatabase;
let conversations: ConversationStore;
let settings: SettingsStore;
let handlers: HandlerTable;
let harbor: HarborStore;
let steps: StepStore;
let broker: PermissionBroker;
let replies: BackgroundEvent[];
let broadcasts: BackgroundEvent[];
let context: HandlerContext;
let testConnection: ReturnType<typeof vi.fn<(config: ProviderSettings) => Promise<TestResultPayload>>>;
let allowProviderOrigin: ReturnType<typeof vi.fn<(baseUrl: string | undefined) => Promise<void>>>;

beforeEach(() => {
  db = new JawadDatabase(`test-${crypto.randomUUID()}`);
  conversations = new ConversationStore(db);
  settings = new SettingsStore(db);
  replies = [];
  broadcasts = [];
  context = { reply: (e) => void replies.push(e), broadcast: (e) => void broadcasts.push(e) };
  testConnection = vi.fn(async () => ({ success: true, latencyMs: 5 }));
  allowProviderOrigin = vi.fn(async () => undefined);
  const chat = new ChatService({
    conversations,
    settings,
    readPage: async () => {
      throw new Error('unused');
    },
    stream: async function* () {
      yield { type: 'text', text: 'ok' };
    },
    emit: () => undefined,
  });
  const voice = new VoiceService(settings, async () => 'unused');
  const tools = new ToolRegistry([]);
  const session = new Map<string, unknown>();
  harbor = new HarborStore(db, { get: async (key) => session.get(key), set: async (key, value) => void session.set(key, value) });
  steps = new StepStore(db);
  broker = new PermissionBroker();
  const search = new SearchIndex(db);
  const history = (sendConversations: Parameters<typeof createHistoryHandlers>[0]['sendConversations']) =>
    createHistoryHandlers({ db, conversations, steps, search, costs: new CostService(db), memory: new MemoryService({ db, search, activeUrl: async () => undefined }), budget: { respond: () => undefined }, sendConversations });
  handlers = createHandlers({ chat, conversations, settings, testConnection, allowProviderOrigin, voice, tools, steps, harbor, broker, bridge: {} as BridgeService, history, workflows: createWorkflowHandlers({ start: vi.fn(), approve: vi.fn(), confirmStep: vi.fn(), cancel: vi.fn(), shown: async () => [] }, settings) });
});
afterEach(async () => {
  await db.delete();
});

describe('settings handlers', () => {
  it('SAVE_SETTINGS stores the key, allows the origin and tells every sidebar, without the key', async () => {
    await handlers.SAVE_SETTINGS({ type: 'SAVE_SETTINGS', requestId: REQ, payload: SETTINGS }, context);
    expect((await settings.load())?.apiKey).toBe('sk-secret-key-1234');
    expect(allowProviderOrigin).toHaveBeenCalledWith('https://api.openai.com/v1');
    expect(replies).toEqual([]);
    expect(broadcasts).toHaveLength(1);
    expect(broadcasts[0]).toMatchObject({ type: 'SETTINGS', requestId: REQ, payload: { hasApiKey: true, apiKeyHint: '••••1234' } });
    expect(JSON.stringify(broadcasts)).not.toContain('sk-secret');
  });

  it('GET_SETTINGS answers null before anything is saved', async () => {
    await handlers.GET_SETTINGS({ type: 'GET_SETTINGS', requestId: REQ, payload: {} }, context);
    expect(replies).toEqual([{ type: 'SETTINGS', requestId: REQ, payload: null }]);
  });

  it('TEST_CONNECTION uses the stored key for the same endpoint', async () => {
    await settings.save({ ...SETTINGS, baseUrl: 'https://api.openai.com/v1' });
    const { apiKey: _omitted, ...typed } = SETTINGS;
    await handlers.TEST_CONNECTION({ type: 'TEST_CONNECTION', requestId: REQ, payload: { ...typed, model: 'o3' } }, context);
    expect(testConnection).toHaveBeenCalledWith(expect.objectContaining({ model: 'o3', apiKey: 'sk-secret-key-1234' }), REQ);
    expect(replies).toEqual([{ type: 'TEST_RESULT', requestId: REQ, payload: { success: true, latencyMs: 5 } }]);
  });

  it('TEST_CONNECTION never sends the stored key to another origin', async () => {
    await settings.save(SETTINGS);
    const { apiKey: _omitted, ...typed } = SETTINGS;
    await handlers.TEST_CONNECTION({ type: 'TEST_CONNECTION', requestId: REQ, payload: { ...typed, baseUrl: 'https://attacker.example/v1' } }, context);
    expect(testConnection.mock.calls[0]![0].apiKey).toBeUndefined();
    // The tested origin is allowed only for the test; the saved one is put back afterwards.
    expect(allowProviderOrigin.mock.calls.map(([url]) => url)).toEqual(['https://attacker.example/v1', 'https://api.openai.com/v1']);
  });
});

describe('conversation handlers', () => {
  it('OPEN_CONVERSATION sends the messages without the attached page text', async () => {
    await conversations.create('c1', 'Hello', 1);
    await conversations.addMessage({ id: 'm1', conversationId: 'c1', role: 'user', content: 'Hi', status: 'complete', createdAt: 2, requestId: REQ, pageContext: 'PAGE TEXT' });
    await handlers.OPEN_CONVERSATION({ type: 'OPEN_CONVERSATION', requestId: REQ, payload: { conversationId: 'c1' } }, context);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ type: 'CONVERSATION', payload: { conversation: { id: 'c1' }, messages: [{ id: 'm1', content: 'Hi' }] } });
    expect(JSON.stringify(replies)).not.toContain('PAGE TEXT');
  });

  it('OPEN_CONVERSATION of a missing conversation throws NOT_FOUND', async () => {
    const error = await Promise.resolve(
      handlers.OPEN_CONVERSATION({ type: 'OPEN_CONVERSATION', requestId: REQ, payload: { conversationId: 'gone' } }, context),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JawadError);
    expect((error as JawadError).code).toBe('NOT_FOUND');
  });

  it('DELETE_CONVERSATION and CLEAR_HISTORY tell every sidebar the new list', async () => {
    await conversations.create('c1', 'One', 1);
    await conversations.create('c2', 'Two', 2);
    await handlers.DELETE_CONVERSATION({ type: 'DELETE_CONVERSATION', requestId: REQ, payload: { conversationId: 'c1' } }, context);
    expect(broadcasts.at(-1)).toMatchObject({ type: 'CONVERSATIONS', payload: { conversations: [{ id: 'c2' }] } });
    await handlers.CLEAR_HISTORY({ type: 'CLEAR_HISTORY', requestId: REQ, payload: {} }, context);
    expect(broadcasts.at(-1)).toEqual({ type: 'CONVERSATIONS', requestId: REQ, payload: { conversations: [] } });
    expect(await conversations.list()).toEqual([]);
  });
});

describe('Harbor handlers', () => {
  it('GET_GRANTS answers with the grants and options; REVOKE_GRANT removes one and tells every sidebar', async () => {
    await harbor.decide('allow-site', { site: 'https://example.com', level: 'interact', critical: false });
    await handlers.GET_GRANTS({ type: 'GET_GRANTS', requestId: REQ, payload: {} }, context);
    expect(replies[0]).toMatchObject({ type: 'GRANTS', payload: { grants: [{ site: 'https://example.com', level: 'interact', scope: 'site' }], options: { submitAlwaysAsks: true } } });
    const grantId = (replies[0] as Extract<BackgroundEvent, { type: 'GRANTS' }>).payload.grants[0]!.id;
    await handlers.REVOKE_GRANT({ type: 'REVOKE_GRANT', requestId: REQ, payload: { grantId } }, context);
    expect(broadcasts[0]).toMatchObject({ type: 'GRANTS', payload: { grants: [] } });
    expect((await harbor.policy()).grants).toEqual([]);
  });

  it('SAVE_HARBOR_OPTIONS stores the option and tells every sidebar', async () => {
    await handlers.SAVE_HARBOR_OPTIONS({ type: 'SAVE_HARBOR_OPTIONS', requestId: REQ, payload: { submitAlwaysAsks: false } }, context);
    expect(broadcasts[0]).toMatchObject({ type: 'GRANTS', payload: { options: { submitAlwaysAsks: false } } });
    expect((await harbor.policy()).options.submitAlwaysAsks).toBe(false);
  });

  it('PERMISSION_RESPONSE settles the waiting step, and says so clearly when nothing waits', async () => {
    const decision = broker.wait('step-1', new AbortController().signal);
    await handlers.PERMISSION_RESPONSE({ type: 'PERMISSION_RESPONSE', requestId: REQ, payload: { stepId: 'step-1', decision: 'allow-once' } }, context);
    await expect(decision).resolves.toBe('allow-once');
    expect(() => handlers.PERMISSION_RESPONSE({ type: 'PERMISSION_RESPONSE', requestId: REQ, payload: { stepId: 'step-1', decision: 'deny' } }, context)).toThrow(/no longer waiting/);
  });
});
