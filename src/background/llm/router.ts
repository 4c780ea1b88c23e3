import { PROVIDER_PRESETS } from '../../protocol/settings';
import { streamAnthropic } from './anthropic';
import { LlmError } from './errors';
import { ProviderCall } from './http';
import { streamOpenAi } from './openai';
import type { LlmConfig, LlmMessage, LlmRequest, StreamEvent, ToolCall, ToolDefinition } from './types';
import { xmlToolInstructions, XmlToolCallStream } from './xml-tools';

type Adapter = (call: ProviderCall, messages: LlmMessage[], tools?: ToolDefinition[]) => AsyncGenerator<StreamEvent>;

const ADAPTERS: Record<'openai' | 'anthropic', Adapter> = { openai: streamOpenAi, anthropic: streamAnthropic };

export interface RouterRequest extends LlmRequest {
  /** 'xml' skips native tools (remembered for models whose server rejected them). */
  toolMode?: 'native' | 'xml';
}

/**
 * Streams a reply from whichever provider the settings name. When the server rejects native tool
 * definitions, it retries once without them and has the model write XML tool calls instead.
 */
export async function* streamChat(config: LlmConfig, request: RouterRequest): AsyncGenerator<StreamEvent> {
  const adapter = ADAPTERS[PROVIDER_PRESETS[config.provider].wire];
  const call = new ProviderCall(config, request.signal);
  const tools = request.tools?.length ? request.tools : undefined;
  try {
    if (!tools || request.toolMode !== 'xml') {
      try {
        yield* adapter(call, request.messages, tools);
        return;
      } catch (error) {
        if (!(tools && error instanceof LlmError && error.kind === 'tools-unsupported')) throw error;
      }
    }
    yield* streamWithXmlTools(adapter, call, request.messages, tools!);
  } finally {
    call.finish();
  }
}

async function* streamWithXmlTools(adapter: Adapter, call: ProviderCall, messages: LlmMessage[], tools: ToolDefinition[]): AsyncGenerator<StreamEvent> {
  const splitter = new XmlToolCallStream();
  for await (const event of adapter(call, asXmlConversation(messages, tools))) {
    if (event.type === 'text') {
      const visible = splitter.push(event.text);
      if (visible) yield { type: 'text', text: visible };
    } else if (event.type === 'done') {
      const rest = splitter.end();
      if (rest.text) yield { type: 'text', text: rest.text };
      for (const toolCall of rest.calls) yield { type: 'tool_call', call: toolCall };
      yield { ...event, finishReason: rest.calls.length ? 'tool_calls' : event.finishReason, toolMode: 'xml' };
    } else {
      yield event;
    }
  }
}

function renderXmlCall(call: ToolCall): string {
  return `<tool_call>{"name": ${JSON.stringify(call.name)}, "arguments": ${call.arguments || '{}'}}</tool_call>`;
}

/** Rewrites a native tool conversation as plain text turns the XML protocol understands. */
export function asXmlConversation(messages: LlmMessage[], tools: ToolDefinition[]): LlmMessage[] {
  const instructions = xmlToolInstructions(tools);
  const out: LlmMessage[] = [];
  const hasSystem = messages.some((m) => m.role === 'system');
  if (!hasSystem) out.push({ role: 'system', content: instructions });
  for (const message of messages) {
    if (message.role === 'system') out.push({ role: 'system', content: `${message.content}\n\n${instructions}` });
    else if (message.role === 'tool') out.push({ role: 'user', content: `<tool_result id="${message.toolCallId ?? ''}">\n${message.content}\n</tool_result>` });
    else if (message.toolCalls?.length) {
      out.push({ role: 'assistant', content: [message.content, ...message.toolCalls.map(renderXmlCall)].filter(Boolean).join('\n') });
    } else out.push({ role: message.role, content: message.content });
  }
  return out;
}
