import * as z from 'zod/mini';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const doubleClick = defineTool({
  name: 'double_click',
  description: 'Double-click an element (by ref from the snapshot, or CSS selector); refuses if another element covers it.',
  params: z.object(targetParams).check(needsOneTarget),
  level: 'interact',
  effects: { target: 'dblclick', activates: true },
  run: (params, context) => runPageAction(context, 'dblclick', targetOf(params)),
});
