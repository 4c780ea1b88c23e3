import * as z from 'zod/mini';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const hover = defineTool({
  name: 'hover',
  description: 'Move the pointer over an element, e.g. to open a menu or show a row’s actions that appear on hover (CSS :hover included); take a snapshot to see what appeared. The pointer stays there until the next hover or click.',
  params: z.object(targetParams).check(needsOneTarget),
  level: 'read-only',
  effects: { target: 'hover' },
  run: (params, context) => runPageAction(context, 'hover', targetOf(params)),
});
