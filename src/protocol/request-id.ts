/**
 * Request-id chains (seed 000): `<user request>:<task>:<sub-task>`. The sidebar mints the first link
 * for each user action; every piece of work done on its behalf appends one, so a log line or an
 * error can be traced back to the message that caused it.
 */
const LINK = /^[a-z][a-z0-9-]{0,40}$/;
export const REQUEST_ID_PATTERN = /^[a-z][a-z0-9-]{0,40}(:[a-z][a-z0-9-]{0,40}){0,15}$/;

function randomSuffix(): string {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A new link such as `user-1a2b3c4d`. */
export function newLink(kind: string): string {
  const link = `${kind}-${randomSuffix()}`;
  if (!LINK.test(link)) throw new Error(`Invalid request-id link kind: ${kind}`);
  return link;
}

export function newRequestId(kind = 'user'): string {
  return newLink(kind);
}

/** The user action a chain started from: `user-1a2b` in `user-1a2b:chat-9f8e:agent-…`. */
export function chainRoot(requestId: string): string {
  return requestId.split(':', 1)[0]!;
}

/** Extends a chain by one task link: `user-1a2b:chat-9f8e`. */
export function childRequestId(parent: string, kind: string): string {
  return `${parent}:${newLink(kind)}`;
}
