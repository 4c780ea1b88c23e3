import { describe, expect, it, vi, type Mock } from 'vitest';
import type { Runtime } from 'webextension-polyfill';
import type { Handler } from '../../src/background/handlers';
import { SidebarPorts } from '../../src/background/sidebar-port';
import type { ExtensionIdentity } from '../../src/background/messenger';
import { JawadError, REQUEST_ID_PATTERN, SIDEBAR_PORT_NAME, type BackgroundEvent, type SidebarRequest, type SidebarRequestType } from '../../src/protocol';
import { fakePort } from './fake-port';

const self: ExtensionIdentity = { id: 'jawad@example.org', baseUrl: 'chrome-extension://abcdef/' };
const sidebarSender: Runtime.MessageSender = { id: self.id, url: 'chrome-extension://abcdef/src/sidebar/index.html' };
const REQ = 'user-0badc0de';

/** A handler table of spies; every handler does nothing unless a test replaces it. */
type SpyTable = { [T in SidebarRequestType]: Mock<Handler<T>> };

function spyTable(): SpyTable {
  const types: SidebarRequest['type'][] = [
    'CHAT_MESSAGE', 'SUMMARIZE_PAGE', 'STOP_GENERATION', 'RETRY_MESSAGE', 'LIST_CONVERSATIONS', 'OPEN_CONVERSATION',
    'DELETE_CONVERSATION', 'CLEAR_HISTORY', 'GET_SETTINGS', 'SAVE_SETTINGS', 'TEST_CONNECTION', 'GET_VOICE_SETTINGS',
    'SAVE_VOICE_SETTINGS', 'START_VOICE', 'STOP_VOICE', 'GET_TOOLS', 'EXECUTE_TOOL', 'PERMISSION_RESPONSE', 'GET_GRANTS',
    'REVOKE_GRANT', 'SAVE_HARBOR_OPTIONS', 'PING', 'GET_STATUS', 'CONNECT', 'DISCONNECT', 'UPDATE_URL', 'GET_ACTIVITY_LOG',
    'APPROVE_PAIRING', 'REFUSE_PAIRING', 'UNPAIR_CLIENT', 'KILL_BRIDGE',
    'SEARCH_HISTORY', 'RENAME_CONVERSATION', 'PIN_CONVERSATION', 'EXPORT_MARKDOWN', 'IMPORT_PART', 'GET_COSTS',
    'LIST_MEMORIES', 'SAVE_MEMORY', 'FORGET_MEMORY', 'SET_MEMORY_ENABLED', 'GET_TRACE', 'SAVE_BUDGETS', 'SAVE_PRICE', 'BUDGET_RESPONSE', 'PREVIEW_RECALL',
    'START_WORKFLOW', 'APPROVE_WORKFLOW', 'CONFIRM_WORKFLOW_STEP', 'CANCEL_WORKFLOW', 'GET_WORKFLOWS', 'GET_RESEARCH_SETTINGS', 'SAVE_RESEARCH_SETTINGS',
  ];
  return Object.fromEntries(types.map((type) => [type, vi.fn()])) as unknown as SpyTable;
}

function setup(handlers = spyTable(), ready?: Promise<unknown>) {
  const ports = new SidebarPorts(handlers, self, ready);
  const sidebar = fakePort(SIDEBAR_PORT_NAME, sidebarSender);
  expect(ports.accept(sidebar.port)).toBe(true);
  return { ports, sidebar, handlers };
}

const lastPosted = (posted: BackgroundEvent[]) => posted.at(-1);

describe('SidebarPorts.accept', () => {
  it('accepts this extension’s sidebar and forgets it when it disconnects', () => {
    const { ports, sidebar } = setup();
    expect(ports.size).toBe(1);
    expect(sidebar.messageListeners.size).toBe(1);
    expect(sidebar.disconnect).not.toHaveBeenCalled();
    sidebar.close();
    expect(ports.size).toBe(0);
  });

  it.each([
    ['a port with another name', 'some-other-port', sidebarSender],
    ['another extension', SIDEBAR_PORT_NAME, { ...sidebarSender, id: 'evil@example.org' }],
    ['a content script in a web page', SIDEBAR_PORT_NAME, { id: self.id, url: 'https://example.com/', tab: { id: 4 } } as Runtime.MessageSender],
    ['a sender-less port', SIDEBAR_PORT_NAME, undefined],
  ])('refuses and disconnects %s', (_label, name, sender) => {
    const ports = new SidebarPorts(spyTable(), self);
    const port = fakePort(name, sender);
    expect(ports.accept(port.port)).toBe(false);
    expect(port.disconnect).toHaveBeenCalledOnce();
    expect(port.messageListeners.size).toBe(0);
    expect(ports.size).toBe(0);
  });
});

describe('SidebarPorts.dispatch', () => {
  it('answers input that is not a message with VALIDATION_ERROR and a fresh valid requestId', async () => {
    const { ports, sidebar, handlers } = setup();
    for (const raw of ['hello', 42, null, [1, 2]]) await ports.dispatch(sidebar.port, raw);
    expect(sidebar.posted).toHaveLength(4);
    for (const event of sidebar.posted) {
      expect(event).toMatchObject({ type: 'ERROR', payload: { code: 'VALIDATION_ERROR' } });
      expect(event.requestId).toMatch(REQUEST_ID_PATTERN);
      expect(event.requestId).toMatch(/^error-/);
    }
    expect(Object.values(handlers).every((handler) => handler.mock.calls.length === 0)).toBe(true);
  });

  it('answers an unknown type with UNKNOWN_MESSAGE_TYPE under the sender’s requestId', async () => {
    const { ports, sidebar } = setup();
    await ports.dispatch(sidebar.port, { type: 'EVAL_JS', requestId: REQ, payload: { code: 'alert(1)' } });
    expect(sidebar.posted).toEqual([
      { type: 'ERROR', requestId: REQ, payload: { code: 'UNKNOWN_MESSAGE_TYPE', message: expect.stringContaining('EVAL_JS') } },
    ]);
  });

  it('answers a bad payload with VALIDATION_ERROR listing the fields', async () => {
    const { ports, sidebar, handlers } = setup();
    await ports.dispatch(sidebar.port, { type: 'CHAT_MESSAGE', requestId: REQ, payload: { content: '   ' } });
    expect(lastPosted(sidebar.posted)).toMatchObject({
      type: 'ERROR',
      requestId: REQ,
      payload: { code: 'VALIDATION_ERROR', details: [{ path: 'payload.content' }] },
    });
    expect(handlers.CHAT_MESSAGE).not.toHaveBeenCalled();
  });

  it('does not echo back a requestId that is not a valid chain', async () => {
    const { ports, sidebar } = setup();
    await ports.dispatch(sidebar.port, { type: 'NOPE', requestId: 'Robert"); DROP TABLE' });
    expect(lastPosted(sidebar.posted)!.requestId).toMatch(/^error-[0-9a-f]{8}$/);
  });

  it('routes each type to its own handler with the parsed request', async () => {
    const { ports, sidebar, handlers } = setup();
    const settings = { provider: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' };
    const messages: Record<SidebarRequest['type'], unknown> = {
      CHAT_MESSAGE: { content: 'hi' },
      SUMMARIZE_PAGE: {},
      STOP_GENERATION: { conversationId: 'c1' },
      RETRY_MESSAGE: { conversationId: 'c1', messageId: 'm1' },
      LIST_CONVERSATIONS: {},
      OPEN_CONVERSATION: { conversationId: 'c1' },
      DELETE_CONVERSATION: { conversationId: 'c1' },
      CLEAR_HISTORY: {},
      GET_SETTINGS: {},
      SAVE_SETTINGS: settings,
      TEST_CONNECTION: settings,
      GET_VOICE_SETTINGS: {},
      SAVE_VOICE_SETTINGS: {},
      START_VOICE: { mode: 'whisper' },
      STOP_VOICE: { cancelled: true },
      GET_TOOLS: {},
      EXECUTE_TOOL: { toolName: 'list_tabs' },
      PERMISSION_RESPONSE: { stepId: 's1', decision: 'deny' },
      GET_GRANTS: {},
      REVOKE_GRANT: { grantId: 'g1' },
      SAVE_HARBOR_OPTIONS: { submitAlwaysAsks: true },
      PING: {},
      GET_STATUS: {},
      CONNECT: {},
      DISCONNECT: {},
      UPDATE_URL: { url: 'ws://localhost:9000' },
      GET_ACTIVITY_LOG: {},
      APPROVE_PAIRING: { client: 'c1' },
      REFUSE_PAIRING: { client: 'c1' },
      UNPAIR_CLIENT: { clientId: 'client-1' },
      KILL_BRIDGE: {},
      SEARCH_HISTORY: { query: 'invoice' },
      RENAME_CONVERSATION: { conversationId: 'c1', title: 'Trip' },
      PIN_CONVERSATION: { conversationId: 'c1', pinned: true },
      EXPORT_MARKDOWN: { conversationId: 'c1' },
      IMPORT_PART: { transferId: 't1', index: 0, count: 1, text: '{}' },
      GET_COSTS: {},
      LIST_MEMORIES: {},
      SAVE_MEMORY: { text: 'Prefers aisle seats' },
      FORGET_MEMORY: { kind: 'memory', id: 'x' },
      SET_MEMORY_ENABLED: { enabled: false },
      GET_TRACE: { messageId: 'm1' },
      SAVE_BUDGETS: { perTask: 0.5 },
      SAVE_PRICE: { key: 'openai/gpt-4o', price: null },
      BUDGET_RESPONSE: { id: 'b1', decision: 'stop' },
      PREVIEW_RECALL: { question: 'cat name?' },
      START_WORKFLOW: { intent: 'compare' },
      APPROVE_WORKFLOW: { workflowId: 'w1', steps: [{ id: 's1', task: 'read', site: 'https://example.com/', permissions: ['read'] }] },
      CONFIRM_WORKFLOW_STEP: { workflowId: 'w1', stepId: 's1', run: true },
      CANCEL_WORKFLOW: { workflowId: 'w1' },
      GET_WORKFLOWS: {},
      GET_RESEARCH_SETTINGS: {},
      SAVE_RESEARCH_SETTINGS: { parallel: 3 },
    };
    for (const [type, payload] of Object.entries(messages)) {
      await ports.dispatch(sidebar.port, { type, requestId: REQ, payload });
      for (const [other, handler] of Object.entries(handlers)) {
        expect(handler.mock.calls.length, `${other} after ${type}`).toBe(other === type ? 1 : 0);
      }
      handlers[type as SidebarRequestType].mockClear();
    }
    expect(sidebar.posted).toEqual([]);
  });

  it('hands the handler the request with defaults applied', async () => {
    const { ports, sidebar, handlers } = setup();
    await ports.dispatch(sidebar.port, { type: 'CHAT_MESSAGE', requestId: REQ, payload: { content: ' hi ' } });
    expect(handlers.CHAT_MESSAGE).toHaveBeenCalledWith(
      { type: 'CHAT_MESSAGE', requestId: REQ, payload: { conversationId: null, content: 'hi', attachPage: false, agent: false } },
      expect.objectContaining({ reply: expect.any(Function), broadcast: expect.any(Function) }),
    );
  });

  it('reaches the handler through the Port listener', async () => {
    const { sidebar, handlers } = setup();
    sidebar.receive({ type: 'PING', requestId: REQ });
    await vi.waitFor(() => expect(handlers.PING).toHaveBeenCalledOnce());
  });

  it('turns a handler’s JawadError into an ERROR with its code', async () => {
    const handlers = spyTable();
    handlers.OPEN_CONVERSATION.mockRejectedValue(new JawadError('NOT_FOUND', 'That conversation no longer exists.'));
    const { ports, sidebar } = setup(handlers);
    await ports.dispatch(sidebar.port, { type: 'OPEN_CONVERSATION', requestId: REQ, payload: { conversationId: 'gone' } });
    expect(sidebar.posted).toEqual([
      { type: 'ERROR', requestId: REQ, payload: { code: 'NOT_FOUND', message: 'That conversation no longer exists.' } },
    ]);
  });

  it('turns any other throw into EXECUTION_ERROR with its message', async () => {
    const handlers = spyTable();
    handlers.GET_SETTINGS.mockImplementation(() => {
      throw new Error('database is locked');
    });
    const { ports, sidebar } = setup(handlers);
    await ports.dispatch(sidebar.port, { type: 'GET_SETTINGS', requestId: REQ });
    expect(sidebar.posted).toEqual([{ type: 'ERROR', requestId: REQ, payload: { code: 'EXECUTION_ERROR', message: 'database is locked' } }]);
  });

  it('replies to the asking sidebar and broadcasts to all of them', async () => {
    const handlers = spyTable();
    handlers.LIST_CONVERSATIONS.mockImplementation((request, { reply }) =>
      reply({ type: 'CONVERSATIONS', requestId: request.requestId, payload: { conversations: [] } }),
    );
    handlers.CLEAR_HISTORY.mockImplementation((request, { broadcast }) =>
      broadcast({ type: 'CONVERSATIONS', requestId: request.requestId, payload: { conversations: [] } }),
    );
    const { ports, sidebar } = setup(handlers);
    const other = fakePort(SIDEBAR_PORT_NAME, sidebarSender);
    ports.accept(other.port);

    await ports.dispatch(sidebar.port, { type: 'LIST_CONVERSATIONS', requestId: REQ });
    expect(sidebar.posted).toHaveLength(1);
    expect(other.posted).toHaveLength(0);

    await ports.dispatch(sidebar.port, { type: 'CLEAR_HISTORY', requestId: REQ });
    expect(sidebar.posted).toHaveLength(2);
    expect(other.posted).toHaveLength(1);

    other.close();
    ports.broadcast({ type: 'CONVERSATIONS', requestId: REQ, payload: { conversations: [] } });
    expect(other.posted).toHaveLength(1);
    expect(sidebar.posted).toHaveLength(3);
  });

  it('strips an API key from an outgoing SETTINGS event', async () => {
    const handlers = spyTable();
    handlers.GET_SETTINGS.mockImplementation((request, { reply }) =>
      reply({
        type: 'SETTINGS',
        requestId: request.requestId,
        payload: { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'm', timeoutSeconds: 60, hasApiKey: true, apiKey: 'sk-LEAK' } as never,
      }),
    );
    const { ports, sidebar } = setup(handlers);
    await ports.dispatch(sidebar.port, { type: 'GET_SETTINGS', requestId: REQ });
    expect(sidebar.posted).toHaveLength(1);
    expect(JSON.stringify(sidebar.posted)).not.toContain('sk-LEAK');
  });

  it('turns an event that fails validation into an ERROR, so the sidebar is not left waiting', async () => {
    const handlers = spyTable();
    handlers.LIST_CONVERSATIONS.mockImplementation((request, { reply }) =>
      reply({ type: 'CONVERSATIONS', requestId: request.requestId, payload: { conversations: [{ id: 42 }] } as never }),
    );
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { ports, sidebar } = setup(handlers);
    await ports.dispatch(sidebar.port, { type: 'LIST_CONVERSATIONS', requestId: REQ, payload: {} });
    expect(lastPosted(sidebar.posted)).toMatchObject({ type: 'ERROR', requestId: REQ, payload: { code: 'EXECUTION_ERROR' } });
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });

  it('survives a sidebar that closed before the reply', async () => {
    const handlers = spyTable();
    handlers.PING.mockRejectedValue(new Error('x'));
    const { ports, sidebar } = setup(handlers);
    sidebar.postMessage.mockImplementation(() => {
      throw new Error('Attempting to use a disconnected port object');
    });
    await expect(ports.dispatch(sidebar.port, { type: 'PING', requestId: REQ })).resolves.toBeUndefined();
  });

  it('waits for start-up work before serving a request, even if it failed', async () => {
    let finishStartup!: () => void;
    const ready = new Promise<void>((resolve) => (finishStartup = resolve));
    const { ports, sidebar, handlers } = setup(spyTable(), ready);
    const dispatched = ports.dispatch(sidebar.port, { type: 'PING', requestId: REQ });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(handlers.PING).not.toHaveBeenCalled();
    finishStartup();
    await dispatched;
    expect(handlers.PING).toHaveBeenCalledOnce();

    const failed = setup(spyTable(), Promise.reject(new Error('migration failed')));
    await failed.ports.dispatch(failed.sidebar.port, { type: 'PING', requestId: REQ });
    expect(failed.handlers.PING).toHaveBeenCalledOnce();
  });
});
