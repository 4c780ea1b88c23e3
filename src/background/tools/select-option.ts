import * as z from 'zod/mini';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const selectOption = defineTool({
  name: 'select_option',
  description:
    'Choose an option in a drop-down list: a native select, a list box, or a combobox or button that opens one (it is opened first). ' +
    'Give the option’s value or visible text (exact, any case, or a part that fits only one option); in a multi-select list the option is added. ' +
    'Reports what the list then shows; when no option fits, the error lists them.',
  params: z.object({ ...targetParams, option: z.string().check(z.minLength(1), z.maxLength(500)) }).check(needsOneTarget),
  level: 'interact',
  effects: { target: 'select', text: 'option' },
  run: (params, context) => runPageAction(context, 'select', targetOf(params), params.option),
});
