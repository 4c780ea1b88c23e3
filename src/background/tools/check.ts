import * as z from 'zod/mini';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const check = defineTool({
  name: 'check',
  description: 'Tick a checkbox, radio button or switch (does nothing if it already is), and confirm it is ticked.',
  params: z.object(targetParams).check(needsOneTarget),
  level: 'interact',
  effects: { target: 'check', toggles: true },
  run: (params, context) => runPageAction(context, 'check', targetOf(params)),
});

export const uncheck = defineTool({
  name: 'uncheck',
  description: 'Untick a checkbox or switch (does nothing if it already is), and confirm it is unticked.',
  params: z.object(targetParams).check(needsOneTarget),
  level: 'interact',
  effects: { target: 'uncheck', toggles: true },
  run: (params, context) => runPageAction(context, 'uncheck', targetOf(params)),
});
