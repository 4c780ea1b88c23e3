import * as z from 'zod/mini';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const is = defineTool({
  name: 'is',
  description: 'Check an element’s state: visible, enabled, checked or editable. Answers true or false.',
  params: z.object({ ...targetParams, what: z.enum(['visible', 'enabled', 'checked', 'editable']) }).check(needsOneTarget),
  level: 'read-only',
  effects: { target: 'is' },
  inertParams: ['what'],
  run: ({ what, ...target }, context) => runPageAction(context, 'is', targetOf(target), undefined, { what }),
});
