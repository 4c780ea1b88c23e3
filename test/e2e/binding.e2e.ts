/**
 * An approval is bound to what was judged: the tab, the document and the target. Whatever happens
 * while the user is deciding — the page swaps the element, the page navigates, the user switches
 * tabs — "Allow once" runs exactly what the prompt showed, or nothing.
 */
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { runAgentTask } from '../../cli/agent-task';
import type { AgentStep, Decision } from '../../src/protocol';
import { textReply, toolCallReply } from '../support/scripted-model';
import { browsersUnderTest } from './support/extension-browser';
import { useReadyJawad } from './support/flows';

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? '');

for (const browserName of browsersUnderTest()) {
  describe(`approvals bound to tab, document and target in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    /** Runs "click #save" and lets `meanwhile` happen while the prompt is open, then allows once. */
    async function clickSaveWhile(meanwhile: (page: Page) => Promise<void>) {
      const page = await suite.jawad.openTab(`${suite.fixtures.url}/binding.html`);
      suite.provider.enqueue(toolCallReply({ tool: 'click', args: { selector: '#save' } }), textReply('Done.'));
      const approve = async (step: AgentStep): Promise<Decision> => {
        expect(step.target).toMatchObject({ role: 'button', name: 'Save draft' });
        await meanwhile(page);
        return 'allow-once';
      };
      const outcome = await runAgentTask(suite.jawad.host, { task: 'Save my draft', approve, timeoutMs: 30_000 });
      const click = outcome.steps.find((step) => step.tool === 'click')!;
      const toldTheModel = JSON.stringify(suite.provider.requests.at(-1)?.json ?? {});
      return { page, click, toldTheModel };
    }

    it('does not click an element the page swapped in while the user decided', async () => {
      const { page, click, toldTheModel } = await clickSaveWhile((tab) => tab.evaluate(() => (window as unknown as { swapButton(): void }).swapButton()));
      expect(await text(page, '#deleted')).toBe('Nothing deleted.');
      expect(click).toMatchObject({ status: 'failed', decision: 'allow-once', result: { error: { code: 'TARGET_CHANGED' } } });
      expect(toldTheModel).toContain('TARGET_CHANGED');
      await page.close();
    });

    it('does not act in a document that replaced the judged one while the user decided', async () => {
      const { page, click } = await clickSaveWhile(async (tab) => {
        await tab.reload({ waitUntil: 'load' });
      });
      expect(await text(page, '#count')).toBe('0');
      expect(click).toMatchObject({ status: 'failed', result: { error: { code: 'STALE_REF' } } });
      expect(click.result?.summary).toMatch(/page has changed/);
      await page.close();
    });

    it('acts in the tab it judged when the user switched tabs while deciding', async () => {
      let other: Page | undefined;
      const { page, click } = await clickSaveWhile(async () => {
        other = await suite.jawad.openTab(`${suite.fixtures.url}/binding.html?other=1`);
        await other.bringToFront();
      });
      expect(click).toMatchObject({ status: 'done' });
      expect(await text(page, '#count')).toBe('1');
      expect(await text(other!, '#count')).toBe('0');
      await other!.close();
      await page.close();
    });
  });
}
