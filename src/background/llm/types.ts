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

export type StreamEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  | { type: 'done'; finishReason: string; toolMode: ToolMode };

/** The provider settings an adapter needs: which endpoint, which model, which key. */
export type LlmConfig = ProviderSettings;
