import * as z from 'zod/mini';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const selectOption = defineTool({
  name: 'select_option',
  description: 'Choose an option of a drop-down list by its value or visible text; lists the options when none matches.',
  params: z.object({ ...targetParams, option: z.string().check(z.minLength(1), z.maxLength(500)) }).check(needsOneTarget),
  level: 'interact',
  run: (params, context) => runPageAction(context, 'select', targetOf(params), params.option),
});
