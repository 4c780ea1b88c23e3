import * as z from 'zod/mini';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeService, MAX_QUEUED } from '../../../src/background/bridge/bridge-service';
import { RelayConnection } from '../../../src/background/bridge/connection';
import { PermissionBroker, USER } from '../../../src/background/gate/permission-broker';
import { StepGate, type TaskTab } from '../../../src/background/gate/step-gate';
import { ToolRegistry } from '../../../src/background/tools/registry';
import { defineTool, type Tool } from '../../../src/background/tools/tool';
import { BridgeStore } from '../../../src/db/bridge-store';
import { JawadDatabase } from '../../../src/db/database';
import { HarborStore } from '../../../src/db/harbor-store';
import type { AgentResponse, AgentStep, BackgroundEvent, ExtensionFrame } from '../../../src/protocol';
import { FakeSocket } from './fake-socket';

const sentFrames = () => socket.sent.map((text) => JSON.parse(text) as ExtensionFrame);

const PAGE: TaskTab = { id: 7, url: 'http://127.0.0.1:8080/form', windowId: 1 };
const OTHER: TaskTab = { id: 8, url: 'http://127.0.0.1:8080/other', windowId: 1 };
const NEW: TaskTab = { id: 9, url: '', windowId: 1 };

let db: JawadDatabase;
let socket: FakeSocket;
let broker: PermissionBroker;
let harbor: HarborStore;
let bridge: BridgeService;
let ran: string[];
let active: TaskTab;
let tabs: Map<number, TaskTab>;

function registry(): ToolRegistry {
  const target = { ref: z.optional(z.string()) };
  return new ToolRegistry([
    defineTool({ name: 'snapshot', description: 's', params: z.object({}), level: 'read-only', effects: {}, run: async (_p, { tabId }) => (ran.push(`snapshot ${tabId}`), { url: PAGE.url, title: 'Form', text: '- button "Save" [ref=e1]', refs: [], elementCount: 1, partial: false }) }),
    defineTool({ name: 'click', description: 'c', params: z.object(target), level: 'interact', effects: { target: 'click', activates: true }, run: async ({ ref }, { tabId }) => (ran.push(`click ${ref} in ${tabId}`), { action: 'click' }) }),
    defineTool({ name: 'new_tab', description: 'n', params: z.object({ url: z.string() }), level: 'navigate', effects: { url: 'url', opensTab: true }, run: async ({ url }) => (tabs.set(NEW.id, { ...NEW, url }), ran.push(`open ${url}`), { id: NEW.id }) }),
    defineTool({ name: 'list_tabs', description: 'l', params: z.object({}), level: 'read-only', effects: { tabList: true }, run: async (_p, { visibleTabs }) => [...tabs.values()].filter((tab) => visibleTabs?.includes(tab.id)).map((tab) => tab.id) }),
    defineTool({ name: 'switch_tab', description: 't', params: z.object({ tabId: z.int() }), level: 'navigate', effects: { tab: 'tabId' }, run: async ({ tabId }) => (ran.push(`switch ${tabId}`), { id: tabId }) }),
  ] as Tool[]);
}

const responses = (client: string) =>
  sentFrames().flatMap((frame) => (frame.type === 'response' && frame.client === client ? [frame.response] : []));

async function answerFor(client: string, id: string | number): Promise<AgentResponse> {
  await expect.poll(() => responses(client).find((response) => response.id === id && !('pending' in response))).toBeTruthy();
  return responses(client).find((response) => response.id === id && !('pending' in response))!;
}

async function pair(client: string, name: string): Promise<string> {
  socket.deliver({ type: 'client.hello', client, name, code: 'ABCD12' });
  await expect.poll(async () => (await bridge.status()).pairing.map((request) => request.client)).toContain(client);
  await bridge.approvePairing(client);
  const paired = sentFrames().find((frame) => frame.type === 'paired' && frame.client === client);
  if (paired?.type !== 'paired') throw new Error('not paired');
  return paired.clientId;
}

let session: Map<string, unknown>;

/** A background starting: a fresh service (and socket) over the same database and session area. */
async function startBackground(): Promise<void> {
  socket = new FakeSocket();
  // This test's area: a background left over from the previous test (its log still being saved) must not write here.
  const area = session;
  const store = new BridgeStore(db);
  bridge = new BridgeService({
    store,
    revokeGrants: (principal) => harbor.revokePrincipal(principal),
    gate: new StepGate({
      tools: registry(),
      harbor,
      steps: { put: async () => undefined },
      broker,
      describe: async () => ({ role: 'button', name: 'Save', tag: 'button', submits: false }),
      tabs: { active: async () => active, url: async (id) => tabs.get(id)?.url },
      emit: (event: BackgroundEvent) => bridge.onGateEvent(event),
    }),
    connection: (handlers) => new RelayConnection({ open: () => socket, ...handlers }),
    tabs: { active: async () => active, get: async (id) => tabs.get(id), group: async () => undefined },
    browserName: 'chromium',
    sessionArea: { get: async (key) => structuredClone(area.get(key)), set: async (key, value) => void area.set(key, structuredClone(value)) },
    keepAlive: () => undefined,
    broadcast: () => undefined,
  });
  await bridge.start();
  socket.open();
}

beforeEach(async () => {
  db = new JawadDatabase(`bridge-${crypto.randomUUID()}`);
  session = new Map<string, unknown>();
  harbor = new HarborStore(db, { get: async (key) => session.get(key), set: async (key, value) => void session.set(key, value) });
  broker = new PermissionBroker();
  ran = [];
  active = PAGE;
  tabs = new Map([[PAGE.id, PAGE], [OTHER.id, OTHER]]);
  await new BridgeStore(db).saveSettings({ enabled: true, url: 'ws://localhost:8080' });
  await startBackground();
});
afterEach(async () => {
  await bridge.kill();
  await db.delete();
});

describe('BridgeService', () => {
  it('keeps both a new URL and Connect when the user clicks them at once', async () => {
    await bridge.disconnect();
    await Promise.all([bridge.updateUrl('ws://127.0.0.1:9999'), bridge.connect()]);
    expect(await new BridgeStore(db).settings()).toEqual({ enabled: true, url: 'ws://127.0.0.1:9999' });
    expect((await bridge.status()).url).toBe('ws://127.0.0.1:9999');
  });

  it('says hello to the relay and gives an unpaired client nothing', async () => {
    expect(sentFrames()[0]).toEqual({ type: 'extension.hello', browser: 'chromium' });
    socket.deliver({ type: 'client.hello', client: 'c1', name: 'stranger', code: 'ZZZZ99' });
    socket.deliver({ type: 'command', client: 'c1', command: { id: 1, type: 'snapshot' } });
    expect(await answerFor('c1', 1)).toMatchObject({ success: false, code: 'NOT_PAIRED' });
    expect(ran).toEqual([]);
  });

  it('pairs with the user’s approval, then recognises the token without asking again', async () => {
    await pair('c1', 'coder');
    const paired = sentFrames().find((frame) => frame.type === 'paired');
    const token = paired?.type === 'paired' ? paired.token : undefined;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    socket.deliver({ type: 'client.hello', client: 'c2', name: 'coder', code: 'ABCD12', token });
    await expect.poll(() => sentFrames().some((frame) => frame.type === 'paired' && frame.client === 'c2')).toBe(true);
    expect((await bridge.status()).pairing).toEqual([]);
  });

  it('runs a command through the gate; a step that asks tells the client it is pending, and only the user answers it', async () => {
    const clientId = await pair('c1', 'coder');
    socket.deliver({ type: 'command', client: 'c1', command: { id: 'a', type: 'click', params: { ref: 'e1' } } });
    await expect.poll(() => responses('c1').some((response) => 'pending' in response)).toBe(true);
    const [prompt] = (await bridge.status()).prompts as AgentStep[];
    expect(prompt).toMatchObject({ tool: 'click', status: 'asking', conversationId: `bridge-${clientId}` });
    // The client cannot answer its own prompt, nor can another client.
    expect(() => broker.respond(prompt!.id, 'allow-once', clientId)).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
    expect(() => broker.respond(prompt!.id, 'allow-once', 'client-someone-else')).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
    broker.respond(prompt!.id, 'allow-site', USER);
    expect(await answerFor('c1', 'a')).toMatchObject({ success: true });
    expect(ran).toEqual(['click e1 in 7']);
    // The grant is the client's own: the user's policy has none.
    expect((await harbor.policy(clientId)).grants).toHaveLength(1);
    expect((await harbor.policy(USER)).grants).toHaveLength(0);
  });

  it('a denied step answers an error and runs nothing', async () => {
    await pair('c1', 'coder');
    socket.deliver({ type: 'command', client: 'c1', command: { id: 'd', type: 'click', params: { ref: 'e1' } } });
    await expect.poll(async () => (await bridge.status()).prompts.length).toBe(1);
    broker.respond((await bridge.status()).prompts[0]!.id, 'deny');
    expect(await answerFor('c1', 'd')).toMatchObject({ success: false, code: 'PERMISSION_DENIED' });
    expect(ran).toEqual([]);
  });

  it('keeps two clients apart: the tab of one client’s snapshot is never the other’s', async () => {
    await pair('c1', 'first');
    await pair('c2', 'second');
    socket.deliver({ type: 'command', client: 'c1', command: { id: 1, type: 'snapshot' } });
    expect(await answerFor('c1', 1)).toMatchObject({ success: true });
    socket.deliver({ type: 'command', client: 'c2', command: { id: 1, type: 'snapshot' } });
    expect(await answerFor('c2', 1)).toMatchObject({ success: false, code: 'PERMISSION_DENIED' });
    socket.deliver({ type: 'command', client: 'c2', command: { id: 2, type: 'tab', params: { action: 'switch', id: PAGE.id } } });
    expect(await answerFor('c2', 2)).toMatchObject({ success: false, error: expect.stringContaining('another client') });
    expect(ran).toEqual(['snapshot 7']);
  });

  it('answers bad frames clearly and refuses a flood beyond the queue', async () => {
    await pair('c1', 'coder');
    socket.deliver({ type: 'command', client: 'c1', command: { id: 'x', type: 'teleport' } });
    socket.deliver({ type: 'command', client: 'c1', command: 'not an object' });
    expect(await answerFor('c1', 'x')).toMatchObject({ success: false, code: 'UNKNOWN_COMMAND' });
    await expect.poll(() => responses('c1').some((response) => response.id === null && 'success' in response && !response.success)).toBe(true);
    for (let id = 0; id < MAX_QUEUED + 10; id++) socket.deliver({ type: 'command', client: 'c1', command: { id, type: 'snapshot' } });
    expect(await answerFor('c1', MAX_QUEUED + 9)).toMatchObject({ success: false, code: 'BUSY' });
    await answerFor('c1', MAX_QUEUED - 1);
  });

  it('the kill switch stops a command waiting on a prompt and turns the bridge off', async () => {
    await pair('c1', 'coder');
    socket.deliver({ type: 'command', client: 'c1', command: { id: 'k', type: 'click', params: { ref: 'e1' } } });
    await expect.poll(async () => (await bridge.status()).prompts.length).toBe(1);
    const prompt = (await bridge.status()).prompts[0]!;
    await bridge.kill();
    expect(broker.isWaiting(prompt.id)).toBe(false);
    expect(ran).toEqual([]);
    expect(await bridge.status()).toMatchObject({ enabled: false, state: 'off', prompts: [] });
  });

  it('a stopped background keeps the activity log and each client’s tab: the next command goes where the last one did', async () => {
    await pair('c1', 'coder');
    socket.deliver({ type: 'command', client: 'c1', command: { id: 1, type: 'snapshot' } });
    expect(await answerFor('c1', 1)).toMatchObject({ success: true });
    await expect.poll(() => session.has('bridge.activity') && (session.get('bridge.activity') as unknown[]).length).toBe(2);
    const before = (await bridge.status()).activity;
    const sentBefore = sentFrames();

    // The background stops (nothing in memory survives) while the user switched to another tab.
    active = OTHER;
    await startBackground();
    expect((await bridge.status()).activity).toEqual(before);
    const token = (sentBefore.find((frame) => frame.type === 'paired') as { token: string }).token;
    socket.deliver({ type: 'client.hello', client: 'c9', name: 'coder', code: 'ABCD12', token });
    socket.deliver({ type: 'command', client: 'c9', command: { id: 2, type: 'snapshot' } });
    expect(await answerFor('c9', 2)).toMatchObject({ success: true });
    expect(ran).toEqual(['snapshot 7', 'snapshot 7']);
    expect((await bridge.status()).activity.map((entry) => `${entry.command} ${entry.detail}`)).toEqual([
      'pair Paired by the user.',
      expect.stringMatching(/^snapshot/),
      'pair Reconnected with its token.',
      expect.stringMatching(/^snapshot/),
    ]);
  });

  it('a log that is not the bridge’s (a damaged or older area) is ignored, not trusted', async () => {
    session.set('bridge.activity', [{ at: 'yesterday', clientName: 42 }]);
    await startBackground();
    expect((await bridge.status()).activity).toEqual([]);
  });

  it('after a stopped background, a client still lists every tab it holds, and only those', async () => {
    await pair('c1', 'coder');
    socket.deliver({ type: 'command', client: 'c1', command: { id: 1, type: 'snapshot' } });
    expect(await answerFor('c1', 1)).toMatchObject({ success: true });
    socket.deliver({ type: 'command', client: 'c1', command: { id: 2, type: 'tab', params: { action: 'new', url: 'http://127.0.0.1:8080/new' } } });
    await expect.poll(async () => (await bridge.status()).prompts.length).toBe(1);
    broker.respond((await bridge.status()).prompts[0]!.id, 'allow-once', USER);
    expect(await answerFor('c1', 2)).toMatchObject({ success: true, data: { id: NEW.id } });
    await expect.poll(() => (session.get('bridge.tabOwners') as { owners: unknown[] } | undefined)?.owners.length).toBe(2);
    const token = (sentFrames().find((frame) => frame.type === 'paired') as { token: string }).token;

    await startBackground();
    socket.deliver({ type: 'client.hello', client: 'c9', name: 'coder', code: 'ABCD12', token });
    socket.deliver({ type: 'command', client: 'c9', command: { id: 3, type: 'tab', params: { action: 'list' } } });
    const listed = await answerFor('c9', 3);
    expect(listed).toMatchObject({ success: true });
    expect([...(listed as { data: number[] }).data].sort()).toEqual([PAGE.id, NEW.id]);
  });
});
