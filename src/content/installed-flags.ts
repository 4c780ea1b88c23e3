/**
 * Globals the background reads in a frame's isolated world. Each on-demand page script sets its
 * own once installed; the background probes for it before injecting, so a script is parsed once
 * per page, not once per request.
 */
export const READER_INSTALLED = '__jawadReaderInstalled';
export const PAGE_AGENT_INSTALLED = '__jawadPageAgent';
/**
 * Set while an action of the page agent is held inside the `beforeunload` it set off: the page asks
 * the user whether to leave (Firefox runs the frame's other scripts meanwhile; see src/background/tools/leave-prompt.ts).
 */
export const LEAVE_ASKED = '__jawadLeaveAsked';
