import { badStreamError, LlmError, streamCutError } from './errors';
import { endpoint, providerHeaders } from './headers';
import { postWithRetry, type ProviderCall } from './http';
import { sseEvents } from './sse';
import type { LlmMessage, StreamEvent, ToolCall, ToolDefinition } from './types';

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

interface AnthropicEvent {
  type?: string;
  message?: { usage?: { input_tokens?: number; output_tokens?: number } };
  index?: number;
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: { output_tokens?: number };
  error?: { type?: string; message?: string };
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

  const openTools = new Map<number, ToolCall>();
  let inputTokens = 0;
  let outputTokens = 0;
  let stopReason = 'end_turn';
  let stopped = false;
  for await (const event of sseEvents(call, response)) {
    const data = parseEvent(call, event.data);
    switch (data.type) {
      case 'message_start':
        inputTokens = data.message?.usage?.input_tokens ?? 0;
        outputTokens = data.message?.usage?.output_tokens ?? 0;
        break;
      case 'content_block_start':
        if (data.content_block?.type === 'tool_use') {
          openTools.set(data.index ?? 0, { id: data.content_block.id ?? '', name: data.content_block.name ?? '', arguments: '' });
        }
        break;
      case 'content_block_delta':
        if (data.delta?.type === 'text_delta' && data.delta.text) yield { type: 'text', text: data.delta.text };
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
        if (data.usage?.output_tokens !== undefined) outputTokens = data.usage.output_tokens;
        break;
      case 'message_stop':
        stopped = true;
        break;
      case 'error':
        throw new LlmError('server', `Anthropic stopped with an error: ${data.error?.message ?? data.error?.type ?? 'unknown'}`);
      default:
        break; // ping and future event types
    }
    if (stopped) break;
  }
  if (!stopped) throw streamCutError(call.config);
  yield { type: 'usage', inputTokens, outputTokens };
  yield { type: 'done', finishReason: stopReason, toolMode: tools?.length ? 'native' : 'none' };
}

function parseEvent(call: ProviderCall, data: string): AnthropicEvent {
  try {
    return JSON.parse(data) as AnthropicEvent;
  } catch {
    throw badStreamError(call.config, `invalid JSON in a stream event: ${data.slice(0, 40)}`);
  }
}
