/**
 * The multi-step task a new user watches: "add the cheapest red jacket in size M to the cart and
 * stop before paying", in the real sidebar, with the prompt answered there.
 */
import { describe, expect, it } from 'vitest';
import { SHOP_ANSWER, SHOP_START, SHOP_TASK, shopTaskModel } from '../support/shop-task';
import { browsersUnderTest } from './support/extension-browser';
import { decide, startAgentTask, stepSummary, waitForPrompt } from './support/agent-flows';
import { useReadyJawad, waitForAnswer } from './support/flows';

for (const browserName of browsersUnderTest()) {
  describe(`agent on the fixture shop in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('filters, sorts, opens the right jacket, picks size M, adds it to the cart and stops before paying', async () => {
      const { jawad, fixtures, provider } = suite;
      const shop = await jawad.openTab(`${fixtures.url}${SHOP_START}`);
      provider.setResponder(shopTaskModel());
      const { sidebar } = jawad;
      await startAgentTask(sidebar, SHOP_TASK);

      // Ticking the colour filter is the first change to the page: Jawad asks, the user allows the shop.
      const prompt = await waitForPrompt(sidebar);
      expect(prompt.level).toBe('interact');
      expect(prompt.text).toMatch(/checkbox[\s\S]*Red/);
      await decide(sidebar, 'allow-site');

      const answer = await waitForAnswer(sidebar, 45_000);
      expect(answer.error).toBe('');
      expect(answer.status).toBe('complete');
      expect(answer.text).toContain('Ember Rain Shell');
      expect(answer.text).toBe(SHOP_ANSWER.replace(/\*\*/g, ''));
      expect(await stepSummary(sidebar)).toEqual([
        'snapshot:done:auto-approve',
        'check:done:allow-site',
        'select_option:done:auto-approve',
        'snapshot:done:auto-approve',
        'click:done:auto-approve',
        'snapshot:done:auto-approve',
        'click:done:auto-approve',
        'click:done:auto-approve',
      ]);
      // The shop's own state: one line, the right jacket and size, and no order placed.
      const cart = await shop.evaluate(() => JSON.parse(localStorage.getItem('agentShop.cart') ?? '[]') as unknown);
      expect(cart).toEqual([{ sku: 'ember-rain', size: 'M', qty: 1 }]);
      expect(await shop.evaluate(() => localStorage.getItem('agentShop.orders'))).toBeNull();
      expect(shop.url()).toContain('product.html?sku=ember-rain');
    });
  });
}
