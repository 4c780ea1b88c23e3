import { badStreamError, errorInJsonBody, midStreamError, streamCutError } from './errors';
import { endpoint, providerHeaders } from './headers';
import { jsonInsteadOfStream, postWithRetry, type ProviderCall } from './http';
import { sseEvents } from './sse';
import type { LlmMessage, StreamEvent, ToolCall, ToolDefinition } from './types';
import { UsageMeter, type UsageReport } from './usage-meter';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string };
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

const DEFAULT_MAX_TOKENS = 4096;

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return {};
  }
}

function blocksOf(message: LlmMessage): Block[] {
  if (message.role === 'tool') return [{ type: 'tool_result', tool_use_id: message.toolCallId ?? '', content: message.content }];
  const blocks: Block[] = message.content ? [{ type: 'text', text: message.content }] : [];
  for (const call of message.toolCalls ?? []) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call.arguments) });
  }
  return blocks;
}

/** Anthropic wants the system prompt apart, tool results as user turns, and roles alternating. */
export function toAnthropicMessages(messages: LlmMessage[]): { system: string; messages: AnthropicMessage[] } {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const out: AnthropicMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return { system, messages: out };
}

function toAnthropicTools(tools: ToolDefinition[]): unknown[] {
  return tools.map((tool) => ({
    name: tool.function.name,
    description: tool.function.description,
    input_schema: tool.function.parameters,
  }));
}

interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number } | null;
}

interface AnthropicEvent {
  type?: string;
  message?: { usage?: AnthropicUsage };
  index?: number;
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

/** Anthropic counts cache reads and writes apart from input_tokens; Jawad's input includes them. */
export function anthropicUsageReport(usage: AnthropicUsage): UsageReport {
  const cached = usage.cache_read_input_tokens ?? 0;
  const input = usage.input_tokens === undefined ? undefined : usage.input_tokens + cached + (usage.cache_creation_input_tokens ?? 0);
  return {
    inputTokens: input,
    outputTokens: usage.output_tokens,
    ...(input === undefined ? {} : { cachedInputTokens: cached }),
    reasoningTokens: usage.output_tokens_details?.thinking_tokens,
  };
}

/** Streams one reply from Anthropic's Messages API. */
export async function* streamAnthropic(call: ProviderCall, messages: LlmMessage[], tools?: ToolDefinition[]): AsyncGenerator<StreamEvent> {
  const { system, messages: converted } = toAnthropicMessages(messages);
  const body = {
    model: call.config.model,
    max_tokens: call.config.maxTokens ?? DEFAULT_MAX_TOKENS,
    stream: true,
    messages: converted,
    ...(system ? { system } : {}),
    ...(tools?.length ? { tools: toAnthropicTools(tools) } : {}),
    ...(call.config.temperature === undefined ? {} : { temperature: Math.min(1, call.config.temperature) }),
  };
  const response = await postWithRetry(call, endpoint(call.config, '/messages'), {
    method: 'POST',
    headers: providerHeaders(call.config),
    body: JSON.stringify(body),
  });
  const toolMode = tools?.length ? 'native' : 'none';
  const plain = await jsonInsteadOfStream(response);
  if (plain) {
    yield* fromWholeMessage(call, plain.json, toolMode);
    return;
  }

  const openTools = new Map<number, ToolCall>();
  const usage = new UsageMeter();
  let stopReason = 'end_turn';
  let stopped = false;
  for await (const event of sseEvents(call, response)) {
    const data = parseEvent(call, event.data);
    switch (data.type) {
      case 'message_start':
        if (data.message?.usage) usage.report(anthropicUsageReport(data.message.usage));
        break;
      case 'content_block_start':
        if (data.content_block?.type === 'tool_use') {
          openTools.set(data.index ?? 0, { id: data.content_block.id ?? '', name: data.content_block.name ?? '', arguments: '' });
        }
        break;
      case 'content_block_delta':
        if (data.delta?.type === 'text_delta' && data.delta.text) yield { type: 'text', text: data.delta.text };
        if (data.delta?.type === 'thinking_delta' && data.delta.thinking) yield { type: 'reasoning', text: data.delta.thinking };
        if (data.delta?.type === 'input_json_delta') {
          const tool = openTools.get(data.index ?? 0);
          if (tool) tool.arguments += data.delta.partial_json ?? '';
        }
        break;
      case 'content_block_stop': {
        const tool = openTools.get(data.index ?? 0);
        if (tool) {
          openTools.delete(data.index ?? 0);
          yield { type: 'tool_call', call: { ...tool, arguments: tool.arguments || '{}' } };
        }
        break;
      }
      case 'message_delta':
        if (data.delta?.stop_reason) stopReason = data.delta.stop_reason;
        if (data.usage) usage.report(anthropicUsageReport(data.usage));
        break;
      case 'message_stop':
        stopped = true;
        break;
      case 'error':
        throw midStreamError(call.config, data.error);
      default:
        break; // ping and future event types
    }
    if (stopped) break;
  }
  if (!stopped) throw streamCutError(call.config);
  const total = usage.total();
  if (total) yield { type: 'usage', ...total };
  yield { type: 'done', finishReason: stopReason, toolMode };
}

interface WholeMessage {
  content?: Array<{ type?: string; text?: string; thinking?: string; id?: string; name?: string; input?: unknown }>;
  stop_reason?: string | null;
  usage?: AnthropicUsage;
}

/** A JSON body where a stream was asked for: an error dressed as HTTP 200, or a whole message. */
function* fromWholeMessage(call: ProviderCall, json: unknown, toolMode: 'native' | 'none'): Generator<StreamEvent> {
  const error = errorInJsonBody(call.config, json);
  if (error) throw error;
  const message = (typeof json === 'object' && json !== null ? json : {}) as WholeMessage;
  if (!Array.isArray(message.content)) throw badStreamError(call.config, 'a JSON body that is neither a stream nor a message');
  for (const block of message.content) {
    if (block.type === 'thinking' && block.thinking) yield { type: 'reasoning', text: block.thinking };
    if (block.type === 'text' && block.text) yield { type: 'text', text: block.text };
    if (block.type === 'tool_use') yield { type: 'tool_call', call: { id: block.id ?? '', name: block.name ?? '', arguments: JSON.stringify(block.input ?? {}) } };
  }
  const usage = new UsageMeter();
  if (message.usage) usage.report(anthropicUsageReport(message.usage));
  const total = usage.total();
  if (total) yield { type: 'usage', ...total };
  yield { type: 'done', finishReason: message.stop_reason ?? 'end_turn', toolMode };
}

function parseEvent(call: ProviderCall, data: string): AnthropicEvent {
  try {
    return JSON.parse(data) as AnthropicEvent;
  } catch {
    throw badStreamError(call.config, `invalid JSON in a stream event: ${data.slice(0, 40)}`);
  }
}
