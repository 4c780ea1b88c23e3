import { describe, expect, it } from 'vitest';
import { LlmError } from '../../../src/background/llm/errors';
import { createRouter, memoryShapes, streamChat, type RouterRequest } from '../../../src/background/llm/router';
import type { UsageRecord } from '../../../src/protocol';
import type { LlmConfig, StreamEvent, ToolDefinition } from '../../../src/background/llm/types';
import { freePort } from '../../support/ports';
import { openAIErrorBody } from '../../support/provider-server';
import { useProviderServer } from '../../support/use-provider-server';

const provider = useProviderServer();
const openai = provider.config;
const anthropic = (extra: Partial<LlmConfig> = {}): LlmConfig => openai({ provider: 'anthropic', apiKey: 'sk-ant-test', ...extra });

const READ_PAGE: ToolDefinition = {
  type: 'function',
  function: {
    name: 'read_page',
    description: 'Reads the current page',
    parameters: { type: 'object', properties: { maxChars: { type: 'integer' } } },
  },
};

const ask = (content = 'Hi', extra: Partial<RouterRequest> = {}): RouterRequest => ({
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content },
  ],
  ...extra,
});

interface Outcome {
  events: StreamEvent[];
  text: string;
  error?: LlmError;
}

/** Drains the stream; an LlmError ends it and is returned next to what came before. */
async function collect(config: LlmConfig, request: RouterRequest = ask(), onEvent?: (event: StreamEvent) => void, stream = streamChat): Promise<Outcome> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of stream(config, request)) {
      events.push(event);
      onEvent?.(event);
    }
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    return { events, text: textOf(events), error };
  }
  return { events, text: textOf(events) };
}

const textOf = (events: StreamEvent[]) =>
  events.map((e) => (e.type === 'text' ? e.text : '')).join('');
const ofType = <T extends StreamEvent['type']>(events: StreamEvent[], type: T) =>
  events.filter((e): e is Extract<StreamEvent, { type: T }> => e.type === type);

/** The JSON body of the nth request the server received. */
const bodyOf = (n: number) => provider.server.requests[n]!.json as Record<string, any>;

describe('streamChat over OpenAI-compatible servers', () => {
  it('streams the text in order, then usage, then done', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['Hel', 'lo', ', wor', 'ld!'], usage: { prompt_tokens: 11, completion_tokens: 4 } });
    const { events, error } = await collect(openai());
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'text', text: ', wor' },
      { type: 'text', text: 'ld!' },
      { type: 'usage', inputTokens: 11, outputTokens: 4, cachedInputTokens: 0, reasoningTokens: 0 },
      { type: 'done', finishReason: 'stop', toolMode: 'none' },
    ]);
  });

  it('sends what an OpenAI-compatible server expects', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['ok'] });
    await collect(openai({ temperature: 0.3, maxTokens: 99 }), ask('Hi', { tools: [READ_PAGE] }));
    const [request] = provider.server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-api-key']).toBeUndefined();
    expect(bodyOf(0)).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [READ_PAGE],
      temperature: 0.3,
      // OpenAI takes max_completion_tokens for every model, and its reasoning models take nothing else.
      max_completion_tokens: 99,
    });
  });

  it('sends no key header when no key is set, and no tools when there are none', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['ok'] });
    await collect(openai({ provider: 'ollama', apiKey: undefined }));
    expect(provider.server.requests[0]!.headers.authorization).toBeUndefined();
    expect(provider.server.requests[0]!.headers['x-api-key']).toBeUndefined();
    expect(bodyOf(0)).not.toHaveProperty('tools');
  });

  it('adds OpenRouter’s attribution headers', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['ok'] });
    await collect(openai({ provider: 'openrouter' }));
    expect(provider.server.requests[0]!.headers).toMatchObject({
      authorization: 'Bearer sk-test',
      'http-referer': expect.stringMatching(/^https:\/\//),
      'x-title': 'Jawad',
    });
  });

  it('talks to an Azure OpenAI deployment URL with the api-key header and an api-version', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['From Azure.'] });
    const { text, error } = await collect(openai({ provider: 'azure', baseUrl: `${provider.server.url}/openai/deployments/my-gpt4o`, model: 'my-gpt4o' }));
    expect(error).toBeUndefined();
    expect(text).toBe('From Azure.');
    const [request] = provider.server.requests;
    expect(request!.path).toBe('/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21');
    expect(request!.headers['api-key']).toBe('sk-test');
    expect(request!.headers.authorization).toBeUndefined();
  });

  it('keeps the api-version a deployment URL names', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['ok'] });
    await collect(openai({ provider: 'azure', baseUrl: `${provider.server.url}/openai/deployments/d1?api-version=2025-01-01-preview`, model: 'd1' }));
    expect(provider.server.requests[0]!.path).toBe('/openai/deployments/d1/chat/completions?api-version=2025-01-01-preview');
  });

  it('tolerates a trailing slash in the base URL', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['ok'] });
    const { text } = await collect(openai({ baseUrl: `${provider.server.url}/v1/` }));
    expect(text).toBe('ok');
    expect(provider.server.requests[0]!.path).toBe('/v1/chat/completions');
  });

  it('sends an assistant tool call and its result in the OpenAI shape', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['ok'] });
    await collect(openai(), {
      messages: [
        { role: 'user', content: 'Read it' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'read_page', arguments: '{"maxChars":10}' }] },
        { role: 'tool', toolCallId: 'call_1', content: 'page text' },
      ],
      tools: [READ_PAGE],
    });
    expect(bodyOf(0).messages).toEqual([
      { role: 'user', content: 'Read it' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_page', arguments: '{"maxChars":10}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'page text' },
    ]);
  });

  it('rebuilds a tool call whose arguments arrive in small fragments', async () => {
    const args = '{"maxChars": 2000, "selector": "main > article", "note": "ünïcode ✓"}';
    provider.server.enqueue({ kind: 'openai-tool-stream', calls: [{ id: 'call_abc', name: 'read_page', arguments: args }], fragment: 3, usage: { prompt_tokens: 20, completion_tokens: 9 } });
    const { events, error } = await collect(openai(), ask('Read it', { tools: [READ_PAGE] }));
    expect(error).toBeUndefined();
    expect(ofType(events, 'tool_call')).toEqual([{ type: 'tool_call', call: { id: 'call_abc', name: 'read_page', arguments: args } }]);
    expect(ofType(events, 'usage')).toEqual([{ type: 'usage', inputTokens: 20, outputTokens: 9, cachedInputTokens: 0, reasoningTokens: 0 }]);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls', toolMode: 'native' });
  });

  it('takes Ollama-style whole tool calls', async () => {
    provider.server.enqueue({ kind: 'openai-tool-stream', calls: [{ id: 'call_w', name: 'read_page', arguments: '{"maxChars":500}' }], whole: true });
    const { events } = await collect(openai({ provider: 'ollama' }), ask('Read it', { tools: [READ_PAGE] }));
    expect(ofType(events, 'tool_call').map((e) => e.call)).toEqual([{ id: 'call_w', name: 'read_page', arguments: '{"maxChars":500}' }]);
  });

  it('keeps two parallel tool calls apart and in order, after any text', async () => {
    provider.server.enqueue({
      kind: 'openai-tool-stream',
      text: 'Checking both.',
      calls: [
        { id: 'call_1', name: 'read_page', arguments: '{"maxChars":100}' },
        { id: 'call_2', name: 'search', arguments: '{"query":"weather in Paris"}' },
      ],
      fragment: 5,
    });
    const { events } = await collect(openai(), ask('Both', { tools: [READ_PAGE] }));
    expect(events.map((e) => e.type)).toEqual(['text', 'tool_call', 'tool_call', 'done']);
    expect(textOf(events)).toBe('Checking both.');
    expect(ofType(events, 'tool_call').map((e) => e.call)).toEqual([
      { id: 'call_1', name: 'read_page', arguments: '{"maxChars":100}' },
      { id: 'call_2', name: 'search', arguments: '{"query":"weather in Paris"}' },
    ]);
  });

});

describe('streamChat over Anthropic', () => {
  it('streams text, then the tool_use block as one call, then usage', async () => {
    provider.server.enqueue({
      kind: 'anthropic-stream',
      chunks: ['Let me ', 'read the page.'],
      toolUses: [{ id: 'toolu_01', name: 'read_page', input: { maxChars: 2000, selector: 'main' }, fragment: 4 }],
      usage: { input_tokens: 30, output_tokens: 12 },
    });
    const { events, error } = await collect(anthropic(), ask('Read it', { tools: [READ_PAGE] }));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'text', text: 'Let me ' },
      { type: 'text', text: 'read the page.' },
      { type: 'tool_call', call: { id: 'toolu_01', name: 'read_page', arguments: '{"maxChars":2000,"selector":"main"}' } },
      { type: 'usage', inputTokens: 30, outputTokens: 12, cachedInputTokens: 0, reasoningTokens: 0 },
      { type: 'done', finishReason: 'tool_use', toolMode: 'native' },
    ]);
  });

  it('sends the Anthropic headers and body shape', async () => {
    provider.server.enqueue({ kind: 'anthropic-stream', chunks: ['ok'] });
    await collect(anthropic({ temperature: 1.7 }), ask('Hi', { tools: [READ_PAGE] }));
    const request = provider.server.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers).toMatchObject({
      'x-api-key': 'sk-ant-test',
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
    });
    expect(request.headers.authorization).toBeUndefined();
    expect(bodyOf(0)).toEqual({
      model: 'test-model',
      max_tokens: 4096,
      stream: true,
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [{ name: 'read_page', description: 'Reads the current page', input_schema: READ_PAGE.function.parameters }],
      temperature: 1, // Anthropic's range ends at 1
    });
  });

  it('sends tool calls and results as tool_use / tool_result blocks in alternating turns', async () => {
    provider.server.enqueue({ kind: 'anthropic-stream', chunks: ['done'] });
    await collect(anthropic(), {
      messages: [
        { role: 'user', content: 'Read it' },
        { role: 'assistant', content: 'Sure.', toolCalls: [{ id: 'toolu_1', name: 'read_page', arguments: '{"maxChars":5}' }] },
        { role: 'tool', toolCallId: 'toolu_1', content: 'hello' },
        { role: 'user', content: 'And?' },
      ],
    });
    expect(bodyOf(0).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Read it' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Sure.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_page', input: { maxChars: 5 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'hello' },
          { type: 'text', text: 'And?' },
        ],
      },
    ]);
  });

  it('names the model Anthropic does not have (its 404 says "model: <name>")', async () => {
    const { error } = await collect(anthropic({ model: 'claude-nope' }));
    expect(error?.kind).toBe('model-not-found');
    expect(error?.message).toContain('claude-nope');
  });

  it('reports an Anthropic stream cut mid-answer', async () => {
    provider.server.enqueue({ kind: 'anthropic-stream', chunks: ['one ', 'two ', 'three'], cutAfter: 2 });
    const { text, error } = await collect(anthropic());
    expect(text).toBe('one two ');
    expect(error?.kind).toBe('stream-cut');
  });

  it('maps a bad Anthropic key to the auth message', async () => {
    const { error } = await collect(anthropic({ apiKey: 'bad-key' }));
    expect(error?.kind).toBe('auth');
    expect(error?.message).toBe('Invalid API key. Double-check your anthropic key in Settings.');
  });
});

describe('streamChat failures', () => {
  it('turns 401 into a clear auth error without retrying', async () => {
    const { error } = await collect(openai({ apiKey: 'bad-key' }));
    expect(error).toMatchObject({ kind: 'auth', status: 401, message: 'Invalid API key. Double-check your openai key in Settings.' });
    expect(provider.server.requests).toHaveLength(1);
  });

  it('names the model the server does not have', async () => {
    const { error } = await collect(openai({ model: 'gpt-9-turbo' }));
    expect(error?.kind).toBe('model-not-found');
    expect(error?.message).toContain('gpt-9-turbo');
    expect(provider.server.requests).toHaveLength(1);
  });

  it('retries a 429 after the Retry-After wait and then succeeds', async () => {
    provider.server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '0' } }, { kind: 'openai-stream', chunks: ['after ', 'wait'] });
    const { text, error } = await collect(openai());
    expect(error).toBeUndefined();
    expect(text).toBe('after wait');
    expect(provider.server.requests).toHaveLength(2);
  });

  it('gives up with a rate-limit error after three 429s', async () => {
    const limited = { kind: 'error', status: 429, headers: { 'retry-after': '0' } } as const;
    provider.server.enqueue(limited, limited, limited, { kind: 'openai-stream', chunks: ['never'] });
    const { text, error } = await collect(openai());
    expect(error?.kind).toBe('rate-limit');
    expect(error?.message).toContain('HTTP 429');
    expect(text).toBe('');
    expect(provider.server.requests).toHaveLength(3);
  });

  it('does not wait out a Retry-After longer than a minute', async () => {
    provider.server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '120' } });
    const { error } = await collect(openai());
    expect(error).toMatchObject({ kind: 'rate-limit', retryAfterMs: 120_000 });
    expect(error?.message).toContain('Try again in 120 s.');
    expect(provider.server.requests).toHaveLength(1);
  });

  it('retries a 500 with backoff and then succeeds', async () => {
    provider.server.enqueue({ kind: 'error', status: 500 }, { kind: 'openai-stream', chunks: ['recovered'] });
    const { text, error } = await collect(openai());
    expect(error).toBeUndefined();
    expect(text).toBe('recovered');
    expect(provider.server.requests).toHaveLength(2);
    // backoffMs(1) is 400–600 ms
    expect(provider.server.requests[1]!.at - provider.server.requests[0]!.at).toBeGreaterThanOrEqual(350);
  });

  it('does not retry a plain 400', async () => {
    provider.server.enqueue({ kind: 'error', status: 400, body: openAIErrorBody('max_tokens is too large', 'invalid_request_error') });
    const { error } = await collect(openai());
    expect(error?.kind).toBe('bad-request');
    expect(error?.message).toContain('max_tokens is too large');
    expect(provider.server.requests).toHaveLength(1);
  });

  it('reports a wrong base URL', async () => {
    const { error } = await collect(openai({ baseUrl: `${provider.server.url}/api` }));
    expect(error?.kind).toBe('endpoint-not-found');
    expect(error?.message).toContain(`${provider.server.url}/api`);
  });

  it('falls back to XML tool calls when the server rejects native tools', async () => {
    provider.server.enqueue(
      { kind: 'error', status: 400, body: openAIErrorBody('this model does not support tools', 'invalid_request_error') },
      {
        kind: 'openai-stream',
        chunks: ['I will read it. <to', 'ol_call>{"name": "read_page", ', '"arguments": {"maxChars": 2000}}</tool', '_call>'],
        usage: { prompt_tokens: 50, completion_tokens: 20 },
      },
    );
    const { events, text, error } = await collect(openai({ provider: 'ollama' }), ask('Read it', { tools: [READ_PAGE] }));
    expect(error).toBeUndefined();
    expect(provider.server.requests).toHaveLength(2);

    expect(bodyOf(0).tools).toEqual([READ_PAGE]);
    const retried = bodyOf(1);
    expect(retried).not.toHaveProperty('tools');
    expect(retried.messages[0].role).toBe('system');
    expect(retried.messages[0].content).toMatch(/^Be brief\.\n\n/);
    expect(retried.messages[0].content).toContain('<tool_call>');
    expect(retried.messages[0].content).toContain('- read_page: Reads the current page');
    expect(retried.messages.at(-1)).toEqual({ role: 'user', content: 'Read it' });

    expect(text).toBe('I will read it. ');
    expect(text).not.toContain('tool_call');
    expect(ofType(events, 'tool_call').map((e) => e.call)).toEqual([{ id: 'xml_call_0', name: 'read_page', arguments: '{"maxChars":2000}' }]);
    expect(ofType(events, 'usage')).toHaveLength(1);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls', toolMode: 'xml' });
  });

  it('goes straight to XML tools when asked to', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['<tool_call>{"name":"read_page","arguments":{}}</tool_call>'] });
    const { events } = await collect(openai(), ask('Read it', { tools: [READ_PAGE], toolMode: 'xml' }));
    expect(provider.server.requests).toHaveLength(1);
    expect(bodyOf(0)).not.toHaveProperty('tools');
    expect(ofType(events, 'tool_call')).toHaveLength(1);
    expect(textOf(events)).toBe('');
  });

  it('keeps the partial answer, then reports a stream cut', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['The answer ', 'is ', 'forty-two.'], cutAfter: 2 });
    const { text, error } = await collect(openai());
    expect(text).toBe('The answer is ');
    expect(error?.kind).toBe('stream-cut');
    expect(error?.message).toContain('partial answer is kept');
  });

  it('reports a malformed chunk as a bad stream', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['fine ', 'broken', 'never'], badChunkAt: 1 });
    const { text, error } = await collect(openai());
    expect(text).toBe('fine ');
    expect(error?.kind).toBe('bad-stream');
  });

  it('reports an error the server sends mid-stream', async () => {
    // A Response written by hand: an error object inside the SSE stream, as OpenRouter does.
    const { createServer: createHttp } = await import('node:http');
    const raw = createHttp((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: {"error":{"message":"upstream overloaded"}}\n\n');
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const port = (raw.address() as { port: number }).port;
    try {
      const { text, error } = await collect(openai({ baseUrl: `http://127.0.0.1:${port}/v1` }));
      expect(text).toBe('Hi');
      expect(error?.kind).toBe('server');
      expect(error?.message).toContain('upstream overloaded');
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('times out when the server never answers', async () => {
    provider.server.enqueue({ kind: 'stall' });
    const started = Date.now();
    const { error } = await collect(openai({ timeoutSeconds: 1 }));
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ kind: 'timeout', code: 'TIMEOUT', message: 'OpenAI did not answer within 1 s.' });
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(3000);
  });

  it('times out when the stream stops mid-answer, keeping the partial text', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['partial ', 'rest'], stallAfter: 1 });
    const { text, error } = await collect(openai({ timeoutSeconds: 1 }));
    expect(text).toBe('partial ');
    expect(error).toMatchObject({ kind: 'timeout', message: 'OpenAI stopped sending within 1 s.' });
  });

  it('stops with a cancelled error when the user aborts mid-stream', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: Array.from({ length: 50 }, (_, i) => `w${i} `), delayMs: 20 });
    const controller = new AbortController();
    const started = Date.now();
    const { events, error } = await collect(openai(), ask('Hi', { signal: controller.signal }), (event) => {
      if (event.type === 'text') controller.abort();
    });
    expect(error).toMatchObject({ kind: 'cancelled', code: 'CANCELLED' });
    expect(ofType(events, 'text').length).toBeGreaterThanOrEqual(1);
    expect(ofType(events, 'text').length).toBeLessThan(50);
    expect(Date.now() - started).toBeLessThan(1000); // the whole answer would take over 1 s
  });

  it('does not even send the request when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await collect(openai(), ask('Hi', { signal: controller.signal }));
    expect(error?.kind).toBe('cancelled');
    expect(provider.server.requests).toHaveLength(0);
  });

  it('tells the user to check the server when nothing listens', async () => {
    const port = await freePort();
    const { error } = await collect(openai({ provider: 'ollama', baseUrl: `http://127.0.0.1:${port}/v1` }));
    expect(error?.kind).toBe('network');
    expect(error?.message).toBe(`Can't reach Ollama at http://127.0.0.1:${port}/v1. Is the server running on your machine?`);
  });
});


describe('streamChat against servers as they really behave', () => {
  const recorded = () => {
    const records: UsageRecord[] = [];
    const shapes = memoryShapes();
    const stream = createRouter({ shapes, recordUsage: (record) => void records.push(record), now: () => 1234 });
    const run = (config: LlmConfig, request: RouterRequest = ask()) => collect(config, request, undefined, stream);
    return { records, run };
  };
  const reasoningOf = (events: StreamEvent[]) => events.map((e) => (e.type === 'reasoning' ? e.text : '')).join('');
  const usageContext = { requestId: 'user-00000001:chat-00000002', kind: 'chat' as const, conversationId: 'c1', messageId: 'm1' };

  it.each(['reasoning_content', 'reasoning'] as const)('streams %s as thinking, apart from the answer', async (field) => {
    provider.server.enqueue({ kind: 'openai-stream', reasoning: ['Let me ', 'think.'], reasoningField: field, chunks: ['Paris.'] });
    const { events, text } = await collect(openai());
    expect(reasoningOf(events)).toBe('Let me think.');
    expect(text).toBe('Paris.');
  });

  it('takes the thinking from whichever of the two names is filled, never both', async () => {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    provider.server.enqueue({
      kind: 'raw',
      body: [chunk({ reasoning_content: '', reasoning: 'scratch work' }), chunk({ reasoning_content: ' more', reasoning: ' more' }), chunk({ content: 'Done.' }, 'stop')],
    });
    const { events, text } = await collect(openai());
    expect(reasoningOf(events)).toBe('scratch work more');
    expect(text).toBe('Done.');
  });

  it('reads Mistral’s typed content parts, thinking among them', async () => {
    const chunk = (content: unknown, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
    provider.server.enqueue({
      kind: 'raw',
      body: [chunk([{ type: 'thinking', thinking: [{ type: 'text', text: 'Two plus two.' }] }]), chunk([{ type: 'text', text: 'Four.' }]), chunk('', 'stop'), 'data: [DONE]\n\n'],
    });
    const { events, text } = await collect(openai({ provider: 'mistral' }));
    expect(reasoningOf(events)).toBe('Two plus two.');
    expect(text).toBe('Four.');
  });

  it('moves inline <think> out of the answer, even with the tags split across chunks', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['<thi', 'nk>Is it Lyon?', ' No.</th', 'ink>\n\nParis', '.'] });
    const { events, text } = await collect(openai());
    expect(reasoningOf(events)).toBe('Is it Lyon? No.');
    expect(text).toBe('Paris.');
  });

  it('never turns a tool call the model only drafted in its thinking into a call (XML tool mode)', async () => {
    provider.server.enqueue({
      kind: 'openai-stream',
      chunks: ['<think>Maybe <tool_call>{"name": "read_page", "arguments": {"maxChars": 1}}</tool_call>? No, a bigger one.</think>', 'Reading.', '<tool_call>{"name": "read_page", "arguments": {"maxChars": 2000}}</tool_call>'],
    });
    const { events, text } = await collect(openai(), ask('Read it', { tools: [READ_PAGE], toolMode: 'xml' }));
    expect(ofType(events, 'tool_call').map((e) => e.call.arguments)).toEqual(['{"maxChars":2000}']);
    expect(reasoningOf(events)).toContain('<tool_call>{"name": "read_page", "arguments": {"maxChars": 1}}</tool_call>');
    expect(text).toBe('Reading.');
  });

  it('counts a server’s running usage totals once (vLLM continuous usage stats), with cached and reasoning tokens', async () => {
    provider.server.enqueue({
      kind: 'openai-stream',
      chunks: ['a', 'b', 'c'],
      usageStyle: 'running',
      usage: { prompt_tokens: 50, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 32 }, completion_tokens_details: { reasoning_tokens: 4 } },
    });
    const { records, run } = recorded();
    const { events } = await run(openai(), ask('Hi', { usage: usageContext }));
    expect(ofType(events, 'usage')).toEqual([{ type: 'usage', inputTokens: 50, outputTokens: 9, cachedInputTokens: 32, reasoningTokens: 4 }]);
    expect(records).toEqual([
      {
        requestId: expect.stringMatching(/^user-00000001:chat-00000002:llm-[0-9a-f]{8}$/),
        kind: 'chat',
        conversationId: 'c1',
        messageId: 'm1',
        provider: 'openai',
        baseUrl: openai().baseUrl,
        model: 'test-model',
        inputTokens: 50,
        outputTokens: 9,
        cachedInputTokens: 32,
        reasoningTokens: 4,
        createdAt: 1234,
      },
    ]);
  });

  it('counts Anthropic cache reads inside the input, as the usage record says', async () => {
    provider.server.enqueue({ kind: 'anthropic-stream', chunks: ['Hi'], usage: { input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 3 } });
    const { events } = await collect(anthropic());
    expect(ofType(events, 'usage')).toEqual([{ type: 'usage', inputTokens: 100, outputTokens: 3, cachedInputTokens: 90, reasoningTokens: 0 }]);
  });

  it('streams Anthropic thinking blocks as thinking', async () => {
    provider.server.enqueue({ kind: 'anthropic-stream', thinking: ['Short ', 'question.'], chunks: ['Yes.'] });
    const { events, text } = await collect(anthropic());
    expect(reasoningOf(events)).toBe('Short question.');
    expect(text).toBe('Yes.');
  });

  it('records a finished call whose server reported no usage as unreported zeros, and a failed one not at all', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['ok'] }, { kind: 'error', status: 400 });
    const { records, run } = recorded();
    await run(openai(), ask('Hi', { usage: usageContext }));
    await run(openai(), ask('Hi', { usage: usageContext }));
    expect(records).toEqual([expect.objectContaining({ inputTokens: 0, outputTokens: 0, unreported: true })]);
  });

  it('reports a JSON error sent with HTTP 200 as the server’s error, not as a dropped answer', async () => {
    provider.server.enqueue({
      kind: 'raw',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ error: { message: 'Upstream provider timed out', type: 'upstream_error' } }),
    });
    const { error } = await collect(openai());
    expect(error).toMatchObject({ kind: 'server' });
    expect(error?.message).toBe('OpenAI answered with an error instead of a reply: Upstream provider timed out');
  });

  it('reads the status a 200 JSON error carries (OpenRouter puts the code in the body)', async () => {
    provider.server.enqueue({ kind: 'raw', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ error: { code: 429, message: 'Rate limit exceeded: free-models-per-day' } }) });
    const { error } = await collect(openai({ provider: 'openrouter' }));
    expect(error).toMatchObject({ kind: 'rate-limit', status: 429 });
    expect(error?.message).toContain('Rate limit exceeded: free-models-per-day');
  });

  it('takes a whole JSON completion from a server that ignores stream: true', async () => {
    provider.server.enqueue({ kind: 'openai-json', content: 'Whole answer.', usage: { prompt_tokens: 3, completion_tokens: 2 } });
    const { events, text, error } = await collect(openai());
    expect(error).toBeUndefined();
    expect(text).toBe('Whole answer.');
    expect(ofType(events, 'usage')[0]).toMatchObject({ inputTokens: 3, outputTokens: 2 });
  });

  it('accepts a stream that ends after its finish_reason without [DONE], but not one cut before it', async () => {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    provider.server.enqueue({ kind: 'raw', body: [chunk({ content: 'Done' }), chunk({}, 'stop')] }, { kind: 'raw', body: [chunk({ content: 'Half' })] });
    const whole = await collect(openai());
    expect(whole.error).toBeUndefined();
    expect(whole.text).toBe('Done');
    const cut = await collect(openai());
    expect(cut.text).toBe('Half');
    expect(cut.error?.kind).toBe('stream-cut');
  });

  it.each([
    ['Retry-After in seconds', { 'retry-after': '1' }, 950],
    ['retry-after-ms', { 'retry-after-ms': '400' }, 380],
  ])('waits out Anthropic’s 529 for %s, then answers', async (_name, headers, minimumGap) => {
    provider.server.enqueue({ kind: 'error', status: 529, headers }, { kind: 'anthropic-stream', chunks: ['Back.'] });
    const { text, error } = await collect(anthropic());
    expect(error).toBeUndefined();
    expect(text).toBe('Back.');
    const [first, second] = provider.server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(minimumGap);
  });

  it('waits until a Retry-After HTTP date', async () => {
    const at = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
    provider.server.enqueue({ kind: 'error', status: 503, headers: { 'retry-after': at.toUTCString() } }, { kind: 'openai-stream', chunks: ['ok'] });
    const { error } = await collect(openai());
    expect(error).toBeUndefined();
    expect(provider.server.requests[1]!.at).toBeGreaterThanOrEqual(at.getTime() - 50);
  });

  it('says Anthropic is overloaded when 529 persists', async () => {
    provider.server.enqueue(...Array.from({ length: 3 }, () => ({ kind: 'error' as const, status: 529, headers: { 'retry-after-ms': '10' } })));
    const { error } = await collect(anthropic());
    expect(error?.message).toBe('Anthropic is overloaded right now (HTTP 529): Overloaded Try again in a moment.');
    expect(provider.server.requests).toHaveLength(3);
  });

  it('retries a reasoning model with max_completion_tokens when max_tokens is refused, and remembers it for the model', async () => {
    provider.server.models = ['reasoner-x'];
    provider.server.reasoningModels = ['reasoner-x'];
    provider.server.setDefault({ kind: 'openai-stream', chunks: ['ok'] });
    const { run } = recorded();
    const config = openai({ provider: 'custom', model: 'reasoner-x', maxTokens: 50 });
    expect((await run(config)).error).toBeUndefined();
    expect(provider.server.requests.map((r) => Object.keys(r.json as object).filter((k) => k.startsWith('max_')))).toEqual([['max_tokens'], ['max_completion_tokens']]);
    expect((await run(config)).error).toBeUndefined();
    expect(provider.server.requests).toHaveLength(3);
    expect(bodyOf(2).max_completion_tokens).toBe(50);
  });

  it('reads the field out of a FastAPI-style 422 (vLLM, Mistral: extra inputs are not permitted)', async () => {
    provider.server.enqueue(
      { kind: 'error', status: 422, body: { detail: [{ type: 'extra_forbidden', loc: ['body', 'stream_options'], msg: 'Extra inputs are not permitted' }] } },
      { kind: 'openai-stream', chunks: ['ok'] },
    );
    const { run } = recorded();
    const { error } = await run(openai({ temperature: 0.2 }));
    expect(error).toBeUndefined();
    expect(provider.server.requests.map((r) => ['stream_options', 'temperature'].filter((field) => field in (r.json as object)))).toEqual([['stream_options', 'temperature'], ['temperature']]);
  });

  it('does not retry a 400 that names no field it sent', async () => {
    provider.server.enqueue({ kind: 'error', status: 400, body: openAIErrorBody('Invalid value for top_k', 'invalid_request_error') });
    const { run } = recorded();
    expect((await run(openai())).error?.kind).toBe('bad-request');
    expect(provider.server.requests).toHaveLength(1);
  });

  it('drops a field a strict server rejects by name, and keeps it dropped for that model', async () => {
    provider.server.rejectFields = ['stream_options'];
    provider.server.setDefault({ kind: 'openai-stream', chunks: ['ok'] });
    const { run } = recorded();
    expect((await run(openai())).error).toBeUndefined();
    await run(openai());
    expect(provider.server.requests.map((r) => 'stream_options' in (r.json as object))).toEqual([true, false, false]);
  });
});
