import * as z from 'zod/mini';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const typeText = defineTool({
  name: 'type_text',
  description: 'Type text after what a field already holds, one keystroke at a time (for search boxes that react to typing); reports the field’s value.',
  params: z.object({ ...targetParams, text: z.string().check(z.minLength(1), z.maxLength(100_000)) }).check(needsOneTarget),
  level: 'interact',
  effects: { target: 'type', text: 'text', typesKeys: true },
  run: (params, context) => runPageAction(context, 'type', targetOf(params), params.text),
});
