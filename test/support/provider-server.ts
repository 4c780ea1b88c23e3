/**
 * A scriptable fake of the LLM provider HTTP APIs Jawad talks to, for tests.
 *
 * It speaks the real wire formats (as documented publicly) of:
 *  - OpenAI Chat Completions (`POST /v1/chat/completions`, SSE and JSON),
 *    which Ollama, LM Studio, llama.cpp etc. also serve;
 *  - Anthropic Messages (`POST /v1/messages`, SSE and JSON);
 *  - OpenAI audio transcriptions (`POST /v1/audio/transcriptions`, multipart);
 *  - model listings (`GET /v1/models`, Ollama's `GET /api/tags`).
 *
 * Each chat/messages/transcription request takes the next scripted `Reply`
 * from a FIFO queue (or the default reply). Everything received is recorded.
 * Only node:http is used; the server listens on 127.0.0.1 on a random port.
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';

// ---------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export interface RecordedRequest {
  method: string;
  /** The request target as sent, including any query string. */
  path: string;
  /** Lower-cased header names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  rawBody: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  /** The parsed parts, when the body is multipart/form-data. */
  multipart?: MultipartPart[];
  /** Date.now() when the request (with its whole body) had been received. */
  at: number;
}

export interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface ToolCallSpec {
  id: string;
  name: string;
  /** The JSON arguments string exactly as the model would emit it. */
  arguments: string;
}

export interface ToolUseSpec {
  id: string;
  name: string;
  input: unknown;
  /** Size of the input_json_delta fragments (default 7). */
  fragment?: number;
}

export interface OpenAIStreamReply {
  kind: 'openai-stream';
  chunks: string[];
  /** Thinking streamed before the answer, in the field the server family uses. */
  reasoning?: string[];
  reasoningField?: 'reasoning_content' | 'reasoning';
  usage?: OpenAIUsage;
  /**
   * 'final' (default): one usage chunk at the end, as OpenAI's include_usage does. 'running':
   * every chunk carries the running totals, as vLLM's continuous_usage_stats does.
   */
  usageStyle?: 'final' | 'running';
  model?: string;
  delayMs?: number;
  cutAfter?: number;
  stallAfter?: number;
  badChunkAt?: number;
  finishReason?: string;
}

export interface OpenAIToolStreamReply {
  kind: 'openai-tool-stream';
  calls: ToolCallSpec[];
  fragment?: number;
  whole?: boolean;
  text?: string;
  usage?: OpenAIUsage;
  delayMs?: number;
}

export interface OpenAIJsonReply {
  kind: 'openai-json';
  content?: string;
  toolCalls?: ToolCallSpec[];
  usage?: OpenAIUsage;
}

export interface AnthropicStreamReply {
  kind: 'anthropic-stream';
  chunks: string[];
  /** A thinking block before the text (extended thinking). */
  thinking?: string[];
  toolUses?: ToolUseSpec[];
  usage?: AnthropicUsage;
  stopReason?: string;
  cutAfter?: number;
  delayMs?: number;
}

export interface ErrorReply {
  kind: 'error';
  status: number;
  /** Sent as JSON; a string is sent as-is (text/plain unless headers say otherwise). */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Bytes exactly as given: a recorded body replayed, or a malformed one. Each string of `body` is
 * written (and flushed) on its own, so events can be split across reads.
 */
export interface RawReply {
  kind: 'raw';
  status?: number;
  headers?: Record<string, string>;
  body: string | string[];
  delayMs?: number;
}

export type Reply =
  | OpenAIStreamReply
  | RawReply
  | OpenAIToolStreamReply
  | OpenAIJsonReply
  | AnthropicStreamReply
  | ErrorReply
  | { kind: 'stall' }
  /** `usage`: gpt-4o-transcribe's token counts (whisper-1 reports none). */
  | { kind: 'transcription'; text: string; usage?: { input_tokens: number; output_tokens: number } };

export interface ProviderServer {
  url: string;
  requests: RecordedRequest[];
  enqueue(...replies: Reply[]): void;
  setDefault(reply: Reply | undefined): void;
  /**
   * Computes a reply from the request itself (a scripted model that reads its input), consulted
   * when the queue is empty and before the default; returning undefined falls through.
   */
  setResponder(responder: Responder | undefined): void;
  ollamaOrigins: boolean;
  models: string[];
  /** Names the chat endpoints accept for a listed id without listing them (Anthropic's `…-latest`). */
  aliases: Record<string, string>;
  /** Caps Anthropic-style model pages (the real API pages by 20 unless asked for up to 1000). */
  modelPageSize: number | undefined;
  /** Request fields this server rejects with a 400 naming the field (a strict server). */
  rejectFields: string[];
  /** Chat answers whatever model is named, as a single-model llama.cpp server does. */
  anyModel: boolean;
  /** Models that refuse max_tokens and want max_completion_tokens, as OpenAI's reasoning models do. */
  reasoningModels: string[];
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  reset(): void;
  close(): Promise<void>;
}

export type Responder = (request: RecordedRequest) => Reply | undefined;

type Provider = 'openai' | 'anthropic';
type JsonObject = Record<string, unknown>;

const DEFAULT_MODELS: readonly string[] = ['test-model'];
const DEFAULT_FRAGMENT = 7;
const FINGERPRINT = 'fp_jawad_test';
const MODEL_CREATED = 1_700_000_000;

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function randomId(prefix: string): string {
  return prefix + randomBytes(12).toString('hex');
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function splitEvery(text: string, size: number): string[] {
  const step = Math.max(1, Math.floor(size));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += step) out.push(text.slice(i, i + step));
  return out;
}

function sleep(ms: number): Promise<void> {
  // setImmediate even for 0 ms so each SSE event is flushed on its own.
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

// ---------------------------------------------------------------------------
// Error bodies, per provider
// ---------------------------------------------------------------------------

interface OpenAIErrorShape {
  type: string;
  code: string | null;
  message: string;
}

const OPENAI_ERRORS: Record<number, OpenAIErrorShape> = {
  400: { type: 'invalid_request_error', code: null, message: 'Bad request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Forbidden.' },
  404: { type: 'invalid_request_error', code: null, message: 'Not found.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests.' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request. Sorry about that!' },
  503: { type: 'server_error', code: null, message: 'The engine is currently overloaded, please try again later.' },
};

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function openAIErrorBody(message: string, type: string, code: string | null = null): JsonObject {
  return { error: { message, type, param: null, code } };
}

export function anthropicErrorBody(type: string, message: string): JsonObject {
  return { type: 'error', error: { type, message } };
}

function defaultErrorBody(provider: Provider, status: number): JsonObject {
  if (provider === 'anthropic') {
    const type = ANTHROPIC_ERROR_TYPES[status] ?? 'api_error';
    return anthropicErrorBody(type, type === 'overloaded_error' ? 'Overloaded' : `Scripted ${status} error`);
  }
  const shape = OPENAI_ERRORS[status] ?? { type: 'server_error', code: null, message: `Scripted ${status} error` };
  return openAIErrorBody(shape.message, shape.type, shape.code);
}

function sendError(res: ServerResponse, provider: Provider, status: number, openai: JsonObject, anthropic: JsonObject): void {
  sendJson(res, status, provider === 'anthropic' ? anthropic : openai);
}

// ---------------------------------------------------------------------------
// multipart/form-data
// ---------------------------------------------------------------------------

function boundaryOf(contentType: string): string | undefined {
  if (!/^multipart\/form-data/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

function headerParams(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /;\s*([\w*.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const m of value.matchAll(re)) {
    const name = (m[1] ?? '').toLowerCase();
    out[name] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '').trim();
  }
  return out;
}

function partHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) out[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return out;
}

function toPart(headerText: string, data: Buffer): MultipartPart | undefined {
  const headers = partHeaders(headerText);
  const params = headerParams(headers['content-disposition'] ?? '');
  if (params.name === undefined) return undefined;
  const part: MultipartPart = { name: params.name, data };
  if (params.filename !== undefined) part.filename = params.filename;
  if (headers['content-type'] !== undefined) part.contentType = headers['content-type'];
  return part;
}

/**
 * Parses a multipart/form-data body (RFC 7578). Returns undefined when the
 * content type has no boundary or the body is malformed.
 */
export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] | undefined {
  const boundary = boundaryOf(contentType);
  if (boundary === undefined) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`);
  const parts: MultipartPart[] = [];
  let pos = body.indexOf(delimiter);
  while (pos >= 0) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString('latin1') === '--') return parts;
    const lineEnd = body.indexOf('\r\n', pos);
    if (lineEnd < 0) return undefined;
    const headersStart = lineEnd + 2;
    // Search from the delimiter line's CRLF so a part without headers works.
    const headerEnd = body.indexOf('\r\n\r\n', lineEnd);
    if (headerEnd < 0) return undefined;
    const dataStart = headerEnd + 4;
    const dataEnd = body.indexOf(nextDelimiter, dataStart);
    if (dataEnd < 0) return undefined;
    const headerText = body.subarray(headersStart, Math.max(headersStart, headerEnd)).toString('utf8');
    const part = toPart(headerText, Buffer.from(body.subarray(dataStart, Math.max(dataStart, dataEnd))));
    if (part) parts.push(part);
    pos = dataEnd + 2;
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// SSE plans: a reply becomes a list of steps, then gets played.
// ---------------------------------------------------------------------------

type SseStep = { type: 'write'; text: string } | { type: 'cut' } | { type: 'stall' };

function dataEvent(payload: unknown): SseStep {
  return { type: 'write', text: `data: ${JSON.stringify(payload)}\n\n` };
}

function namedEvent(name: string, payload: unknown): SseStep {
  return { type: 'write', text: `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n` };
}

const DONE: SseStep = { type: 'write', text: 'data: [DONE]\n\n' };
const BAD_CHUNK: SseStep = { type: 'write', text: 'data: {not json\n\n' };

/** The step that interrupts a stream after `count` content events, if any. */
function interruption(count: number, cutAfter?: number, stallAfter?: number): SseStep | undefined {
  if (count === cutAfter) return { type: 'cut' };
  if (count === stallAfter) return { type: 'stall' };
  return undefined;
}

function withTotal(usage: OpenAIUsage): JsonObject {
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

/** Builds chat.completion.chunk objects sharing one id/created/model. */
class OpenAIChunks {
  private readonly id = randomId('chatcmpl-');
  private readonly created = nowSeconds();

  constructor(
    private readonly model: string,
    private readonly usage: OpenAIUsage | undefined,
    private readonly running = false,
  ) {}

  private sent = 0;

  chunk(delta: JsonObject, finishReason: string | null = null): SseStep {
    const choice = { index: 0, delta, logprobs: null, finish_reason: finishReason };
    // OpenAI's docs say every chunk but the last has usage: null, but the recorded streams
    // (openai-node's fixtures) leave the field out; with continuous usage stats (vLLM) every
    // chunk has the running totals.
    const usage = this.usage && this.running ? { usage: this.runningUsage() } : {};
    return dataEvent({ ...this.base(), choices: [choice], ...usage });
  }

  /** The trailing usage-only chunk, and [DONE]. */
  tail(): SseStep[] {
    const usage = this.usage ? [dataEvent({ ...this.base(), choices: [], usage: withTotal(this.usage) })] : [];
    return [...usage, DONE];
  }

  /** Prompt tokens up front, completion tokens counted up by one per chunk (never past the total). */
  private runningUsage(): JsonObject {
    const usage = this.usage!;
    this.sent += 1;
    return withTotal({ prompt_tokens: usage.prompt_tokens, completion_tokens: Math.min(this.sent, usage.completion_tokens) });
  }

  private base(): JsonObject {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      system_fingerprint: FINGERPRINT,
    };
  }
}

function openAIStreamSteps(reply: OpenAIStreamReply, model: string): SseStep[] {
  const chunks = new OpenAIChunks(model, reply.usage, reply.usageStyle === 'running');
  const steps: SseStep[] = [chunks.chunk({ role: 'assistant', content: '' })];
  const field = reply.reasoningField ?? 'reasoning_content';
  for (const thought of reply.reasoning ?? []) steps.push(chunks.chunk({ content: null, [field]: thought }));
  for (let i = 0; i <= reply.chunks.length; i++) {
    const stop = interruption(i, reply.cutAfter, reply.stallAfter);
    if (stop) return [...steps, stop];
    const content = reply.chunks[i];
    if (content === undefined) break;
    steps.push(i === reply.badChunkAt ? BAD_CHUNK : chunks.chunk({ content }));
  }
  steps.push(chunks.chunk({}, reply.finishReason ?? 'stop'));
  return [...steps, ...chunks.tail()];
}

function toolCallDeltas(call: ToolCallSpec, index: number, reply: OpenAIToolStreamReply): JsonObject[] {
  const first = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
  if (reply.whole) return [{ ...first, function: { name: call.name, arguments: call.arguments } }];
  const fragments = splitEvery(call.arguments, reply.fragment ?? DEFAULT_FRAGMENT);
  return [first, ...fragments.map((args) => ({ index, function: { arguments: args } }))];
}

function openAIToolStreamSteps(reply: OpenAIToolStreamReply, model: string): SseStep[] {
  const chunks = new OpenAIChunks(model, reply.usage);
  const steps: SseStep[] = [chunks.chunk({ role: 'assistant', content: reply.text === undefined ? null : '' })];
  if (reply.text !== undefined) steps.push(chunks.chunk({ content: reply.text }));
  reply.calls.forEach((call, index) => {
    for (const delta of toolCallDeltas(call, index, reply)) steps.push(chunks.chunk({ tool_calls: [delta] }));
  });
  steps.push(chunks.chunk({}, 'tool_calls'));
  return [...steps, ...chunks.tail()];
}

function anthropicMessageStart(model: string, usage: AnthropicUsage): JsonObject {
  return {
    type: 'message_start',
    message: {
      id: randomId('msg_'),
      type: 'message',
      role: 'assistant',
      content: [],
      model,
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
        cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
        output_tokens: 1,
      },
    },
  };
}

/** The API pings once, right after the first block opens, whatever the block (anthropic-sdk's fixtures). */
const PING = namedEvent('ping', { type: 'ping' });

function anthropicThinkingBlock(thinking: string[]): SseStep[] {
  return [
    namedEvent('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    PING,
    ...thinking.map((text) => namedEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: text } })),
    namedEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'c2lnbmF0dXJl' } }),
    namedEvent('content_block_stop', { type: 'content_block_stop', index: 0 }),
  ];
}

function anthropicTextBlock(reply: AnthropicStreamReply, index: number): SseStep[] {
  const steps: SseStep[] = [
    namedEvent('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
    ...(index === 0 ? [PING] : []),
  ];
  for (let i = 0; i <= reply.chunks.length; i++) {
    const stop = interruption(i, reply.cutAfter);
    if (stop) return [...steps, stop];
    const text = reply.chunks[i];
    if (text === undefined) break;
    steps.push(namedEvent('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
  }
  return [...steps, namedEvent('content_block_stop', { type: 'content_block_stop', index })];
}

function anthropicToolBlock(tool: ToolUseSpec, index: number): SseStep[] {
  const block = { type: 'tool_use', id: tool.id, name: tool.name, input: {} };
  // The API opens each tool_use block with an empty partial_json delta.
  const fragments = ['', ...splitEvery(JSON.stringify(tool.input ?? {}), tool.fragment ?? DEFAULT_FRAGMENT)];
  return [
    namedEvent('content_block_start', { type: 'content_block_start', index, content_block: block }),
    ...fragments.map((partial_json) =>
      namedEvent('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }),
    ),
    namedEvent('content_block_stop', { type: 'content_block_stop', index }),
  ];
}

function anthropicStopReason(reply: AnthropicStreamReply): string {
  return reply.stopReason ?? (reply.toolUses?.length ? 'tool_use' : 'end_turn');
}

function anthropicStreamSteps(reply: AnthropicStreamReply, model: string): SseStep[] {
  const usage = reply.usage ?? { input_tokens: 0, output_tokens: 0 };
  const steps: SseStep[] = [namedEvent('message_start', anthropicMessageStart(model, usage))];
  const thought = reply.thinking?.length ? 1 : 0;
  if (thought) steps.push(...anthropicThinkingBlock(reply.thinking!));
  // A tool-only answer has no text block; then ping follows message_start.
  const hasText = reply.chunks.length > 0 || !reply.toolUses?.length;
  if (hasText) {
    steps.push(...anthropicTextBlock(reply, thought));
    if (steps.at(-1)?.type === 'cut') return steps;
  } else if (!thought) {
    steps.push(PING);
  }
  const offset = thought + (hasText ? 1 : 0);
  reply.toolUses?.forEach((tool, i) => steps.push(...anthropicToolBlock(tool, i + offset)));
  const delta = { stop_reason: anthropicStopReason(reply), stop_sequence: null };
  // The API's message_delta repeats the cumulative input and cache counts (anthropic-sdk's fixtures).
  const cumulative = {
    input_tokens: usage.input_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    output_tokens: usage.output_tokens,
  };
  steps.push(namedEvent('message_delta', { type: 'message_delta', delta, usage: cumulative }));
  steps.push(namedEvent('message_stop', { type: 'message_stop' }));
  return steps;
}

async function writeStep(res: ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return false;
  return new Promise((resolve) => {
    const onClose = (): void => resolve(false);
    res.once('close', onClose);
    res.write(text, (err) => {
      res.off('close', onClose);
      resolve(!err);
    });
  });
}

async function playSse(res: ServerResponse, steps: SseStep[], delayMs = 0): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
  for (const step of steps) {
    if (step.type === 'cut') {
      // Give the client a moment to read what was sent: a reset can make the kernel drop
      // received-but-unread bytes, which would make the test about TCP, not about Jawad.
      await sleep(50);
      res.socket?.destroy();
      return;
    }
    if (step.type === 'stall') return; // leave the connection open until close()
    if (!(await writeStep(res, step.text))) return;
    await sleep(delayMs);
  }
  res.end();
}

async function playRaw(res: ServerResponse, reply: RawReply): Promise<void> {
  res.writeHead(reply.status ?? 200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', ...reply.headers });
  res.flushHeaders();
  for (const piece of typeof reply.body === 'string' ? [reply.body] : reply.body) {
    if (!(await writeStep(res, piece))) return;
    await sleep(reply.delayMs ?? 0);
  }
  res.end();
}

// ---------------------------------------------------------------------------
// Non-streaming bodies
// ---------------------------------------------------------------------------

interface CompletionParts {
  content?: string;
  toolCalls?: ToolCallSpec[];
  usage?: OpenAIUsage;
  finishReason?: string;
}

function openAICompletion(model: string, parts: CompletionParts): JsonObject {
  const toolCalls = parts.toolCalls?.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  const message: JsonObject = { role: 'assistant', content: parts.content ?? null, refusal: null };
  if (toolCalls?.length) message.tool_calls = toolCalls;
  const finishReason = parts.finishReason ?? (toolCalls?.length ? 'tool_calls' : 'stop');
  return {
    id: randomId('chatcmpl-'),
    object: 'chat.completion',
    created: nowSeconds(),
    model,
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage: withTotal(parts.usage ?? { prompt_tokens: 0, completion_tokens: 0 }),
  };
}

function anthropicMessage(reply: AnthropicStreamReply, model: string): JsonObject {
  const text = reply.chunks.length > 0 || !reply.toolUses?.length ? [{ type: 'text', text: reply.chunks.join('') }] : [];
  const tools = (reply.toolUses ?? []).map((t) => ({ type: 'tool_use', id: t.id, name: t.name, input: t.input }));
  return {
    id: randomId('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content: [...text, ...tools],
    stop_reason: anthropicStopReason(reply),
    stop_sequence: null,
    usage: reply.usage ?? { input_tokens: 0, output_tokens: 0 },
  };
}

function sendScriptedError(res: ServerResponse, provider: Provider, reply: ErrorReply): void {
  const body = reply.body ?? defaultErrorBody(provider, reply.status);
  if (typeof body === 'string') sendText(res, reply.status, body, reply.headers);
  else sendJson(res, reply.status, body, reply.headers);
}

// ---------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------

/** What a handler knows about the request it answers. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  record: RecordedRequest;
  pathname: string;
  provider: Provider;
}

/** Origins Ollama accepts by default (OLLAMA_ORIGINS unset). */
const OLLAMA_ALLOWED_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|0\.0\.0\.0)(:\d+)?$/i;

function wantsStream(record: RecordedRequest): boolean {
  return isRecord(record.json) && record.json.stream === true;
}

function apiKeyOf(req: IncomingMessage): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  const header = req.headers['x-api-key'];
  return bearer?.[1]?.trim() ?? (typeof header === 'string' ? header : undefined);
}

function providerOf(req: IncomingMessage, pathname: string): Provider {
  return pathname.startsWith('/v1/messages') || req.headers['anthropic-version'] !== undefined ? 'anthropic' : 'openai';
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function makeRecord(req: IncomingMessage, rawBody: Buffer): RecordedRequest {
  const contentType = req.headers['content-type'] ?? '';
  const record: RecordedRequest = {
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    headers: flattenHeaders(req.headers),
    rawBody,
    at: Date.now(),
  };
  const multipart = parseMultipart(rawBody, contentType);
  if (multipart) record.multipart = multipart;
  else {
    const json = parseJson(rawBody);
    if (json !== undefined) record.json = json;
  }
  return record;
}

function setCorsHeaders(res: ServerResponse, origin: string | undefined): void {
  res.setHeader('Access-Control-Allow-Origin', origin ?? '*');
  res.setHeader('Access-Control-Expose-Headers', '*');
  res.setHeader('Vary', 'Origin');
}

function sendPreflight(req: IncomingMessage, res: ServerResponse): void {
  // '*' does not cover Authorization, so echo what the browser asks for.
  const requested = req.headers['access-control-request-headers'];
  res.setHeader('Access-Control-Allow-Headers', requested ?? '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
  res.setHeader('Access-Control-Max-Age', '600');
  if (req.headers['access-control-request-private-network'] === 'true') {
    res.setHeader('Access-Control-Allow-Private-Network', 'true');
  }
  res.writeHead(204);
  res.end();
}

function ollamaDigest(name: string): string {
  return createHash('sha256').update(name).digest('hex');
}

class ProviderServerImpl implements ProviderServer {
  url = '';
  readonly requests: RecordedRequest[] = [];
  ollamaOrigins = false;
  models: string[] = [...DEFAULT_MODELS];
  aliases: Record<string, string> = {};
  modelPageSize: number | undefined;
  rejectFields: string[] = [];
  anyModel = false;
  reasoningModels: string[] = [];

  private queue: Reply[] = [];
  private fallback: Reply | undefined;
  private responder: Responder | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly waiters = new Set<() => void>();
  private readonly server: http.Server;

  constructor() {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => this.crash(res, err));
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = this.server.address() as AddressInfo; // listening on TCP, so never a string
    this.url = `http://127.0.0.1:${port}`;
  }

  enqueue(...replies: Reply[]): void {
    this.queue.push(...replies);
  }

  setDefault(reply: Reply | undefined): void {
    this.fallback = reply;
  }

  setResponder(responder: Responder | undefined): void {
    this.responder = responder;
  }

  waitForRequests(n: number, timeoutMs = 2000): Promise<RecordedRequest[]> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (this.requests.length < n) return;
        cleanup();
        resolve([...this.requests]);
      };
      const timer = setTimeout(() => {
        cleanup();
        const seen = this.requests.map((r) => `${r.method} ${r.path}`).join(', ') || 'none';
        reject(new Error(`waitForRequests: wanted ${n} requests within ${timeoutMs} ms, got ${this.requests.length} (${seen})`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  reset(): void {
    this.queue = [];
    this.fallback = undefined;
    this.responder = undefined;
    this.requests.length = 0;
    this.ollamaOrigins = false;
    this.models = [...DEFAULT_MODELS];
    this.aliases = {};
    this.modelPageSize = undefined;
    this.rejectFields = [];
    this.anyModel = false;
    this.reasoningModels = [];
  }

  /**
   * The listed model a requested name means: itself, its `:latest` tag (Ollama answers to
   * `llama3.1` for `llama3.1:latest`) or an alias (Anthropic's `…-latest`).
   */
  private resolveModel(name: string): string | undefined {
    if (this.models.includes(name)) return name;
    if (this.models.includes(`${name}:latest`)) return `${name}:latest`;
    const alias = this.aliases[name];
    return alias !== undefined && this.models.includes(alias) ? alias : undefined;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
      this.sockets.clear();
    });
  }

  // --- request handling ---------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const record = makeRecord(req, await readBody(req));
    this.requests.push(record);
    for (const waiter of [...this.waiters]) waiter();

    const origin = req.headers.origin;
    if (this.ollamaOrigins && origin !== undefined && !OLLAMA_ALLOWED_ORIGIN.test(origin)) {
      res.writeHead(403, { 'Content-Length': 0 });
      res.end();
      return;
    }
    setCorsHeaders(res, origin);
    if (req.method === 'OPTIONS') return sendPreflight(req, res);

    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const exchange: Exchange = { req, res, record, pathname, provider: providerOf(req, pathname) };
    if (apiKeyOf(req) === 'bad-key') return this.rejectKey(exchange);
    await this.route(exchange);
  }

  private async route(ex: Exchange): Promise<void> {
    const route = `${ex.req.method} ${ex.pathname}`;
    if (route.startsWith('GET /v1/models/')) return this.getModel(ex, decodeURIComponent(ex.pathname.slice('/v1/models/'.length)));
    const deployment = /^POST \/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(route)?.[1];
    if (deployment !== undefined) return this.azureChat(ex, decodeURIComponent(deployment));
    switch (route) {
      case 'GET /v1/models':
        return this.listModels(ex);
      case 'GET /api/tags':
        return sendJson(ex.res, 200, { models: this.models.map((name) => this.ollamaModel(name)) });
      case 'GET /api/version':
        return sendJson(ex.res, 200, { version: '0.12.0' });
      case 'GET /':
        return sendText(ex.res, 200, 'Ollama is running');
      case 'POST /v1/chat/completions':
      case 'POST /v1/messages':
        return this.chat(ex);
      case 'POST /v1/audio/transcriptions':
        return this.transcribe(ex);
      default:
        return sendError(
          ex.res,
          ex.provider,
          404,
          openAIErrorBody(`Invalid URL (${route})`, 'invalid_request_error'),
          anthropicErrorBody('not_found_error', 'Not Found'),
        );
    }
  }

  /**
   * Azure OpenAI: the deployment in the path names the model, the key comes in `api-key` and
   * the `api-version` query is required.
   */
  private async azureChat(ex: Exchange, deployment: string): Promise<void> {
    if (!new URL(ex.req.url ?? '/', 'http://localhost').searchParams.get('api-version')) {
      return sendJson(ex.res, 404, { error: { code: '404', message: 'Resource not found' } });
    }
    if (!ex.req.headers['api-key']) {
      const message = 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';
      return sendJson(ex.res, 401, { error: { code: '401', message } });
    }
    await this.answer(ex, deployment);
  }

  private rejectKey(ex: Exchange): void {
    sendError(
      ex.res,
      ex.provider,
      401,
      openAIErrorBody(
        'Incorrect API key provided: bad-key. You can find your API key at https://platform.openai.com/account/api-keys.',
        'invalid_request_error',
        'invalid_api_key',
      ),
      anthropicErrorBody('authentication_error', 'invalid x-api-key'),
    );
  }

  private listModels(ex: Exchange): void {
    if (ex.provider === 'anthropic') {
      // Anthropic pages the list: `limit` (default 20, at most 1000) after `after_id`.
      const query = new URL(ex.req.url ?? '/', 'http://localhost').searchParams;
      const limit = Math.min(Number(query.get('limit') ?? 20) || 20, 1000, this.modelPageSize ?? Infinity);
      const after = query.get('after_id');
      const start = after === null ? 0 : this.models.indexOf(after) + 1;
      const page = this.models.slice(start, start + limit);
      const data = page.map((id) => this.anthropicModel(id));
      const has_more = start + limit < this.models.length;
      return sendJson(ex.res, 200, { data, has_more, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
    }
    const data = this.models.map((id) => ({ id, object: 'model', created: MODEL_CREATED, owned_by: 'system' }));
    sendJson(ex.res, 200, { object: 'list', data });
  }

  private anthropicModel(id: string): JsonObject {
    return { type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' };
  }

  /** `GET /v1/models/{id}`: both APIs describe one model; Anthropic resolves an alias to its id. */
  private getModel(ex: Exchange, name: string): void {
    const id = this.resolveModel(name);
    if (id === undefined) {
      return sendError(
        ex.res,
        ex.provider,
        404,
        openAIErrorBody(`The model '${name}' does not exist`, 'invalid_request_error', 'model_not_found'),
        anthropicErrorBody('not_found_error', `model: ${name}`),
      );
    }
    if (ex.provider === 'anthropic') return sendJson(ex.res, 200, this.anthropicModel(id));
    sendJson(ex.res, 200, { id, object: 'model', created: MODEL_CREATED, owned_by: 'system' });
  }

  private ollamaModel(name: string): JsonObject {
    return {
      name,
      model: name,
      modified_at: '2025-01-01T00:00:00.000000000Z',
      size: 4_661_224_676,
      digest: ollamaDigest(name),
      details: {
        parent_model: '',
        format: 'gguf',
        family: 'llama',
        families: ['llama'],
        parameter_size: '8.0B',
        quantization_level: 'Q4_0',
      },
    };
  }

  private async chat(ex: Exchange): Promise<void> {
    const body = ex.record.json;
    if (!isRecord(body)) {
      return sendError(
        ex.res,
        ex.provider,
        400,
        openAIErrorBody(
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
          'invalid_request_error',
        ),
        anthropicErrorBody('invalid_request_error', 'There was an issue with the request body: expected a JSON object'),
      );
    }
    const model = body.model;
    if (typeof model !== 'string') {
      return sendError(
        ex.res,
        ex.provider,
        400,
        openAIErrorBody('you must provide a model parameter', 'invalid_request_error'),
        anthropicErrorBody('invalid_request_error', 'model: Field required'),
      );
    }
    const rejected = this.rejectedField(body, model);
    if (rejected) return sendJson(ex.res, 400, rejected);
    if (this.resolveModel(model) === undefined && !this.anyModel) {
      return sendError(
        ex.res,
        ex.provider,
        404,
        openAIErrorBody(`The model \`${model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found'),
        anthropicErrorBody('not_found_error', `model: ${model}`),
      );
    }
    await this.answer(ex, model);
  }

  /** The 400 body a strict server or a reasoning model sends for a field it refuses, if any. */
  private rejectedField(body: JsonObject, model: string): JsonObject | undefined {
    if (this.reasoningModels.includes(model) && 'max_tokens' in body) {
      // OpenAI's own words for its reasoning models.
      const message = "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.";
      return { error: { message, type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } };
    }
    const field = this.rejectFields.find((name) => name in body);
    if (field === undefined) return undefined;
    return { error: { message: `Unrecognized request argument supplied: ${field}`, type: 'invalid_request_error', param: null, code: null } };
  }

  private async transcribe(ex: Exchange): Promise<void> {
    const parts = ex.record.multipart;
    const missing = (name: string): boolean => !parts?.some((p) => p.name === name);
    if (missing('file')) {
      const message = '1 validation error for Request\nbody -> file\n  field required (type=value_error.missing)';
      return sendJson(ex.res, 400, openAIErrorBody(message, 'invalid_request_error'));
    }
    if (missing('model')) {
      return sendJson(ex.res, 400, openAIErrorBody('you must provide a model parameter', 'invalid_request_error'));
    }
    const model = parts?.find((p) => p.name === 'model')?.data.toString('utf8') ?? 'whisper-1';
    await this.answer(ex, model);
  }

  /** Answers with the next scripted reply, or a 500 if the test scripted none. */
  private async answer(ex: Exchange, model: string): Promise<void> {
    const reply = this.queue.shift() ?? this.responder?.(ex.record) ?? this.fallback;
    if (!reply) {
      const message = `provider-server: the test scripted no reply for ${ex.req.method} ${ex.pathname} (queue empty, no default)`;
      return sendError(ex.res, ex.provider, 500, openAIErrorBody(message, 'server_error'), anthropicErrorBody('api_error', message));
    }
    await this.render(ex, reply, model);
  }

  private async render(ex: Exchange, reply: Reply, model: string): Promise<void> {
    const stream = wantsStream(ex.record);
    switch (reply.kind) {
      case 'openai-stream':
        if (stream) return playSse(ex.res, openAIStreamSteps(reply, reply.model ?? model), reply.delayMs);
        return this.openAIStreamAsJson(ex, reply, model);
      case 'openai-tool-stream':
        if (stream) return playSse(ex.res, openAIToolStreamSteps(reply, model), reply.delayMs);
        return sendJson(ex.res, 200, openAICompletion(model, { content: reply.text, toolCalls: reply.calls, usage: reply.usage }));
      case 'openai-json':
        return sendJson(ex.res, 200, openAICompletion(model, reply));
      case 'anthropic-stream':
        if (stream) return playSse(ex.res, anthropicStreamSteps(reply, model), reply.delayMs);
        if (reply.cutAfter !== undefined) return void ex.res.socket?.destroy();
        return sendJson(ex.res, 200, anthropicMessage(reply, model));
      case 'error':
        return sendScriptedError(ex.res, ex.provider, reply);
      case 'raw':
        return playRaw(ex.res, reply);
      case 'stall':
        return; // never answer; close() destroys the socket
      case 'transcription':
        return this.sendTranscription(ex, reply.text, reply.usage);
    }
  }

  /** A non-streaming client given a streaming script gets the joined answer. */
  private openAIStreamAsJson(ex: Exchange, reply: OpenAIStreamReply, model: string): void {
    if (reply.cutAfter !== undefined) return void ex.res.socket?.destroy();
    if (reply.stallAfter !== undefined) return;
    const parts = { content: reply.chunks.join(''), usage: reply.usage, finishReason: reply.finishReason };
    sendJson(ex.res, 200, openAICompletion(reply.model ?? model, parts));
  }

  private sendTranscription(ex: Exchange, text: string, usage?: { input_tokens: number; output_tokens: number }): void {
    const format = ex.record.multipart?.find((p) => p.name === 'response_format')?.data.toString('utf8');
    if (format === 'text') return sendText(ex.res, 200, text);
    sendJson(ex.res, 200, { text, ...(usage ? { usage: { type: 'tokens', ...usage, total_tokens: usage.input_tokens + usage.output_tokens } } : {}) });
  }

  private crash(res: ServerResponse, err: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const message = `provider-server crashed: ${err instanceof Error ? err.message : String(err)}`;
    sendJson(res, 500, openAIErrorBody(message, 'server_error'));
  }
}

/** Starts a fresh fake provider on 127.0.0.1 with a random free port. */
export async function startProviderServer(): Promise<ProviderServer> {
  const server = new ProviderServerImpl();
  await server.listen();
  return server;
}
