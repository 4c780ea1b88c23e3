/**
 * Agent overhead per step, model time excluded: the scripted model answers at once, each turn
 * asking for a `snapshot` and a `click`, so the time from one model request to the next is what
 * Jawad spends on a step — parsing the calls, asking the page what the target is, Harbor's
 * decision, the snapshot walk, the click with its scroll/settle/hit-test, and wrapping the results.
 *
 * On the fixture shop's product page: a first task picks size M and is answered "allow on this
 * site", so the measured task — add to cart, again and again — runs without prompts (a
 * person's reaction time is not Jawad's overhead); the bench checks no prompt was raised.
 */
import type { Page } from 'puppeteer-core';
import { runAgentTask, saveProviderSettings, type TaskOutcome } from '../../cli/agent-task';
import type { JawadBrowser } from '../../cli/launch';
import { startFixtureServer } from '../../test/support/fixture-server';
import { startProviderServer, type Reply } from '../../test/support/provider-server';
import { summarize, type Summary } from './stats';

/** The fixture shop's product page: a native size select and an "Add to cart" button. */
export const AGENT_PAGE = '/agent-shop/product.html?sku=crimson-trail';

export interface AgentOverheadResult {
  /** Request-to-request time per step (snapshot + click + settle + Jawad's own work). */
  perStep: Summary;
  /** The tools' own share: the snapshot's and the click's durations as the registry measured them. */
  toolsPerStep: Summary;
  steps: number;
  prompts: number;
}

let ids = 0;
const turn = (): Reply => ({
  kind: 'openai-tool-stream',
  calls: [
    { id: `b${++ids}`, name: 'snapshot', arguments: '{}' },
    { id: `b${++ids}`, name: 'click', arguments: JSON.stringify({ selector: '[data-testid="add-to-cart"]' }) },
  ],
  whole: true,
});
const answer: Reply = { kind: 'openai-stream', chunks: ['Done.'] };

async function focusTab(jawad: JawadBrowser, url: string): Promise<Page> {
  const page = await jawad.openTab(url);
  await page.bringToFront();
  return page;
}

function assertCompleted(outcome: TaskOutcome): void {
  if (outcome.answer.status !== 'complete') throw new Error(`The agent task ended ${outcome.answer.status}: ${outcome.answer.error?.message ?? outcome.answer.content}`);
}

export async function measureAgentOverhead(jawad: JawadBrowser, steps: number): Promise<AgentOverheadResult> {
  const provider = await startProviderServer();
  const fixtures = await startFixtureServer();
  try {
    await saveProviderSettings(jawad.host, { provider: 'custom', baseUrl: `${provider.url}/v1`, model: 'test-model', timeoutSeconds: 30 });
    const page = await focusTab(jawad, `${fixtures.url}${AGENT_PAGE}`);
    const chooseSize: Reply = { kind: 'openai-tool-stream', calls: [{ id: 'size', name: 'select_option', arguments: JSON.stringify({ selector: '#size', option: 'M' }) }] };
    provider.enqueue(chooseSize, turn(), answer);
    assertCompleted(await runAgentTask(jawad.host, { task: 'Warm up: choose size M and add the jacket to the cart', approve: () => 'allow-site' }));

    provider.reset();
    for (let i = 0; i < steps; i++) provider.enqueue(turn());
    provider.enqueue(answer);
    const outcome = await runAgentTask(jawad.host, { task: 'Add the jacket to the cart again and again', approve: () => 'allow-once' });
    assertCompleted(outcome);
    const at = provider.requests.filter((request) => request.path.endsWith('/chat/completions')).map((request) => request.at);
    const gaps = at.slice(1).map((time, index) => time - at[index]!);
    const byTurn: number[] = [];
    for (let i = 0; i + 1 < outcome.steps.length; i += 2) byTurn.push((outcome.steps[i]!.duration ?? 0) + (outcome.steps[i + 1]!.duration ?? 0));
    const added = Number(await page.$eval('[data-testid="cart-count"]', (el) => el.textContent));
    if (added < steps) throw new Error(`Only ${added} of ${steps} clicks reached the page`);
    return { perStep: summarize(gaps), toolsPerStep: summarize(byTurn), steps: gaps.length, prompts: outcome.prompts.length };
  } finally {
    await provider.close();
    await fixtures.close();
  }
}
