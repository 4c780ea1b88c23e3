import * as z from 'zod/mini';
import { CAPS, clipText } from './caps';

/** The standard error codes every context uses (spec "Protocol"; seed 002). */
export const ERROR_CODES = [
  'UNKNOWN_MESSAGE_TYPE',
  'VALIDATION_ERROR',
  'TOOL_NOT_FOUND',
  'TIMEOUT',
  'EXECUTION_ERROR',
  'REGISTRY_NOT_READY',
  'PERMISSION_DENIED',
  'STALE_REF',
  'NOT_VISIBLE',
  'COVERED',
  'LLM_ERROR',
  'NOT_CONFIGURED',
  'PAGE_UNREADABLE',
  'CANCELLED',
  'NOT_FOUND',
  /** The element an approved step was bound to is not what it was when the step was judged. */
  'TARGET_CHANGED',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorPayload = z.object({
  code: ErrorCode,
  message: z.string(),
  details: z.optional(z.unknown()),
});
export type ErrorPayload = z.infer<typeof ErrorPayload>;

/** An error that already carries a standard code and a message fit to show a user. */
export class JawadError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'JawadError';
  }

  toPayload(): ErrorPayload {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** Turns anything thrown into a payload; unknown throwables become EXECUTION_ERROR. Sizes are capped (messages can quote the page). */
export function toErrorPayload(error: unknown): ErrorPayload {
  if (error instanceof JawadError) return capped(error.toPayload());
  if (isQuotaError(error)) return { code: 'EXECUTION_ERROR', message: QUOTA_MESSAGE };
  const message = error instanceof Error ? error.message : String(error);
  return capped({ code: 'EXECUTION_ERROR', message: message || 'Something went wrong.' });
}

function capped(payload: ErrorPayload): ErrorPayload {
  const message = clipText(payload.message, CAPS.errorMessage);
  if (payload.details === undefined) return { ...payload, message };
  const json = JSON.stringify(payload.details) ?? '';
  return { ...payload, message, details: json.length > CAPS.errorDetails ? { cut: clipText(json, CAPS.errorDetails) } : payload.details };
}

export const QUOTA_MESSAGE =
  'Jawad’s storage is full, so this was not saved (what was saved before is intact). Free disk space, or export your history and delete old conversations, then try again.';

/** IndexedDB's "disk full" error, raw (DOMException) or wrapped by Dexie (same name, or as its inner error). */
export function isQuotaError(error: unknown): boolean {
  const named = (value: unknown) => typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'QuotaExceededError';
  return named(error) || named((error as { inner?: unknown } | null)?.inner);
}

/** Summarises zod issues as plain JSON (ZodError itself does not survive messaging). */
export interface ValidationIssue {
  path: PropertyKey[];
  message: string;
}

export function validationDetails(error: { issues: ValidationIssue[] }): Array<{ path: string; message: string }> {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message }));
}
