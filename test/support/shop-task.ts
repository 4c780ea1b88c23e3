/**
 * "Add the cheapest red jacket in size M to the cart and stop before paying", on the agent shop
 * (test/fixtures/agent-shop/), played by a scripted model that reads each snapshot for its refs
 * like a real model would. Shared by the E2E test and `npm run demo`.
 */
import type { Responder } from './provider-server';
import { scriptedAgent } from './scripted-model';

export const SHOP_TASK = 'Add the cheapest red jacket in size M to the cart and stop before paying.';
export const SHOP_START = '/agent-shop/index.html';

export const SHOP_ANSWER =
  'I added the **Ember Rain Shell** (£64.00, red) in size **M** to your cart. It is the cheapest red jacket that comes in M: the Poppy Kids’ Rain Jacket (£39) only has children’s sizes and the Ruby Wind Vest (£45) is a vest. I stopped before checkout — review the cart and pay when you are ready.';

export function shopTaskModel(): Responder {
  return scriptedAgent(
    [
      { tool: 'snapshot' },
      (ctx) => ({ tool: 'check', args: { ref: ctx.findRef('checkbox', 'Red') } }),
      (ctx) => ({ tool: 'select_option', args: { ref: ctx.findRef('combobox', /sort/i), option: 'Price: low to high' } }),
      { tool: 'snapshot' },
      (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('link', 'Ember Rain Shell') } }),
      { tool: 'snapshot' },
      (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('radio', 'M') } }),
      (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', 'Add to cart') } }),
    ],
    { final: SHOP_ANSWER },
  );
}
