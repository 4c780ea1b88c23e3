/**
 * The external agent bridge end to end: a stand-in coding agent talks to the relay over a real
 * WebSocket, Jawad's background connects to the relay, and the user approves in the real popup.
 * One browser launch per describe; the tests share it in order (pairing first).
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeAgent } from '../../cli/bridge/agent-client';
import { answerPrompt, approvePairing, openPopup, turnBridgeOn, waitForBridgeState } from '../../cli/bridge/popup-driver';
import { Relay } from '../../cli/bridge/relay';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { browsersUnderTest, launchJawad, type JawadBrowser, type Sidebar } from './support/extension-browser';

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
      const pending: string[] = [];
      first = new BridgeAgent({ url: relay.url, name: 'test-agent', onPending: (message) => pending.push(message) });
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
      const filling = first.command('fill', { ref: field, value: 'Ada Lovelace' });
      const asked = await answerPrompt(ui, () => 'allow-site');
      expect(asked.tool).toBe('fill');
      expect(asked.client).toContain('Agent(test-agent)');
      expect((await filling).success).toBe(true);
      expect(pending.some((message) => message.includes('Waiting for the user to allow fill'))).toBe(true);

      // The client's own grant now covers clicking here: no prompt.
      const clicked = await first.command('click', { ref: save });
      expect(clicked).toMatchObject({ success: true });
      expect(await form.$eval('#state', (element) => element.textContent)).toBe('Saved: Ada Lovelace');
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
  });
}
