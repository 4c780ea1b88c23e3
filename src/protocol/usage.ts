/**
 * One record per model call (chat reply, agent turn, test connection, transcription …), keyed by
 * the call's own request-id chain so a trace can find it and a total is a plain sum. The router
 * writes them; the cost meter and the trace view read them.
 */
import * as z from 'zod/mini';

const Tokens = z.int().check(z.nonnegative());

export const UsageKind = z.enum(['chat', 'summarize', 'agent', 'planner', 'test-connection', 'transcription']);
export type UsageKind = z.infer<typeof UsageKind>;

export const UsageRecord = z.object({
  /** The model call's chain (`user-…:chat-…:llm-…`): unique per call. */
  requestId: z.string(),
  kind: UsageKind,
  conversationId: z.optional(z.string()),
  messageId: z.optional(z.string()),
  /** Provider preset or kind ("openai", "anthropic", "ollama" …), its base URL and the model. */
  provider: z.string(),
  baseUrl: z.string(),
  model: z.string(),
  /** Prompt tokens including cached ones; cachedInputTokens is the part served from the cache. */
  inputTokens: Tokens,
  outputTokens: Tokens,
  cachedInputTokens: Tokens,
  /** The part of outputTokens spent on reasoning, where the server says. */
  reasoningTokens: Tokens,
  /** The call finished but the server reported no usage (the counts are zeros, not measurements). */
  unreported: z.optional(z.boolean()),
  createdAt: z.number(),
});
export type UsageRecord = z.infer<typeof UsageRecord>;
