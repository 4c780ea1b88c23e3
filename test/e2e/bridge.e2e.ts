/**
 * The external agent bridge end to end: a stand-in coding agent talks to the relay over a real
 * WebSocket, Jawad's background connects to the relay, and the user approves in the real popup.
 * One browser launch per describe; the tests share it in order (pairing first).
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeAgent, type CommandResult } from '../../cli/bridge/agent-client';
import { answerPrompt, approvePairing, openPopup, turnBridgeOn, waitForBridgeState } from '../../cli/bridge/popup-driver';
import { Relay } from '../../cli/bridge/relay';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { browsersUnderTest, launchJawad, type JawadBrowser, type Sidebar } from './support/extension-browser';
import { openView } from './support/flows';

/** The ref of the first snapshot line with this role whose name contains `name`. */
function refOf(snapshot: unknown, role: string, name: string): string {
  const text = (snapshot as { text: string }).text;
  const line = text.split('\n').find((candidate) => candidate.includes(`${role} "`) && candidate.includes(name) && /\[ref=/.test(candidate));
  const ref = line?.match(/\[ref=([a-z0-9]+)\]/)?.[1];
  if (!ref) throw new Error(`No ${role} "${name}" in the snapshot:\n${text.slice(0, 2000)}`);
  return ref;
}

async function makeActive(jawad: JawadBrowser, page: Page): Promise<void> {
  // Firefox's tabs.query({url}) matches nothing when the pattern has a port: compare URLs instead.
  await jawad.host.evaluate(async (url) => {
    const tab = (await browser.tabs.query({})).find((candidate) => candidate.url === url);
    if (tab?.id !== undefined) await browser.tabs.update(tab.id, { active: true });
  }, page.url());
}

async function pairedAgent(ui: Sidebar, relay: Relay, name: string): Promise<BridgeAgent> {
  const agent = new BridgeAgent({ url: relay.url, name });
  await agent.connect();
  await approvePairing(ui, agent.code);
  await agent.whenPaired(15_000);
  return agent;
}

for (const browserName of browsersUnderTest()) {
  describe(`agent bridge in ${browserName}`, () => {
    let jawad: JawadBrowser;
    let fixtures: FixtureServer;
    let relay: Relay;
    let ui: Sidebar;
    let form: Page;
    let first: BridgeAgent;

    beforeAll(async () => {
      fixtures = await startFixtureServer();
      relay = new Relay({ port: 0 });
      await relay.start();
      jawad = await launchJawad(browserName);
      ui = await openPopup(jawad);
      form = await jawad.openTab(`${fixtures.url}/bridge-form.html`);
      await makeActive(jawad, form);
      await turnBridgeOn(ui, relay.url);
    });
    afterAll(async () => {
      first?.close();
      await jawad?.close();
      await relay?.close();
      await fixtures?.close();
    });

    it('pairs in the popup, then snapshot → fill → click change the page, each step under Harbor', async () => {
      first = new BridgeAgent({ url: relay.url, name: 'test-agent' });
      await first.connect();
      await approvePairing(ui, first.code);
      await first.whenPaired(15_000);
      expect(first.token).toMatch(/^[0-9a-f]{64}$/);
      await waitForBridgeState(ui, ['paired']);

      const snapshot = await first.command('snapshot');
      expect(snapshot.success).toBe(true);
      const field = refOf(snapshot.success && snapshot.data, 'textbox', 'Display name');
      const save = refOf(snapshot.success && snapshot.data, 'button', 'Save profile');

      // Typing into the page asks: the user allows it for this site, for this client.
      // While the prompt waits, the client is told so for this very command: pending, not a timeout.
      const pending: string[] = [];
      const filling = first.command('fill', { ref: field, value: 'Ada Lovelace' }, (message) => pending.push(message));
      await expect.poll(() => pending).toEqual([expect.stringContaining('Waiting for the user to allow fill')]);
      const asked = await answerPrompt(ui, () => 'allow-site');
      expect(asked.tool).toBe('fill');
      expect(asked.client).toContain('Agent(test-agent)');
      expect((await filling).success).toBe(true);

      // The client's own grant now covers clicking here: no prompt.
      const clicked = await first.command('click', { ref: save });
      expect(clicked).toMatchObject({ success: true });
      expect(await form.$eval('#state', (element) => element.textContent)).toBe('Saved: Ada Lovelace');
    });

    it('the client’s grant is its own, shown as such in Settings', async () => {
      await openView(jawad.sidebar, 'Settings');
      const holders = await jawad.sidebar.waitFor((win) => Array.from(win.document.querySelectorAll('[data-testid="grant-holder"]')).map((e) => e.textContent).join(','), null, 'the client’s grant');
      expect(holders).toBe('Agent(test-agent)');
    });

    it('an unpaired client gets nothing', async () => {
      const stranger = new BridgeAgent({ url: relay.url, name: 'stranger' });
      await stranger.connect();
      const answer = await stranger.command('snapshot');
      expect(answer).toMatchObject({ success: false, code: 'NOT_PAIRED' });
      expect('data' in answer).toBe(false);
      stranger.close();
    });

    it('a critical action is always asked, even with a grant, and deny returns an error', async () => {
      const snapshot = await first.command('snapshot');
      const remove = refOf(snapshot.success && snapshot.data, 'button', 'Delete account');
      const deleting = first.command('click', { ref: remove });
      const asked = await answerPrompt(ui, () => 'deny');
      expect(asked).toMatchObject({ tool: 'click', critical: true });
      const answer = await deleting;
      expect(answer).toMatchObject({ success: false, code: 'PERMISSION_DENIED' });
      expect(await form.$eval('#state', (element) => element.textContent)).toBe('Saved: Ada Lovelace');
    });

    it('a grant holds on its own site: once the client’s tab has gone to another site, the same click is asked again', async () => {
      await form.goto(`${fixtures.url.replace('127.0.0.1', 'localhost')}/bridge-form.html`);
      try {
        // Reading a site the client has not worked on yet asks too.
        const reading = first.command('snapshot');
        expect(await answerPrompt(ui, () => 'allow-once')).toMatchObject({ tool: 'snapshot' });
        const snapshot = await reading;
        const save = refOf(snapshot.success && snapshot.data, 'button', 'Save profile');
        const saving = first.command('click', { ref: save });
        expect(await answerPrompt(ui, () => 'deny')).toMatchObject({ tool: 'click', critical: false });
        expect(await saving).toMatchObject({ success: false, code: 'PERMISSION_DENIED' });
      } finally {
        await form.goto(`${fixtures.url}/bridge-form.html`);
      }
    });

    it('two clients at once stay isolated: each sees and touches only its own tabs', async () => {
      const second = await pairedAgent(ui, relay, 'second-agent');
      try {
        const opening = second.command('tab', { action: 'new', url: `${fixtures.url}/plain.html` });
        expect(await answerPrompt(ui, () => 'allow-once')).toMatchObject({ tool: 'new_tab', client: expect.stringContaining('Agent(second-agent)') });
        const opened = await opening;
        expect(opened.success).toBe(true);
        const secondTab = opened.success ? (opened.data as { id: number }).id : -1;
        // The second client acts in its own tab; the first keeps working in its own.
        const seen = await second.command('snapshot');
        expect(seen.success && (seen.data as { text: string }).text).toContain('Tide tables');
        const firstView = await first.command('snapshot');
        expect(firstView.success && (firstView.data as { text: string }).text).toContain('Your profile');
        // Neither lists nor touches the other's tabs.
        const firstTabs = await first.command('tab', { action: 'list' });
        expect(JSON.stringify(firstTabs)).not.toContain('plain.html');
        expect(await first.command('tab', { action: 'switch', id: secondTab })).toMatchObject({ success: false, code: 'PERMISSION_DENIED', error: expect.stringContaining('another client') });
        expect(await first.command('tab', { action: 'close', id: secondTab })).toMatchObject({ success: false, code: 'PERMISSION_DENIED' });
        const secondTabs = await second.command('tab', { action: 'list' });
        expect(JSON.stringify(secondTabs)).not.toContain('bridge-form.html');
        // The tab the second client opened sits in its own group.
        const grouped = await jawad.host.evaluate(async (tabId) => {
          const api = globalThis as unknown as { chrome?: { tabs: { get(id: number): Promise<{ groupId?: number }> }; tabGroups?: { get(id: number): Promise<{ title?: string }> } } };
          const groups = (globalThis as unknown as { browser?: typeof api.chrome }).browser?.tabGroups ? (globalThis as unknown as { browser: typeof api.chrome }).browser : api.chrome;
          const tab = await groups!.tabs.get(tabId);
          return tab.groupId !== undefined && tab.groupId >= 0 ? (await groups!.tabGroups!.get(tab.groupId)).title : null;
        }, secondTab);
        expect(grouped).toBe('Agent(second-agent)');
      } finally {
        second.close();
      }
    });

    it('bad input gets clear errors and the background keeps serving the sidebar', async () => {
      first.sendRaw('this is not json');
      first.sendRaw(JSON.stringify({ nope: true }));
      const unknown = await first.send({ id: 'u1', type: 'teleport', params: {} });
      expect(unknown).toMatchObject({ success: false, code: 'UNKNOWN_COMMAND' });
      const invalid = await first.send({ id: 'v1', type: 'click', params: { ref: 42 } });
      expect(invalid).toMatchObject({ success: false, code: 'VALIDATION_ERROR', error: expect.stringContaining('ref') });
      const huge = await first.send({ id: 'h1', type: 'fill', params: { ref: 'e1', value: 'x'.repeat(300_000) } });
      expect(huge).toMatchObject({ success: false, code: 'TOO_LARGE' });
      await expect.poll(() => first.orphans.map((answer) => !answer.success && answer.code)).toEqual(['BAD_FRAME', 'BAD_FRAME']);
      // A flood while a command waits on the user: the queue takes its room's worth, the rest are
      // answered at once with BUSY, and once the user has answered, every queued command is run.
      const FLOOD = 150;
      const ROOM = 64; // the background's MAX_QUEUED, as the README promises it
      const snapshot = await first.command('snapshot');
      const held = first.command('click', { ref: refOf(snapshot.success && snapshot.data, 'button', 'Delete account') });
      const answered: CommandResult[] = [];
      const flood = Array.from({ length: FLOOD }, () => first.command('get', { what: 'title' }).then((answer) => (answered.push(answer), answer)));
      await expect.poll(() => answered.length).toBe(FLOOD - ROOM);
      expect(answered.every((answer) => !answer.success && answer.code === 'BUSY')).toBe(true);
      expect(await answerPrompt(ui, () => 'deny')).toMatchObject({ tool: 'click', critical: true });
      expect(await held).toMatchObject({ success: false, code: 'PERMISSION_DENIED' });
      const queued = (await Promise.all(flood)).filter((answer) => answer.success);
      expect(queued.map((answer) => answer.success && answer.data)).toEqual(Array(ROOM).fill({ action: 'get', target: 'the page', result: 'Profile — bridge fixture' }));
      // The sidebar is still served: its Bridge view follows the flood live, and its tools list loads.
      await jawad.sidebar.click('.top-bar nav button', 'Bridge');
      await jawad.sidebar.waitFor((win) => win.document.querySelector('[data-testid="bridge-activity"] li[data-command="get"][data-outcome="ok"]'), null, 'the flood in the sidebar log');
      await openView(jawad.sidebar, 'Tools');
      await jawad.sidebar.waitFor((win) => win.document.querySelectorAll('section.tools select[name=tool] option').length > 10, null, 'the tools list');
    });

    it('the relay restarts: Jawad reconnects and the client re-pairs with its token, no prompt', async () => {
      const token = first.token!;
      first.close();
      const port = relay.port;
      await relay.close();
      await waitForBridgeState(ui, ['disconnected', 'connecting']);
      relay = new Relay({ port });
      await relay.start();
      expect(await relay.waitForExtension(15_000)).toBe(true);
      first = new BridgeAgent({ url: relay.url, name: 'test-agent', token });
      await first.connect();
      await first.whenPaired(10_000);
      expect(await ui.eval((win) => win.document.querySelectorAll('[data-testid="pairing-request"]').length, null)).toBe(0);
      const again = await first.command('get', { what: 'title' });
      expect(again).toMatchObject({ success: true });
    });
  });
}

/** Short enough that the test sees Firefox unload the idle background; the bridge wakes it again. */
const FIREFOX_IDLE_MS = 4_000;

/** The activity log as the popup shows it, newest first. */
const activityShown = (ui: Sidebar) =>
  ui.eval((win) => Array.from(win.document.querySelectorAll('[data-testid="bridge-activity"] li')).map((item) => `${item.getAttribute('data-command')} ${item.getAttribute('data-outcome')} ${item.textContent}`), null);

for (const browserName of browsersUnderTest()) {
  describe(`the toolbar popup, and a stopped background, in ${browserName}`, () => {
    let jawad: JawadBrowser;
    let fixtures: FixtureServer;
    let relay: Relay;
    let ui: Sidebar;
    let form: Page;
    let agent: BridgeAgent;

    beforeAll(async () => {
      fixtures = await startFixtureServer();
      relay = new Relay({ port: 0 });
      await relay.start();
      jawad = await launchJawad(browserName, { firefoxIdleTimeoutMs: FIREFOX_IDLE_MS });
      form = await jawad.openTab(`${fixtures.url}/bridge-form.html`);
      await makeActive(jawad, form);
    });
    afterAll(async () => {
      agent?.close();
      await jawad?.close();
      await relay?.close();
      await fixtures?.close();
    });

    it('the popup page shows the status, pairs a client, and follows its commands live', async () => {
      ui = await openPopup(jawad);
      expect(await waitForBridgeState(ui, ['off'])).toBe('off');
      expect(await ui.eval((win) => win.document.querySelector('[data-testid="bridge-state"]')?.textContent, null)).toBe('Off');
      await turnBridgeOn(ui, relay.url);
      expect(await ui.eval((win) => win.document.querySelector('[data-testid="bridge-state"]')?.textContent, null)).toBe('Connected, no client paired');

      agent = new BridgeAgent({ url: relay.url, name: 'popup-agent' });
      await agent.connect();
      await approvePairing(ui, agent.code);
      await agent.whenPaired(15_000);
      await waitForBridgeState(ui, ['paired']);
      await ui.waitFor((win) => win.document.querySelector('[data-testid="bridge-client"][data-connected="true"]')?.textContent?.includes('Agent(popup-agent)'), null, 'the paired client listed');

      const snapshot = await agent.command('snapshot');
      expect(snapshot.success && (snapshot.data as { text: string }).text).toContain('Your profile');
      // The popup follows without a reload: the command appears in its log with Harbor's decision.
      await ui.waitFor((win) => win.document.querySelector('[data-testid="bridge-activity"] li[data-command="snapshot"][data-outcome="ok"]')?.textContent?.includes('popup-agent'), null, 'the snapshot in the popup log');
      expect((await activityShown(ui)).at(-1)).toMatch(/^pair ok .*popup-agent.*Paired by the user/);
    });

    it('a stopped background comes back, knows its client by token, keeps the log and sends the client to its own tab', async () => {
      // The user moves on to another tab: the client's next command must still go to its own.
      const other = await jawad.openTab(`${fixtures.url}/plain.html`);
      await makeActive(jawad, other);
      await jawad.stopBackground();
      await expect
        .poll(async () => {
          const seen = await agent.command('snapshot');
          return seen.success ? (seen.data as { text: string }).text : `${seen.code}`;
        }, { timeout: 60_000, interval: 500 })
        .toContain('Your profile');
      expect(await ui.eval((win) => win.document.querySelectorAll('[data-testid="pairing-request"]').length, null)).toBe(0);
      // The log from before the stop is still there, under what came after.
      await ui.waitFor((win) => win.document.querySelector('[data-testid="bridge-activity"] li[data-command="pair"]')?.textContent?.includes('Reconnected with its token'), null, 'the reconnection in the log', 20_000);
      await expect.poll(async () => (await activityShown(ui)).filter((line) => line.startsWith('snapshot ok')).length).toBeGreaterThanOrEqual(2);
      expect((await activityShown(ui)).at(-1)).toMatch(/Paired by the user/);
    });

    it('the kill switch in the popup stops a command waiting on a prompt and turns the bridge off', async () => {
      const snapshot = await agent.command('snapshot');
      const remove = refOf(snapshot.success && snapshot.data, 'button', 'Delete account');
      const waiting = agent.command('click', { ref: remove });
      await ui.waitFor((win) => win.document.querySelector('[data-testid="permission-prompt"]'), null, 'the prompt');
      await ui.click('[data-testid="bridge-kill"]');
      expect(await waiting).toMatchObject({ success: false });
      await waitForBridgeState(ui, ['off']);
      expect(await ui.eval((win) => Boolean(win.document.querySelector('[data-testid="permission-prompt"]')), null)).toBe(false);
      expect((await activityShown(ui))[0]).toMatch(/^kill switch refused/);
      expect(await form.$eval('#state', (element) => element.textContent)).toBe('Nothing saved yet.');
    });
  });
}
