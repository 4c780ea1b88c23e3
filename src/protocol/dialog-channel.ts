/**
 * The names the page-world dialog shim (src/content/dialog-shim.ts) and Jawad's page agent share.
 * Apart from ./dialogs.ts, so the shim registered for pages as they open carries nothing else.
 */

/**
 * The DOM events they talk by; the tab's sessionStorage key for the answers left for a page an
 * action opens; and the Server-Timing metric that marks a page a tool's navigation opened.
 */
export const DIALOG_CHANNEL = 'jawad-dialogs';
/** More boxes than this in one action is a page looping on them: the rest are answered, not listed. */
export const MAX_DIALOGS_LISTED = 20;
/**
 * If the background never says an action is done (no next step came, the tool was stopped), the
 * page's boxes are the browser's own again this long after the action: longer than Jawad waits for
 * what an action set off.
 */
export const DIALOG_AFTERMATH_MS = 10_000;
