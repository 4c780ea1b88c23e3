/**
 * The agent bridge's cost per command: a client on the relay's WebSocket sends commands one at a
 * time; the round trip minus the tool's own duration (which Jawad reports with each answer) is
 * the bridge's overhead — relay hop, the background's parsing, routing and the step gate
 * (Harbor, guard, asking the page about a target). Then commands per second for one client,
 * with up to 32 commands in flight.
 *
 * On the fixture shop's product page, alternating `snapshot` and `get title` (both read-only:
 * no prompt, so a person's reaction time is not measured).
 */
import type { JawadBrowser } from '../../cli/launch';
import { BridgeAgent } from '../../cli/bridge/agent-client';
import { approvePairing, openPopup, turnBridgeOn } from '../../cli/bridge/popup-driver';
import { Relay } from '../../cli/bridge/relay';
import { startFixtureServer } from '../../test/support/fixture-server';
import { summarize, type Summary } from './stats';

export const BRIDGE_PAGE = '/agent-shop/product.html?sku=crimson-trail';
const IN_FLIGHT = 32;

export interface BridgeOverheadResult {
  overhead: Summary;
  toolMs: Summary;
  commandsPerSecond: number;
  commands: number;
}

export async function measureBridgeOverhead(jawad: JawadBrowser, commands: number): Promise<BridgeOverheadResult> {
  const fixtures = await startFixtureServer();
  const relay = new Relay({ port: 0 });
  await relay.start();
  const agent = new BridgeAgent({ url: relay.url, name: 'bench' });
  try {
    const ui = await openPopup(jawad);
    const page = await jawad.openTab(`${fixtures.url}${BRIDGE_PAGE}`);
    await jawad.host.evaluate(async (url) => {
      const tab = (await browser.tabs.query({})).find((candidate) => candidate.url === url);
      if (tab?.id !== undefined) await browser.tabs.update(tab.id, { active: true });
    }, page.url());
    await turnBridgeOn(ui, relay.url);
    await agent.connect();
    await approvePairing(ui, agent.code);
    await agent.whenPaired(15_000);
    const overhead: number[] = [];
    const toolMs: number[] = [];
    for (let i = 0; i < commands; i++) {
      const started = performance.now();
      const answer = await agent.command(i % 2 === 0 ? 'snapshot' : 'get', i % 2 === 0 ? {} : { what: 'title' });
      const total = performance.now() - started;
      if (!answer.success || answer.duration === undefined) throw new Error(`Command ${i} failed: ${JSON.stringify(answer).slice(0, 300)}`);
      overhead.push(total - answer.duration);
      toolMs.push(answer.duration);
    }
    const started = performance.now();
    for (let sent = 0; sent < commands; sent += IN_FLIGHT) {
      const batch = Array.from({ length: Math.min(IN_FLIGHT, commands - sent) }, () => agent.command('get', { what: 'title' }));
      const answers = await Promise.all(batch);
      if (answers.some((answer) => !answer.success)) throw new Error('A command failed during the throughput run');
    }
    const commandsPerSecond = commands / ((performance.now() - started) / 1000);
    return { overhead: summarize(overhead), toolMs: summarize(toolMs), commandsPerSecond, commands };
  } finally {
    agent.close();
    await relay.close();
    await fixtures.close();
  }
}
