import * as z from 'zod/mini';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const click = defineTool({
  name: 'click',
  description: 'Click an element (by ref from the snapshot, or CSS selector). Scrolls it into view first; refuses if another element covers it.',
  params: z.object(targetParams).check(needsOneTarget),
  level: 'interact',
  effects: { target: 'click', activates: true },
  run: (params, context) => runPageAction(context, 'click', targetOf(params)),
});
