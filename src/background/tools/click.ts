import * as z from 'zod/mini';
import { DialogText } from '../../protocol';
import { needsOneTarget, runPageAction, targetOf, targetParams } from './page-action';
import { defineTool } from './tool';

/** A prompt's answer means nothing unless the box is accepted, which the user is asked about first. */
const answersOnlyAccepted = z.refine<{ acceptDialog?: boolean; dialogText?: string }>(
  (params) => params.dialogText === undefined || params.acceptDialog === true,
  'dialogText answers a prompt box only together with acceptDialog: true',
);

export const click = defineTool({
  name: 'click',
  description:
    'Click an element (by ref from the snapshot, or CSS selector). Scrolls it into view first; refuses if another element covers it. A confirmation or prompt box the page shows on the click is answered Cancel unless acceptDialog is true (the user is asked first); dialogText, with acceptDialog, is what a prompt box is answered with.',
  params: z.object({ ...targetParams, acceptDialog: z.optional(z.boolean()), dialogText: z.optional(DialogText) }).check(needsOneTarget, answersOnlyAccepted),
  level: 'interact',
  // The prompt's answer goes to the page, as typed text does: the same checks of what leaves.
  effects: { target: 'click', activates: true, acceptsDialog: 'acceptDialog', text: 'dialogText' },
  run: ({ acceptDialog, dialogText, ...target }, context) =>
    runPageAction(context, 'click', targetOf(target), undefined, acceptDialog ? { acceptDialog, ...(dialogText === undefined ? {} : { dialogText }) } : {}),
});
