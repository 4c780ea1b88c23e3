import * as z from 'zod/mini';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const fill = defineTool({
  name: 'fill',
  description: 'Replace the text of a field (input, textarea, editable area) with the given text, and report the value the field then holds.',
  params: z.object({ ...targetParams, text: z.string().check(z.maxLength(100_000)) }).check(needsOneTarget),
  level: 'interact',
  effects: { target: 'fill', text: 'text' },
  run: (params, context) => runPageAction(context, 'fill', targetOf(params), params.text),
});
