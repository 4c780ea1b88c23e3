/**
 * A budget in real browsers: the user sets a budget per task; an agent task that has spent it is
 * paused before its next model call, the sidebar asks, and "Stop" ends the task without that call.
 */
import { describe, expect, it } from 'vitest';
import { textReply, toolCallReply } from '../support/scripted-model';
import { decide, startAgentTask, waitForPrompt } from './support/agent-flows';
import { browsersUnderTest } from './support/extension-browser';
import { openView, useReadyJawad, waitForAnswer } from './support/flows';
import { recordModelCall } from './support/usage';

for (const browserName of browsersUnderTest()) {
  describe(`budgets in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('pauses an agent task that reached its budget and asks; Stop ends it before the next model call', async () => {
      const { jawad, fixtures, provider } = suite;
      const { sidebar } = jawad;
      await openView(sidebar, 'History');
      await sidebar.waitFor((win) => win.document.querySelector('.costs details'), null, 'the cost section');
      await sidebar.click('.costs details summary');
      await sidebar.fill('.budgets input[name=perTask]', '0.01');
      await sidebar.click('.budgets button[type=submit]');
      await sidebar.waitFor((win) => (win.document.querySelector('.budgets input[name=perTask]') as HTMLInputElement | null)?.defaultValue === '0.01', null, 'the saved budget');

      await jawad.openTab(`${fixtures.url}/agent-store.html`);
      provider.enqueue(toolCallReply({ tool: 'click', args: { selector: '#add' } }), textReply('Added one jacket.'));
      await startAgentTask(sidebar, 'Add a jacket to my cart');
      await waitForPrompt(sidebar);

      // The first model call is recorded as the router records it (issue 11): 20k gpt-4o input tokens, $0.05.
      await recordModelCall(sidebar, { streaming: true }, { link: 'llm-0000f00d', kind: 'agent', provider: 'openai', model: 'gpt-4o', inputTokens: 20_000, cachedInputTokens: 0, outputTokens: 0 });
      await decide(sidebar, 'allow-once');

      const prompt = await sidebar.waitFor((win) => win.document.querySelector<HTMLElement>('[data-testid=budget-prompt]')?.innerText, null, 'the budget prompt');
      expect(prompt).toContain('This task has spent $0.0500 of its $0.0100 budget');
      const chatCalls = () => provider.requests.filter((r) => r.path === '/v1/chat/completions').length;
      expect(chatCalls()).toBe(1);

      await sidebar.click('[data-testid=budget-prompt] button', 'Stop');
      const answer = await waitForAnswer(sidebar);
      expect(answer.status).toBe('stopped');
      expect(chatCalls()).toBe(1);
      expect(await sidebar.eval((win) => Boolean(win.document.querySelector('[data-testid=budget-prompt]')), null)).toBe(false);
    });
  });
}
