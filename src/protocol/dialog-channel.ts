/**
 * The names the page-world dialog shim (src/content/dialog-shim.ts) and Jawad's page agent share.
 * Apart from ./dialogs.ts, so the shim registered for pages as they open carries nothing else.
 */

/** The DOM events they talk by, and the tab's sessionStorage key for the answers left for a page an action opens. */
export const DIALOG_CHANNEL = 'jawad-dialogs';
/** More boxes than this in one action is a page looping on them: the rest are answered, not listed. */
export const MAX_DIALOGS_LISTED = 20;
