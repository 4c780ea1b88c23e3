/**
 * The agent in the real sidebar: the model (the provider test server, scripted) proposes tool
 * calls, Harbor asks, the user answers in the sidebar's prompt, and the page changes only as far
 * as the user allowed.
 */
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { runAgentTask, saveProviderSettings } from '../../cli/agent-task';
import { textReply, toolCallReply } from '../support/scripted-model';
import { decide, siteGrantOffered, startAgentTask, stepSummary, waitForPrompt } from './support/agent-flows';
import { browsersUnderTest } from './support/extension-browser';
import { useReadyJawad, waitForAnswer } from './support/flows';

const call = (tool: string, args: Record<string, unknown>) => toolCallReply({ tool, args });
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
        textReply('You are signed up to the newsletter.'),
      );
      await startAgentTask(jawad.sidebar, 'Sign me up to the newsletter as Ada Lovelace, ada@example.com');

      const first = await waitForPrompt(jawad.sidebar);
      expect(first.level).toBe('interact');
      expect(first.text).toContain('Ada Lovelace');
      await decide(jawad.sidebar, 'allow-site');

      const submit = await waitForPrompt(jawad.sidebar, first.stepId);
      expect(submit.level).toBe('submit');
      expect(submit.text).toContain('Sign up');
      expect(siteGrantOffered(submit)).toBe(false);
      expect(await pageText(page, 'signup-state')).toBe('Not signed up.');
      await decide(jawad.sidebar, 'allow-once');

      const answer = await waitForAnswer(jawad.sidebar, 20_000);
      expect(answer.text).toContain('You are signed up to the newsletter.');
      expect(await pageText(page, 'signup-state')).toBe('Signed up: Ada Lovelace <ada@example.com>');
      expect(await stepSummary(jawad.sidebar)).toEqual(['fill:done:allow-site', 'fill:done:auto-approve', 'click:done:allow-once']);
    });

    it('no longer asks for clicks on a granted site, but still asks before “Place order”, and a deny holds', async () => {
      const { jawad, fixtures, provider } = suite;
      const page = await jawad.openTab(`${fixtures.url}/agent-store.html`);
      provider.enqueue(
        call('click', { selector: '#add' }),
        call('click', { selector: '#add' }),
        call('click', { selector: '#place-order' }),
        textReply('I added two jackets; you declined placing the order.'),
      );
      await startAgentTask(jawad.sidebar, 'Add two jackets to the cart and place the order');

      const order = await waitForPrompt(jawad.sidebar);
      expect(order.critical).toBe('true');
      expect(siteGrantOffered(order)).toBe(false);
      expect(order.text).toContain('Place order');
      expect(await pageText(page, 'cart-count')).toBe('2');
      await decide(jawad.sidebar, 'deny');

      const answer = await waitForAnswer(jawad.sidebar, 20_000);
      expect(answer.text).toContain('you declined placing the order');
      expect(await pageText(page, 'order-state')).toBe('No order yet.');
      expect(await stepSummary(jawad.sidebar)).toEqual(['click:done:auto-approve', 'click:done:auto-approve', 'click:denied:deny']);
      // The model was told, and answered after the denial.
      const lastRequest = provider.requests.at(-1)!.json as { messages: Array<{ role: string; content: string }> };
      expect(lastRequest.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/^PERMISSION_DENIED/) });
    });

    it('deny-all ends the task at once and says what was done', async () => {
      const { jawad, fixtures, provider } = suite;
      await jawad.openTab(`${fixtures.url}/agent-store.html`);
      provider.enqueue(call('open_url', { url: 'http://localhost:9/collect?email=ada@example.com' }), textReply('never sent'));
      await startAgentTask(jawad.sidebar, 'Tell me about this jacket. My email is ada@example.com');
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
      provider.enqueue(call('snapshot', {}), call('click', { selector: '#place-order' }), textReply('never sent'));
      await startAgentTask(jawad.sidebar, 'Buy this jacket');
      await waitForPrompt(jawad.sidebar);
      await jawad.sidebar.click('button.stop');
      const answer = await waitForAnswer(jawad.sidebar, 20_000);
      expect(answer.status).toBe('stopped');
      expect(await pageText(page, 'order-state')).toBe('No order yet.');
      expect(await stepSummary(jawad.sidebar)).toEqual(['snapshot:done:auto-approve', 'click:stopped:deny-all']);
      expect(await jawad.sidebar.eval((win) => win.document.querySelector('[data-testid="permission-prompt"]') === null, null)).toBe(true);
    });

    it('works with a model whose server rejects tools, through the XML format, and remembers it', async () => {
      const { jawad, fixtures, provider } = suite;
      const page = await jawad.openTab(`${fixtures.url}/agent-store.html`);
      const xmlCall = (args: Record<string, unknown>) => `<tool_call>{"name": "click", "arguments": ${JSON.stringify(args)}}</tool_call>`;
      provider.enqueue(
        { kind: 'error', status: 400, body: { error: { message: 'This model does not support tools', type: 'invalid_request_error' } } },
        { kind: 'openai-stream', chunks: ['I will add it. ', xmlCall({ selector: '#add' }).slice(0, 20), xmlCall({ selector: '#add' }).slice(20)] },
        textReply('Added one jacket.'),
      );
      await startAgentTask(jawad.sidebar, 'Add one jacket to the cart');
      const answer = await waitForAnswer(jawad.sidebar, 20_000);
      expect(answer.text).toContain('Added one jacket.');
      expect(answer.text).not.toContain('<tool_call>');
      expect(await stepSummary(jawad.sidebar)).toEqual(['click:done:auto-approve']);
      const chats = provider.requests.filter((request) => request.path.endsWith('/chat/completions')).map((request) => request.json as { tools?: unknown });
      expect(chats.map((body) => Array.isArray(body.tools))).toEqual([true, false, false]);

      // The next task skips the rejected attempt: the model's format was remembered.
      provider.reset();
      provider.enqueue({ kind: 'openai-stream', chunks: [xmlCall({ selector: '#add' })] }, textReply('Added another.'));
      await startAgentTask(jawad.sidebar, 'Add one more');
      expect((await waitForAnswer(jawad.sidebar, 20_000)).text).toContain('Added another.');
      expect(provider.requests.filter((request) => request.path.endsWith('/chat/completions')).map((request) => Array.isArray((request.json as { tools?: unknown }).tools))).toEqual([false, false]);
      expect(await pageText(page, 'cart-count')).toBe('2');
    });

    it('speaks Anthropic’s tool use too: tool_use in, tool_result back, wrapped as untrusted', async () => {
      const { jawad, fixtures, provider } = suite;
      const page = await jawad.openTab(`${fixtures.url}/agent-store.html`);
      await saveProviderSettings(jawad.host, { provider: 'anthropic', baseUrl: `${provider.url}/v1`, model: 'test-model', apiKey: 'sk-ant-test', timeoutSeconds: 3 });
      try {
        provider.enqueue(
          { kind: 'anthropic-stream', chunks: ['Adding it.'], toolUses: [{ id: 'toolu_1', name: 'click', input: { selector: '#add' } }], stopReason: 'tool_use' },
          { kind: 'anthropic-stream', chunks: ['Added one jacket.'] },
        );
        const outcome = await runAgentTask(jawad.host, { task: 'Add one jacket to the cart', approve: () => 'allow-once' });
        expect(outcome.answer.error?.message ?? '').toBe('');
        expect(outcome.answer).toMatchObject({ status: 'complete' });
        expect(outcome.answer.content).toContain('Added one jacket.');
        expect(await pageText(page, 'cart-count')).toBe('1');
        const second = provider.requests.filter((request) => request.path.endsWith('/messages'))[1]!.json as { messages: Array<{ role: string; content: unknown }> };
        const result = (second.messages.at(-1)!.content as Array<{ type: string; tool_use_id?: string; content?: string }>)[0]!;
        expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
        expect(result.content).toMatch(/^<<<UNTRUSTED_PAGE_CONTENT [0-9a-f]{16}>>>/);
      } finally {
        await saveProviderSettings(jawad.host, { provider: 'custom', baseUrl: `${provider.url}/v1`, model: 'test-model', timeoutSeconds: 3 });
      }
    });
  });
}
