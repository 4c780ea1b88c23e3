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

    /** Runs one step and lets `meanwhile` happen while its prompt is open, then allows once. */
    async function stepWhile(call: { tool: string; args: Record<string, unknown> }, judged: { role: string; name: string }, meanwhile: (page: Page) => Promise<void>) {
      const page = await suite.jawad.openTab(`${suite.fixtures.url}/binding.html`);
      suite.provider.enqueue(toolCallReply(call), textReply('Done.'));
      let asked = false;
      const approve = async (step: AgentStep): Promise<Decision> => {
        expect(step.target).toMatchObject(judged);
        asked = true;
        await meanwhile(page);
        return 'allow-once';
      };
      const outcome = await runAgentTask(suite.jawad.host, { task: 'Work on my draft', approve, timeoutMs: 30_000 });
      expect(asked).toBe(true);
      const step = outcome.steps.find((each) => each.tool === call.tool)!;
      const toldTheModel = JSON.stringify(suite.provider.requests.at(-1)?.json ?? {});
      return { page, step, toldTheModel };
    }

    async function clickSaveWhile(meanwhile: (page: Page) => Promise<void>) {
      const { page, step, toldTheModel } = await stepWhile({ tool: 'click', args: { selector: '#save' } }, { role: 'button', name: 'Save draft' }, meanwhile);
      return { page, click: step, toldTheModel };
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

    it('still fills a search box its script turned into a combobox while the user decided', async () => {
      const { page, step } = await stepWhile({ tool: 'fill', args: { selector: '#find', text: 'invoice' } }, { role: 'searchbox', name: 'Find a draft' }, (tab) =>
        tab.evaluate(() => (window as unknown as { upgradeSearch(): void }).upgradeSearch()),
      );
      expect(step).toMatchObject({ status: 'done' });
      expect(await page.$eval('#find', (el) => (el as HTMLInputElement).value)).toBe('invoice');
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
