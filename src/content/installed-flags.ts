/**
 * The global each on-demand page script sets in its isolated world once installed. The background
 * probes for it before injecting, so a script is parsed once per page, not once per request.
 */
export const READER_INSTALLED = '__jawadReaderInstalled';
export const PAGE_AGENT_INSTALLED = '__jawadPageAgent';
