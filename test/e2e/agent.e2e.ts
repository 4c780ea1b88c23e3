/**
 * The agent in the real sidebar: the model (the provider test server, scripted) proposes tool
 * calls, Harbor asks, the user answers in the sidebar's prompt, and the page changes only as far
 * as the user allowed.
 */
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import type { Reply } from '../support/provider-server';
import { browsersUnderTest, type JawadBrowser, type Sidebar } from './support/extension-browser';
import { backToChat, markAnswersSeen, useReadyJawad, waitForAnswer } from './support/flows';

let callId = 0;
const call = (name: string, args: Record<string, unknown>): Reply => ({
  kind: 'openai-tool-stream',
  calls: [{ id: `call_${++callId}`, name, arguments: JSON.stringify(args) }],
  fragment: 9,
});
const say = (text: string): Reply => ({ kind: 'openai-stream', chunks: [text] });

interface PromptView {
  stepId: string;
  level: string;
  critical: string;
  text: string;
  allowSiteDisabled: boolean;
}

/** Waits for the permission prompt (a new one, when `after` names the previous step). */
async function waitForPrompt(sidebar: Sidebar, after = ''): Promise<PromptView> {
  const prompt = await sidebar.waitFor(
    (win, previous) => {
      const prompt = win.document.querySelector<HTMLElement>('[data-testid="permission-prompt"]');
      if (!prompt || prompt.dataset.stepId === previous) return undefined;
      return {
        stepId: prompt.dataset.stepId ?? '',
        level: prompt.dataset.level ?? '',
        critical: prompt.dataset.critical ?? '',
        text: prompt.innerText,
        allowSiteDisabled: prompt.querySelector('[data-testid="decision-allow-site"]')?.getAttribute('aria-disabled') === 'true',
      };
    },
    after,
    'a permission prompt',
    20_000,
  );
  return prompt!;
}

async function decide(sidebar: Sidebar, decision: string): Promise<void> {
  await sidebar.click(`[data-testid="permission-prompt"] [data-testid="decision-${decision}"]`);
}

function actionLog(sidebar: Sidebar): Promise<Array<{ tool: string; status: string; decision: string }>> {
  return sidebar.eval(
    (win) =>
      Array.from(win.document.querySelectorAll<HTMLElement>('article.message.assistant:not([data-test-seen]) [data-testid="action-step"]')).map((item) => ({
        tool: item.dataset.tool ?? '',
        status: item.dataset.status ?? '',
        decision: item.dataset.decision ?? '',
      })),
    null,
  );
}

async function startTask(jawad: JawadBrowser, task: string): Promise<void> {
  const { sidebar } = jawad;
  await backToChat(sidebar);
  // A fresh conversation per task, so each task's log stands alone.
  await sidebar.click('.top-bar button', 'New chat');
  await sidebar.waitFor((win) => win.document.querySelector('[data-testid="agent-toggle"]'), null, 'the agent switch');
  const on = await sidebar.eval((win) => (win.document.querySelector('[data-testid="agent-toggle"]') as HTMLInputElement).checked, null);
  if (!on) await sidebar.click('[data-testid="agent-toggle"]');
  await markAnswersSeen(sidebar);
  await sidebar.fill('#composer-input', task);
  await sidebar.pressEnter('#composer-input');
}

const pageText = (page: Page, testid: string) => page.$eval(`[data-testid="${testid}"]`, (el) => el.textContent ?? '');

for (const browserName of browsersUnderTest()) {
  describe(`agent with Harbor in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('fills a form after one allow-site, and asks again at the submit, showing the target', async () => {
      const { jawad, fixtures, provider } = suite;
      const page = await jawad.openTab(`${fixtures.url}/agent-store.html`);
      provider.enqueue(
        call('fill', { selector: '#name', text: 'Ada Lovelace' }),
        call('fill', { selector: '#email', text: 'ada@example.com' }),
        call('click', { selector: '#signup' }),
        say('You are signed up to the newsletter.'),
      );
      await startTask(jawad, 'Sign me up to the newsletter as Ada Lovelace, ada@example.com');

      const first = await waitForPrompt(jawad.sidebar);
      expect(first.level).toBe('interact');
      expect(first.text).toContain('Ada Lovelace');
      await decide(jawad.sidebar, 'allow-site');

      const submit = await waitForPrompt(jawad.sidebar, first.stepId);
      expect(submit.level).toBe('submit');
      expect(submit.text).toContain('Sign up');
      expect(submit.allowSiteDisabled).toBe(true);
      expect(await pageText(page, 'signup-state')).toBe('Not signed up.');
      await decide(jawad.sidebar, 'allow-once');

      const answer = await waitForAnswer(jawad.sidebar, 20_000);
      expect(answer.text).toContain('You are signed up to the newsletter.');
      expect(await pageText(page, 'signup-state')).toBe('Signed up: Ada Lovelace <ada@example.com>');
      expect(await actionLog(jawad.sidebar)).toEqual([
        { tool: 'fill', status: 'done', decision: 'allow-site' },
        { tool: 'fill', status: 'done', decision: 'auto-approve' },
        { tool: 'click', status: 'done', decision: 'allow-once' },
      ]);
    });

    it('no longer asks for clicks on a granted site, but still asks before “Place order”, and a deny holds', async () => {
      const { jawad, fixtures, provider } = suite;
      const page = await jawad.openTab(`${fixtures.url}/agent-store.html`);
      provider.enqueue(
        call('click', { selector: '#add' }),
        call('click', { selector: '#add' }),
        call('click', { selector: '#place-order' }),
        say('I added two jackets; you declined placing the order.'),
      );
      await startTask(jawad, 'Add two jackets to the cart and place the order');

      const order = await waitForPrompt(jawad.sidebar);
      expect(order).toMatchObject({ critical: 'true', allowSiteDisabled: true });
      expect(order.text).toContain('Place order');
      expect(await pageText(page, 'cart-count')).toBe('2');
      await decide(jawad.sidebar, 'deny');

      const answer = await waitForAnswer(jawad.sidebar, 20_000);
      expect(answer.text).toContain('you declined placing the order');
      expect(await pageText(page, 'order-state')).toBe('No order yet.');
      expect(await actionLog(jawad.sidebar)).toEqual([
        { tool: 'click', status: 'done', decision: 'auto-approve' },
        { tool: 'click', status: 'done', decision: 'auto-approve' },
        { tool: 'click', status: 'denied', decision: 'deny' },
      ]);
      // The model was told, and answered after the denial.
      const lastRequest = provider.requests.at(-1)!.json as { messages: Array<{ role: string; content: string }> };
      expect(lastRequest.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/^PERMISSION_DENIED/) });
    });

    it('deny-all ends the task at once and says what was done', async () => {
      const { jawad, fixtures, provider } = suite;
      await jawad.openTab(`${fixtures.url}/agent-store.html`);
      provider.enqueue(call('open_url', { url: 'http://localhost:9/collect?email=ada@example.com' }), say('never sent'));
      await startTask(jawad, 'Tell me about this jacket. My email is ada@example.com');
      const prompt = await waitForPrompt(jawad.sidebar);
      expect(prompt.text).toContain('http://localhost:9/collect?email=ada@example.com');
      expect(prompt.text).toMatch(/not one of this task’s sites/);
      const requestsBefore = provider.requests.length;
      await decide(jawad.sidebar, 'deny-all');
      const answer = await waitForAnswer(jawad.sidebar, 20_000);
      expect(answer.status).toBe('stopped');
      expect(answer.text).toMatch(/You denied step 1 and stopped the task/);
      expect(answer.text).not.toContain('never sent');
      expect(provider.requests.length).toBe(requestsBefore);
    });

    it('stops mid-task from the sidebar while a prompt is waiting', async () => {
      const { jawad, fixtures, provider } = suite;
      const page = await jawad.openTab(`${fixtures.url}/agent-store.html`);
      provider.enqueue(call('snapshot', {}), call('click', { selector: '#place-order' }), say('never sent'));
      await startTask(jawad, 'Buy this jacket');
      await waitForPrompt(jawad.sidebar);
      await jawad.sidebar.click('button.stop');
      const answer = await waitForAnswer(jawad.sidebar, 20_000);
      expect(answer.status).toBe('stopped');
      expect(await pageText(page, 'order-state')).toBe('No order yet.');
      expect(await actionLog(jawad.sidebar)).toEqual([
        { tool: 'snapshot', status: 'done', decision: 'auto-approve' },
        { tool: 'click', status: 'stopped', decision: 'deny-all' },
      ]);
      expect(await jawad.sidebar.eval((win) => win.document.querySelector('[data-testid="permission-prompt"]') === null, null)).toBe(true);
    });
  });
}
