import { badStreamError, LlmError, streamCutError } from './errors';
import { endpoint, providerHeaders } from './headers';
import { postWithRetry, type ProviderCall } from './http';
import { sseEvents } from './sse';
import { ToolCallAccumulator } from './tool-calls';
import type { LlmMessage, StreamEvent, ToolDefinition } from './types';

interface OpenAiChunk {
  error?: { message?: string } | string;
  choices?: Array<{
    delta?: { content?: string | null; tool_calls?: Parameters<ToolCallAccumulator['add']>[0][] };
    finish_reason?: string | null;
  }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

export function toOpenAiMessages(messages: LlmMessage[]): unknown[] {
  return messages.map((message) => {
    if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    if (message.role === 'assistant' && message.toolCalls?.length) {
      return {
        role: 'assistant',
        content: message.content || null,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
    return { role: message.role, content: message.content };
  });
}

export function openAiBody(call: ProviderCall, messages: LlmMessage[], tools?: ToolDefinition[]): Record<string, unknown> {
  const { config } = call;
  return {
    model: config.model,
    messages: toOpenAiMessages(messages),
    stream: true,
    stream_options: { include_usage: true },
    ...(tools?.length ? { tools } : {}),
    ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
    ...(config.maxTokens === undefined ? {} : { max_tokens: config.maxTokens }),
  };
}

/** Streams one chat completion from any OpenAI-compatible server. */
export async function* streamOpenAi(call: ProviderCall, messages: LlmMessage[], tools?: ToolDefinition[]): AsyncGenerator<StreamEvent> {
  const response = await postWithRetry(call, endpoint(call.config, '/chat/completions'), {
    method: 'POST',
    headers: providerHeaders(call.config),
    body: JSON.stringify(openAiBody(call, messages, tools)),
  });
  const toolCalls = new ToolCallAccumulator();
  let finishReason: string | undefined;
  let sawDone = false;
  for await (const event of sseEvents(call, response)) {
    if (event.data.trim() === '[DONE]') {
      sawDone = true;
      break;
    }
    const chunk = parseChunk(call, event.data);
    if (chunk.error) throw midStreamError(call, chunk.error);
    const choice = chunk.choices?.[0];
    const text = choice?.delta?.content;
    if (text) yield { type: 'text', text };
    for (const delta of choice?.delta?.tool_calls ?? []) toolCalls.add(delta);
    if (choice?.finish_reason) finishReason = choice.finish_reason;
    if (chunk.usage) {
      yield { type: 'usage', inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
    }
  }
  if (!sawDone && !finishReason) throw streamCutError(call.config);
  for (const toolCall of toolCalls.finish()) yield { type: 'tool_call', call: toolCall };
  yield { type: 'done', finishReason: finishReason ?? 'stop', toolMode: tools?.length ? 'native' : 'none' };
}

function parseChunk(call: ProviderCall, data: string): OpenAiChunk {
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
    return parsed as OpenAiChunk;
  } catch {
    throw badStreamError(call.config, `invalid JSON in a stream chunk: ${data.slice(0, 40)}`);
  }
}

function midStreamError(call: ProviderCall, error: NonNullable<OpenAiChunk['error']>): LlmError {
  const text = typeof error === 'string' ? error : (error.message ?? 'unknown error');
  return new LlmError('server', `The model stopped with an error: ${text}`, undefined);
}
