/**
 * A page's own alert, confirmation and prompt boxes, which Jawad answers during an action and its
 * aftermath (src/content/dialog-shim.ts, src/content/actions/dialogs.ts): what is told of them.
 */
import * as z from 'zod/mini';
import { CAPS } from './caps';

/** What a page's prompt box may be answered with. */
export const DialogText = z.string().check(z.maxLength(10_000));

/** The DOM events Jawad's page agent and the page-world dialog shim (src/content/dialog-shim.ts) talk by. */
export const DIALOG_CHANNEL = 'jawad-dialogs';
/** More boxes than this in one action is a page looping on them: the rest are answered, not listed. */
export const MAX_DIALOGS_LISTED = 20;

/**
 * A page's own alert, confirmation or prompt box shown during an action or its aftermath: Jawad
 * answered it at once (alert OK; confirm and prompt Cancel unless the step accepts them) instead of
 * letting it hold the page.
 */
export const PageDialog = z.object({
  kind: z.enum(['alert', 'confirm', 'prompt']),
  message: z.string().check(z.maxLength(CAPS.dialog)),
  answered: z.enum(['ok', 'accept', 'cancel']),
  /** Shown once the action itself was done, while Jawad waited for what it set off (the page's answer to a request, "Saved!"). */
  afterAction: z.optional(z.literal(true)),
});
export type PageDialog = z.infer<typeof PageDialog>;
export const PageDialogs = z.array(PageDialog).check(z.maxLength(MAX_DIALOGS_LISTED));
/**
 * A step's field for the page's own boxes Jawad answered after the tab's previous step had returned
 * (the page's late answer to a request it made), told with this step.
 */
export const LateDialogs = z.optional(PageDialogs);
