import * as z from 'zod/mini';
import { runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const scroll = defineTool({
  name: 'scroll',
  description: 'Scroll the page or a scrollable element up, down, left, right, to the top or bottom; or, with a ref and no direction, bring that element into view. Reports the new position and whether the end was reached.',
  params: z.object({
    ...targetParams,
    direction: z.optional(z.enum(['up', 'down', 'left', 'right', 'top', 'bottom'])),
    amount: z.optional(z.int().check(z.minimum(1), z.maximum(100_000))),
  }),
  level: 'read-only',
  effects: { target: 'scroll' },
  run: ({ direction, amount, ...target }, context) =>
    runPageAction(context, 'scroll', targetOf(target), undefined, { ...(direction ? { direction } : {}), ...(amount ? { amount } : {}) }),
});
