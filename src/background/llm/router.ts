import { childRequestId, PROVIDER_PRESETS, type UsageKind, type UsageRecord } from '../../protocol';
import { streamAnthropic } from './anthropic';
import { LlmError } from './errors';
import { ProviderCall } from './http';
import { streamOpenAi } from './openai';
import { defaultShape, modelKey, type RequestShape } from './request-shape';
import { ThinkTagSplitter } from './think-tags';
import type { LlmConfig, LlmMessage, LlmRequest, StreamEvent, ToolCall, ToolDefinition } from './types';
import { xmlToolInstructions, XmlToolCallStream } from './xml-tools';

type Adapter = (call: ProviderCall, messages: LlmMessage[], tools?: ToolDefinition[]) => AsyncGenerator<StreamEvent>;

const ADAPTERS: Record<'openai' | 'anthropic', Adapter> = { openai: streamOpenAi, anthropic: streamAnthropic };

/** Who a model call works for: its usage record extends this chain with its own `llm-…` link. */
export interface UsageContext {
  requestId: string;
  kind: UsageKind;
  conversationId?: string;
  messageId?: string;
}

export interface RouterRequest extends LlmRequest {
  /** 'xml' skips native tools (remembered for models whose server rejected them). */
  toolMode?: 'native' | 'xml';
  /** Set to have the call's usage recorded. */
  usage?: UsageContext;
}

export interface RouterDeps {
  /** Request shapes learned per model (a strict server's rejected fields), kept across calls. */
  shapes: { get(model: string): Promise<RequestShape | undefined>; remember(model: string, shape: RequestShape): Promise<void> };
  /**
   * Stores one usage record per model call. Not waited for: the next step goes on while it is
   * written, and whoever reads the records waits for it (CostService).
   */
  recordUsage?: (record: UsageRecord) => void;
  now?: () => number;
}

export type StreamChat = (config: LlmConfig, request: RouterRequest) => AsyncGenerator<StreamEvent>;

/** A router that remembers request shapes in memory only (tests, and callers without storage). */
export function memoryShapes(): RouterDeps['shapes'] {
  const known = new Map<string, RequestShape>();
  return { get: async (model) => known.get(model), remember: async (model, shape) => void known.set(model, shape) };
}

/**
 * Streams a reply from whichever provider the settings name. When the server rejects native tool
 * definitions, it retries once without them and has the model write XML tool calls instead.
 * Inline `<think>` blocks become reasoning before anything looks for tool calls in the text.
 */
export function createRouter(deps: RouterDeps): StreamChat {
  return async function* streamChat(config, request) {
    const adapter = ADAPTERS[PROVIDER_PRESETS[config.provider].wire];
    const key = modelKey(config);
    const call = new ProviderCall(config, request.signal, (await deps.shapes.get(key)) ?? defaultShape(config));
    const learned = call.shape;
    const record = usageRecorder(deps, config, request.usage);
    try {
      for await (const event of routed(adapter, call, request)) {
        record.see(event);
        yield event;
      }
    } finally {
      call.finish();
      if (call.shape !== learned) await deps.shapes.remember(key, call.shape);
      record.write();
    }
  };
}

async function* routed(adapter: Adapter, call: ProviderCall, request: RouterRequest): AsyncGenerator<StreamEvent> {
  const tools = request.tools?.length ? request.tools : undefined;
  if (!tools || request.toolMode !== 'xml') {
    try {
      yield* splitThinking(adapter(call, request.messages, tools));
      return;
    } catch (error) {
      if (!(tools && error instanceof LlmError && error.kind === 'tools-unsupported')) throw error;
    }
  }
  yield* xmlToolCalls(splitThinking(adapter(call, asXmlConversation(request.messages, tools!))));
}

/** Moves inline `<think>…</think>` out of the answer into reasoning events. */
async function* splitThinking(events: AsyncIterable<StreamEvent>): AsyncGenerator<StreamEvent> {
  const splitter = new ThinkTagSplitter();
  for await (const event of events) {
    if (event.type === 'text') {
      for (const part of splitter.push(event.text)) yield { type: part.kind, text: part.text };
    } else {
      if (event.type === 'done') for (const part of splitter.end()) yield { type: part.kind, text: part.text };
      yield event;
    }
  }
}

/** Lifts `<tool_call>` blocks out of the answer's text; thinking never reaches this. */
async function* xmlToolCalls(events: AsyncIterable<StreamEvent>): AsyncGenerator<StreamEvent> {
  const splitter = new XmlToolCallStream();
  for await (const event of events) {
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

/**
 * Writes the call's usage record when it ends: the server's counts, or zeros marked unreported
 * when a finished call came with none (the history can say so instead of guessing).
 */
function usageRecorder(deps: RouterDeps, config: LlmConfig, context: UsageContext | undefined) {
  let usage: Extract<StreamEvent, { type: 'usage' }> | undefined;
  let finished = false;
  return {
    see(event: StreamEvent): void {
      if (event.type === 'usage') usage = event;
      if (event.type === 'done') finished = true;
    },
    write(): void {
      if (!deps.recordUsage || !context || (!usage && !finished)) return;
      deps.recordUsage({
        requestId: childRequestId(context.requestId, 'llm'),
        kind: context.kind,
        ...(context.conversationId ? { conversationId: context.conversationId } : {}),
        ...(context.messageId ? { messageId: context.messageId } : {}),
        provider: config.provider,
        baseUrl: config.baseUrl,
        model: config.model,
        inputTokens: usage?.inputTokens ?? 0,
        outputTokens: usage?.outputTokens ?? 0,
        cachedInputTokens: usage?.cachedInputTokens ?? 0,
        reasoningTokens: usage?.reasoningTokens ?? 0,
        ...(usage ? {} : { unreported: true }),
        createdAt: (deps.now ?? Date.now)(),
      });
    },
  };
}

/** The router without storage: shapes learned live as long as the background does. */
export const streamChat: StreamChat = createRouter({ shapes: memoryShapes() });

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
