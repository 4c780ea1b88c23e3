import type * as z from 'zod/mini';
import { JawadError, validationDetails } from './errors';
import { BackgroundEvent, ContentReply, ContentRequest, SidebarRequest } from './messages';

/**
 * Validates an incoming message against a discriminated union. Unknown `type`s and bad payloads
 * become JawadErrors with the right standard code, so a handler can reply with ERROR instead of
 * crashing its context.
 */
function parseWith<S extends z.ZodMiniType>(schema: S, raw: unknown): z.infer<S> {
  const type = (raw as { type?: unknown } | null)?.type;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || typeof type !== 'string') {
    throw new JawadError('VALIDATION_ERROR', 'A message must be an object with a string "type".');
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const unknownType = result.error.issues.some((issue) => issue.code === 'invalid_union' && issue.path[0] === 'type');
  if (unknownType) {
    throw new JawadError('UNKNOWN_MESSAGE_TYPE', `Unknown message type: ${JSON.stringify(type.slice(0, 60))}`);
  }
  throw new JawadError('VALIDATION_ERROR', `Invalid ${type} message.`, validationDetails(result.error));
}

export const parseSidebarRequest = (raw: unknown): SidebarRequest => parseWith(SidebarRequest, raw);
export const parseBackgroundEvent = (raw: unknown): BackgroundEvent => parseWith(BackgroundEvent, raw);
export const parseContentRequest = (raw: unknown): ContentRequest => parseWith(ContentRequest, raw);

export function parseContentReply(raw: unknown): ContentReply {
  const result = ContentReply.safeParse(raw);
  if (!result.success) {
    throw new JawadError('VALIDATION_ERROR', 'The page script sent a malformed reply.', validationDetails(result.error));
  }
  return result.data;
}

/** The requestId of a message that failed validation, when it carried a usable one. */
export function requestIdOf(raw: unknown): string | undefined {
  const value = (raw as { requestId?: unknown } | null)?.requestId;
  return typeof value === 'string' && value.length <= 700 ? value : undefined;
}
