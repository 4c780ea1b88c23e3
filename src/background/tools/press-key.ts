import * as z from 'zod/mini';
import { runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const pressKey = defineTool({
  name: 'press_key',
  description: 'Press a key or shortcut ("Enter", "Escape", "ArrowDown", "Control+a") on an element, or on whatever has focus. Enter in a form field submits the form.',
  params: z.object({ ...targetParams, keys: z.string().check(z.minLength(1), z.maxLength(50)) }),
  level: 'interact',
  effects: { target: 'press', keys: 'keys' },
  run: (params, context) => runPageAction(context, 'press', targetOf(params), params.keys),
});
