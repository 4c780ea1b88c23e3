import { badStreamError, errorInJsonBody, midStreamError, streamCutError } from './errors';
import { endpoint, providerHeaders } from './headers';
import { jsonInsteadOfStream, postWithRetry, type ProviderCall } from './http';
import { reshapeAfter } from './request-shape';
import { sseEvents } from './sse';
import { ToolCallAccumulator } from './tool-calls';
import type { LlmMessage, StreamEvent, ToolDefinition } from './types';
import { UsageMeter, type UsageReport } from './usage-meter';

type ToolCallDelta = Parameters<ToolCallAccumulator['add']>[0];

/** The fields of a streamed delta (or a whole message) Jawad reads. */
/** Mistral's reasoning models send content as typed parts, thinking among them. */
type ContentPart = { type?: string; text?: string; thinking?: string | Array<{ text?: string }> };

interface OpenAiDelta {
  content?: string | ContentPart[] | null;
  /** OpenAI's refusal: the model's own words for declining, shown as its answer. */
  refusal?: string | null;
  /** DeepSeek, vLLM, llama.cpp, LM Studio, xAI. */
  reasoning_content?: string | null;
  /** Ollama, OpenRouter, Groq. */
  reasoning?: string | null;
  tool_calls?: ToolCallDelta[];
}

interface OpenAiUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
  /** DeepSeek's name for cached prompt tokens. */
  prompt_cache_hit_tokens?: number;
}

interface OpenAiChunk {
  error?: unknown;
  choices?: Array<{ delta?: OpenAiDelta; message?: OpenAiDelta; finish_reason?: string | null }>;
  usage?: OpenAiUsage | null;
}

/** How many times one call may reshape its request after a server rejected a field. */
const MAX_RESHAPES = 3;

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
  const { config, shape } = call;
  const body: Record<string, unknown> = {
    model: config.model,
    messages: toOpenAiMessages(messages),
    stream: true,
    stream_options: { include_usage: true },
    ...(tools?.length ? { tools } : {}),
    ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
    ...(config.maxTokens === undefined ? {} : { [shape.maxTokensField]: config.maxTokens }),
  };
  for (const field of shape.drop) delete body[field];
  return body;
}

export function usageReport(usage: OpenAiUsage): UsageReport {
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens,
  };
}

/** POSTs the chat request; a 400/422 naming an optional field is retried without it (call.shape learns). */
async function postChat(call: ProviderCall, messages: LlmMessage[], tools?: ToolDefinition[]): Promise<Response> {
  for (let reshapes = 0; ; reshapes++) {
    const body = openAiBody(call, messages, tools);
    try {
      return await postWithRetry(call, endpoint(call.config, '/chat/completions'), {
        method: 'POST',
        headers: providerHeaders(call.config),
        body: JSON.stringify(body),
      });
    } catch (error) {
      const next = reshapes < MAX_RESHAPES ? reshapeAfter(error, call.shape, body) : undefined;
      if (!next) throw error;
      call.shape = next;
    }
  }
}

/** Streams one chat completion from any OpenAI-compatible server. */
export async function* streamOpenAi(call: ProviderCall, messages: LlmMessage[], tools?: ToolDefinition[]): AsyncGenerator<StreamEvent> {
  const response = await postChat(call, messages, tools);
  const toolMode = tools?.length ? 'native' : 'none';
  const plain = await jsonInsteadOfStream(response);
  if (plain) {
    yield* fromWholeCompletion(call, plain.json, toolMode);
    return;
  }
  const toolCalls = new ToolCallAccumulator();
  const usage = new UsageMeter();
  let finishReason: string | undefined;
  let sawDone = false;
  for await (const event of sseEvents(call, response)) {
    if (event.data.trim() === '[DONE]') {
      sawDone = true;
      break;
    }
    const chunk = parseChunk(call, event.data);
    if (chunk.error) throw midStreamError(call.config, chunk.error);
    const choice = chunk.choices?.[0];
    yield* deltaEvents(choice?.delta);
    for (const delta of choice?.delta?.tool_calls ?? []) toolCalls.add(delta);
    if (choice?.finish_reason) finishReason = choice.finish_reason;
    if (chunk.usage) usage.report(usageReport(chunk.usage));
  }
  // A server may close without [DONE]; a finish_reason says the answer was whole.
  if (!sawDone && !finishReason) throw streamCutError(call.config);
  for (const toolCall of toolCalls.finish()) yield { type: 'tool_call', call: toolCall };
  const total = usage.total();
  if (total) yield { type: 'usage', ...total };
  yield { type: 'done', finishReason: finishReason ?? 'stop', toolMode };
}

function* deltaEvents(delta: OpenAiDelta | undefined): Generator<StreamEvent> {
  // Some servers send both names (vLLM while renaming), one of them empty.
  const reasoning = delta?.reasoning_content || delta?.reasoning;
  if (reasoning) yield { type: 'reasoning', text: reasoning };
  if (typeof delta?.content === 'string' && delta.content) yield { type: 'text', text: delta.content };
  if (Array.isArray(delta?.content)) yield* contentParts(delta.content);
  if (delta?.refusal) yield { type: 'text', text: delta.refusal };
}

function* contentParts(parts: ContentPart[]): Generator<StreamEvent> {
  for (const part of parts) {
    if (part.type === 'text' && part.text) yield { type: 'text', text: part.text };
    if (part.type !== 'thinking') continue;
    const thought = typeof part.thinking === 'string' ? part.thinking : (part.thinking ?? []).map((piece) => piece.text ?? '').join('');
    if (thought) yield { type: 'reasoning', text: thought };
  }
}

/** A server that answered with one JSON body: an error dressed as HTTP 200, or a whole completion. */
function* fromWholeCompletion(call: ProviderCall, json: unknown, toolMode: 'native' | 'none'): Generator<StreamEvent> {
  const error = errorInJsonBody(call.config, json);
  if (error) throw error;
  const completion = (typeof json === 'object' && json !== null ? json : {}) as OpenAiChunk;
  const choice = completion.choices?.[0];
  if (!choice?.message) throw badStreamError(call.config, 'a JSON body that is neither a stream nor a completion');
  yield* deltaEvents(choice.message);
  const toolCalls = new ToolCallAccumulator();
  for (const delta of choice.message.tool_calls ?? []) toolCalls.add(delta);
  for (const toolCall of toolCalls.finish()) yield { type: 'tool_call', call: toolCall };
  const usage = new UsageMeter();
  if (completion.usage) usage.report(usageReport(completion.usage));
  const total = usage.total();
  if (total) yield { type: 'usage', ...total };
  yield { type: 'done', finishReason: choice.finish_reason ?? 'stop', toolMode };
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
