/**
 * A page's own alert, confirmation and prompt boxes, which Jawad answers during an action and its
 * aftermath (src/content/dialog-shim.ts, src/content/actions/dialogs.ts): what is told of them.
 */
import * as z from 'zod/mini';
import { CAPS } from './caps';
import { MAX_DIALOGS_LISTED } from './dialog-channel';

export { DIALOG_AFTERMATH_MS, DIALOG_CHANNEL, MAX_DIALOGS_LISTED } from './dialog-channel';

/** What a page's prompt box may be answered with. */
export const DialogText = z.string().check(z.maxLength(10_000));

/**
 * A page's own alert, confirmation or prompt box shown during an action or its aftermath: Jawad
 * answered it at once (alert OK; confirm and prompt Cancel unless the step accepts them) instead of
 * letting it hold the page.
 */
export const PageDialog = z.object({
  kind: z.enum(['alert', 'confirm', 'prompt']),
  message: z.string().check(z.maxLength(CAPS.dialog)),
  answered: z.enum(['ok', 'accept', 'cancel']),
  /** Shown once the action itself was done: in what it set off (the page's answer to a request, "Saved!"; the page it opened, as it loaded). */
  afterAction: z.optional(z.literal(true)),
  /** Shown as a page a tool opened (open_url, new_tab, reload_tab…) loaded: no step can accept such a box. */
  openedByTool: z.optional(z.literal(true)),
});
export type PageDialog = z.infer<typeof PageDialog>;
export const PageDialogs = z.array(PageDialog).check(z.maxLength(MAX_DIALOGS_LISTED));
/**
 * A step's field for the page's own boxes Jawad answered after the tab's previous step had returned
 * (the page's late answer to a request it made), or as a page that step opened loaded: told with
 * this step.
 */
export const LateDialogs = z.optional(PageDialogs);
