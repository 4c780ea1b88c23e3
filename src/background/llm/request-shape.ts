import { LlmError } from './errors';
import type { LlmConfig } from './types';

/**
 * How requests to one model must be shaped, learned from what its server accepted: which field
 * caps the answer's length, and which optional fields it rejects. Remembered per model, like the
 * XML tool mode.
 */
export interface RequestShape {
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Optional top-level fields the server rejected by name. */
  drop: string[];
}

/** Fields Jawad may leave out when a strict server rejects them; never the ones a chat needs. */
const OPTIONAL_FIELDS = ['stream_options', 'temperature', 'max_tokens', 'max_completion_tokens', 'parallel_tool_calls', 'top_p'] as const;

/**
 * OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 …) refuse max_tokens and want
 * max_completion_tokens, which OpenAI accepts for every model; other OpenAI-compatible servers
 * mostly know only max_tokens.
 */
export function defaultShape(config: LlmConfig): RequestShape {
  const openAi = config.provider === 'openai' || config.provider === 'azure' || /^(o\d|gpt-5)/i.test(config.model);
  return { maxTokensField: openAi ? 'max_completion_tokens' : 'max_tokens', drop: [] };
}

export function modelKey(config: LlmConfig): string {
  return `${config.provider} ${config.baseUrl} ${config.model}`;
}

function names(text: string, field: string): boolean {
  return new RegExp(`(^|[^a-z_])${field}([^a-z_]|$)`, 'i').test(text);
}

/**
 * The shape to retry with after a 400/422 that names a field of the request, or undefined when the
 * error is about something else. max_tokens and max_completion_tokens swap for each other; any
 * other optional field is left out from then on.
 */
export function reshapeAfter(error: unknown, shape: RequestShape, sent: Record<string, unknown>): RequestShape | undefined {
  if (!(error instanceof LlmError) || (error.status !== 400 && error.status !== 422)) return undefined;
  const text = error.message;
  for (const field of OPTIONAL_FIELDS) {
    if (!(field in sent) || !names(text, field)) continue;
    if (field === 'max_tokens' || field === 'max_completion_tokens') {
      const other = field === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
      if (shape.maxTokensField === field && !shape.drop.includes(other)) return { ...shape, maxTokensField: other };
    }
    return { ...shape, drop: [...shape.drop, field] };
  }
  return undefined;
}
