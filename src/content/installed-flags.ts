/**
 * Globals the background reads in a frame's isolated world. Each on-demand page script sets its
 * own once installed; the background probes for it before injecting, so a script is parsed once
 * per page, not once per request.
 */
export const READER_INSTALLED = '__jawadReaderInstalled';
export const PAGE_AGENT_INSTALLED = '__jawadPageAgent';
/**
 * Set once the page was asked to unload while an action of the page agent, or a navigation a tool
 * asked for, watched it: if the page then asks the user whether to leave, Firefox runs the frame's
 * other scripts meanwhile, and the mark is how the background sees it (src/background/tools/leave-prompt.ts).
 */
export const LEAVE_ASKED = '__jawadLeaveAsked';
/** The `beforeunload` listener that sets LEAVE_ASKED while a tool's navigation is under way. */
export const LEAVE_WATCH = '__jawadLeaveWatch';
