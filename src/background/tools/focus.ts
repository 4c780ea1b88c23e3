import * as z from 'zod/mini';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const focus = defineTool({
  name: 'focus',
  description: 'Give an element keyboard focus.',
  params: z.object(targetParams).check(needsOneTarget),
  level: 'read-only',
  effects: { target: 'focus' },
  run: (params, context) => runPageAction(context, 'focus', targetOf(params)),
});
