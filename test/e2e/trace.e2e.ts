/**
 * The trace of an agent's click, in real browsers: from the answer, the request-id chain leads back
 * to the user's message, through the model call and the click with Harbor's decision; it exports as JSON.
 */
import { describe, expect, it } from 'vitest';
import { textReply, toolCallReply } from '../support/scripted-model';
import { decide, startAgentTask, waitForPrompt } from './support/agent-flows';
import { captureDownloads, downloaded } from './support/downloads';
import { browsersUnderTest } from './support/extension-browser';
import { recordModelCall } from './support/usage';
import { useReadyJawad, waitForAnswer } from './support/flows';

interface ShownEntry {
  kind: string;
  requestId: string;
  text: string;
}

for (const browserName of browsersUnderTest()) {
  describe(`trace in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('leads from a click back to the user message that caused it, and exports as JSON', async () => {
      const { jawad, fixtures, provider } = suite;
      const { sidebar } = jawad;
      await jawad.openTab(`${fixtures.url}/agent-store.html`);
      provider.enqueue(toolCallReply({ tool: 'click', args: { selector: '#add' } }), textReply('Added one jacket to the cart.'));
      await startAgentTask(sidebar, 'Add a jacket to my cart');
      await waitForPrompt(sidebar);
      await decide(sidebar, 'allow-once');
      await waitForAnswer(sidebar, 20_000);

      // The router records each model call (issue 11); the record is written here as it would be.
      await recordModelCall(sidebar, { content: 'Added one jacket to the cart.' }, { link: 'llm-0000beef', kind: 'agent', provider: 'openai', model: 'gpt-4o-mini', inputTokens: 900, cachedInputTokens: 0, outputTokens: 40 });

      await sidebar.click('article.message.assistant:last-of-type button[aria-label="Trace this answer"]');
      const entries = await sidebar.waitFor(
        (win) => {
          const items = Array.from(win.document.querySelectorAll<HTMLElement>('.trace .trace-entry'));
          return items.length >= 4
            ? items.map((li) => ({ kind: li.dataset.kind ?? '', requestId: li.dataset.requestId ?? '', text: li.innerText }))
            : undefined;
        },
        null,
        'the trace',
      ) as ShownEntry[];
      const root = entries[0]!.requestId.split(':')[0]!;
      expect(entries[0]).toMatchObject({ kind: 'user-message' });
      expect(entries[0]!.text).toContain('Add a jacket to my cart');
      const click = entries.find((e) => e.kind === 'tool-call')!;
      expect(click.requestId.startsWith(`${root}:chat-`)).toBe(true);
      expect(click.requestId).toMatch(/:step-[0-9a-f]{8}$/);
      expect(click.text).toContain('Agent step (Harbor, then the tool)');
      expect(click.text).toMatch(/Harbor: ask → allow-once · done/);
      expect(click.text).toContain('Add to cart');
      const call = entries.find((e) => e.kind === 'model-call' && e.requestId.endsWith(':llm-0000beef'))!;
      expect(call.text).toContain('openai/gpt-4o-mini · 900 in · 40 out');
      expect(entries.every((e) => e.requestId === root || e.requestId.startsWith(`${root}:`))).toBe(true);

      await captureDownloads(sidebar);
      await sidebar.click('.trace header button', 'Export JSON');
      const exported = JSON.parse(await downloaded(sidebar, /^jawad-trace-user-[0-9a-f]+\.json$/)) as { root: string; entries: ShownEntry[] };
      expect(exported.root).toBe(root);
      expect(exported.entries.map((e) => e.kind)).toEqual(entries.map((e) => e.kind));

      // The same chain from the step's own Trace button, pointing at that step.
      await sidebar.click('.trace header button[aria-label="Close the trace"]');
      await sidebar.waitFor((win) => !win.document.querySelector('.trace'), null, 'the trace closed');
      await sidebar.click('[data-testid="action-step"][data-tool="click"] button[aria-label="Trace this step"]');
      const fromStep = await sidebar.waitFor(
        (win) => {
          const opened = win.document.querySelector<HTMLElement>('.trace .trace-entry[aria-current="true"]');
          const first = win.document.querySelector<HTMLElement>('.trace .trace-entry');
          return opened && first ? { opened: { kind: opened.dataset.kind, requestId: opened.dataset.requestId }, first: first.innerText } : undefined;
        },
        null,
        'the trace of the step',
      ) as { opened: { kind: string; requestId: string }; first: string };
      expect(fromStep.opened).toEqual({ kind: 'tool-call', requestId: click.requestId });
      expect(fromStep.first).toContain('Add a jacket to my cart');
    });
  });
}
