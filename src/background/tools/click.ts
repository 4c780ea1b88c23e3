import * as z from 'zod/mini';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

export const click = defineTool({
  name: 'click',
  description:
    'Click an element (by ref from the snapshot, or CSS selector). Scrolls it into view first; refuses if another element covers it. A confirmation box the page shows on the click is answered Cancel unless acceptDialog is true (the user is asked first).',
  params: z.object({ ...targetParams, acceptDialog: z.optional(z.boolean()) }).check(needsOneTarget),
  level: 'interact',
  effects: { target: 'click', activates: true, acceptsDialog: 'acceptDialog' },
  run: ({ acceptDialog, ...target }, context) => runPageAction(context, 'click', targetOf(target), undefined, acceptDialog ? { acceptDialog } : {}),
});
