import type { ProviderSettings } from '../../protocol';

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the model wrote them (JSON text, possibly invalid). */
  arguments: string;
}

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: ToolCall[];
  /** For role 'tool': which call this is the result of. */
  toolCallId?: string;
}

/** An OpenAI-style function definition; the Anthropic adapter converts it. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface LlmRequest {
  messages: LlmMessage[];
  tools?: ToolDefinition[];
  signal?: AbortSignal;
}

export type ToolMode = 'native' | 'xml' | 'none';

/** What one model call cost, as the server counted it. */
export interface CallUsage {
  /** Prompt tokens, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** The part of inputTokens served from the provider's prompt cache. */
  cachedInputTokens: number;
  /** The part of outputTokens spent thinking. */
  reasoningTokens: number;
}

export type StreamEvent =
  | { type: 'text'; text: string }
  /** The model's thinking: shown apart, stored apart, never sent back and never parsed for tools. */
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  /** Once per call, after the stream: the call's totals, whatever the server's reporting style. */
  | ({ type: 'usage' } & Pick<CallUsage, 'inputTokens' | 'outputTokens'> & Partial<CallUsage>)
  | { type: 'done'; finishReason: string; toolMode: ToolMode };

/** The provider settings an adapter needs: which endpoint, which model, which key. */
export type LlmConfig = ProviderSettings;
