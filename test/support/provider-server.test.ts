import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseMultipart, startProviderServer } from './provider-server';
import type { ProviderServer } from './provider-server';

// ---------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------

interface SseEvent {
  event?: string;
  data: string;
}

/** A tiny SSE splitter: enough for the well-formed streams the server writes. */
function splitSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.length > 0)
    .map((block) => {
      const out: SseEvent = { data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) out.event = line.slice(7);
        if (line.startsWith('data: ')) out.data = line.slice(6);
      }
      return out;
    });
}

// `any` on purpose: tests poke into parsed wire JSON field by field, and the
// assertions themselves are the type check.
type Loose = any;

function jsonEvents(text: string): Loose[] {
  return splitSse(text)
    .filter((e) => e.data !== '[DONE]')
    .map((e) => JSON.parse(e.data) as Loose);
}

let server: ProviderServer;

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

function chat(extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Response> {
  const body = { model: 'test-model', stream: true, messages: [{ role: 'user', content: 'hi' }], ...extra };
  return post('/v1/chat/completions', body, headers);
}

function messages(extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Response> {
  const body = { model: 'test-model', stream: true, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...extra };
  return post('/v1/messages', body, { 'anthropic-version': '2023-06-01', ...headers });
}

/** Reads a body to its end or until it breaks; returns the text and the error, if any. */
async function readAll(res: Response): Promise<{ text: string; error?: unknown }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

const timeout = (ms: number): Promise<'timeout'> => new Promise((resolve) => setTimeout(() => resolve('timeout'), ms));

beforeAll(async () => {
  server = await startProviderServer();
});

afterEach(() => {
  server.reset();
});

afterAll(async () => {
  await server.close();
});

// ---------------------------------------------------------------------------
// OpenAI chat completions
// ---------------------------------------------------------------------------

describe('openai-stream', () => {
  it('writes the exact chat.completion.chunk SSE sequence', async () => {
    server.enqueue({ kind: 'openai-stream', chunks: ['Hel', 'lo'], usage: { prompt_tokens: 5, completion_tokens: 2 } });
    const res = await chat({ stream_options: { include_usage: true } });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');

    const text = await res.text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const raw = splitSse(text);
    expect(raw.every((e) => e.event === undefined)).toBe(true);
    expect(text.split('\n\n').filter(Boolean).every((block) => block.startsWith('data: ') && !block.includes('\n'))).toBe(true);

    const events = jsonEvents(text);
    expect(events).toHaveLength(5);
    const [first, a, b, finish, usage] = events;
    for (const e of events) {
      expect(e).toMatchObject({ id: first.id, object: 'chat.completion.chunk', model: 'test-model', created: first.created });
    }
    expect(first.id).toMatch(/^chatcmpl-/);
    expect(first.choices).toEqual([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
    // The recorded streams (test/fixtures/providers/openai-node) carry no usage: null before the usage chunk.
    expect(first).not.toHaveProperty('usage');
    expect(a.choices[0].delta).toEqual({ content: 'Hel' });
    expect(b.choices[0].delta).toEqual({ content: 'lo' });
    expect(finish.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toEqual({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
  });

  it('omits the usage chunk and usage fields without usage, honours model and finishReason', async () => {
    server.enqueue({ kind: 'openai-stream', chunks: ['x'], model: 'gpt-x', finishReason: 'length' });
    const events = jsonEvents(await (await chat()).text());
    expect(events).toHaveLength(3);
    expect(events.every((e) => !('usage' in e) && e.model === 'gpt-x')).toBe(true);
    expect(events[2].choices[0].finish_reason).toBe('length');
  });

  it('answers a non-streaming request with a joined chat.completion', async () => {
    server.enqueue(
      { kind: 'openai-stream', chunks: ['Hel', 'lo'], usage: { prompt_tokens: 3, completion_tokens: 2 } },
      { kind: 'openai-stream', chunks: ['a', 'b'] },
    );
    const res = await chat({ stream: false });
    expect(res.headers.get('content-type')).toBe('application/json');
    const body: Loose = await res.json();
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    // Omitting `stream` means non-streaming, as in the real API.
    const omitted: Loose = await (await chat({ stream: undefined })).json();
    expect(omitted.choices[0].message.content).toBe('ab');
  });

  it('writes a malformed event at badChunkAt and carries on', async () => {
    server.enqueue({ kind: 'openai-stream', chunks: ['a', 'b', 'c'], badChunkAt: 1 });
    const blocks = (await (await chat()).text()).split('\n\n');
    expect(blocks[2]).toBe('data: {not json');
    expect(JSON.parse(blocks[1]!.slice(6)).choices[0].delta.content).toBe('a');
    expect(JSON.parse(blocks[3]!.slice(6)).choices[0].delta.content).toBe('c');
    expect(blocks.at(-2)).toBe('data: [DONE]');
  });

  it('spaces events by delayMs', async () => {
    server.enqueue({ kind: 'openai-stream', chunks: ['a', 'b', 'c'], delayMs: 30 });
    const started = Date.now();
    await (await chat()).text();
    // 6 events (role, 3 content, finish, [DONE]) with 30 ms after each.
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('cutAfter destroys the socket mid-answer, without [DONE]', async () => {
    server.enqueue({ kind: 'openai-stream', chunks: ['a', 'b', 'c', 'd'], cutAfter: 2 });
    const { text, error } = await readAll(await chat());
    expect(error).toBeDefined();
    expect(text).not.toContain('[DONE]');
    expect(jsonEvents(text).map((e) => e.choices[0].delta.content)).toEqual(['', 'a', 'b']);
  });
});

describe('openai-tool-stream', () => {
  const args = '{"city":"Paris","unit":"celsius"}';

  it('streams tool_calls deltas in fragments, as OpenAI does', async () => {
    server.enqueue({
      kind: 'openai-tool-stream',
      calls: [
        { id: 'call_1', name: 'get_weather', arguments: args },
        { id: 'call_2', name: 'get_time', arguments: '{}' },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    });
    const text = await (await chat()).text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const events = jsonEvents(text);
    expect(events[0].choices[0].delta).toEqual({ role: 'assistant', content: null });

    const deltas = events.flatMap((e) => e.choices.flatMap((c: Loose) => c.delta.tool_calls ?? []));
    expect(deltas[0]).toEqual({ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } });
    const fragments = deltas.filter((d: Loose) => d.index === 0).slice(1);
    expect(fragments.every((d: Loose) => Object.keys(d).join() === 'index,function' && d.function.arguments.length <= 7)).toBe(true);
    expect(fragments.map((d: Loose) => d.function.arguments).join('')).toBe(args);
    expect(fragments).toHaveLength(Math.ceil(args.length / 7));
    const second = deltas.filter((d: Loose) => d.index === 1);
    expect(second).toEqual([
      { index: 1, id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '' } },
      { index: 1, function: { arguments: '{}' } },
    ]);

    const finish = events.find((e) => e.choices[0]?.finish_reason);
    expect(finish.choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
    expect(events.at(-1).usage).toEqual({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 });
  });

  it('honours fragment size and leading text', async () => {
    server.enqueue({ kind: 'openai-tool-stream', calls: [{ id: 'c', name: 'f', arguments: args }], fragment: 3, text: 'Let me check.' });
    const events = jsonEvents(await (await chat()).text());
    expect(events[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(events[1].choices[0].delta).toEqual({ content: 'Let me check.' });
    const fragments = events.slice(3, -1).map((e) => e.choices[0].delta.tool_calls[0].function.arguments);
    expect(fragments.join('')).toBe(args);
    expect(fragments.every((f) => f.length <= 3)).toBe(true);
  });

  it('whole=true sends each call in one delta (Ollama style)', async () => {
    server.enqueue({
      kind: 'openai-tool-stream',
      whole: true,
      calls: [
        { id: 'a', name: 'f', arguments: args },
        { id: 'b', name: 'g', arguments: '{"x":1}' },
      ],
    });
    const events = jsonEvents(await (await chat()).text());
    const deltas = events.flatMap((e) => e.choices[0].delta.tool_calls ?? []);
    expect(deltas).toEqual([
      { index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: args } },
      { index: 1, id: 'b', type: 'function', function: { name: 'g', arguments: '{"x":1}' } },
    ]);
  });

  it('answers non-streaming requests with message.tool_calls', async () => {
    server.enqueue({ kind: 'openai-tool-stream', calls: [{ id: 'a', name: 'f', arguments: args }] });
    const body: Loose = await (await chat({ stream: false })).json();
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: args } }] },
    });
  });
});

describe('openai-json', () => {
  it('returns a chat.completion object', async () => {
    server.enqueue({ kind: 'openai-json', content: 'Hi there', usage: { prompt_tokens: 4, completion_tokens: 2 } });
    const res = await chat({ stream: false });
    const body: Loose = await res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'test-model',
      system_fingerprint: expect.any(String),
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there', refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
    });
  });

  it('carries tool calls', async () => {
    server.enqueue({ kind: 'openai-json', toolCalls: [{ id: 'call_9', name: 'f', arguments: '{}' }] });
    const body: Loose = await (await chat({ stream: false })).json();
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.tool_calls).toEqual([{ id: 'call_9', type: 'function', function: { name: 'f', arguments: '{}' } }]);
  });
});

// ---------------------------------------------------------------------------
// Anthropic messages
// ---------------------------------------------------------------------------

describe('anthropic-stream', () => {
  it('writes the documented Messages SSE sequence', async () => {
    server.enqueue({ kind: 'anthropic-stream', chunks: ['Hel', 'lo'], usage: { input_tokens: 12, output_tokens: 3 } });
    const res = await messages();
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await res.text();
    const events = splitSse(text);
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    // Every block is exactly `event: X\ndata: {json}`.
    for (const block of text.split('\n\n').filter(Boolean)) expect(block).toMatch(/^event: \w+\ndata: \{.*\}$/);
    const data = events.map((e) => JSON.parse(e.data) as Loose);
    data.forEach((d, i) => expect(d.type).toBe(events[i]!.event));

    expect(data[0].message).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'test-model',
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 1 },
    });
    expect(data[1]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    expect(data[3]).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } });
    expect(data[5]).toEqual({ type: 'content_block_stop', index: 0 });
    // The API repeats the cumulative input and cache counts here (test/fixtures/providers/anthropic-sdk).
    expect(data[6]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 3 },
    });
    expect(data[7]).toEqual({ type: 'message_stop' });
  });

  it('streams tool_use blocks with input_json_delta fragments', async () => {
    const input = { city: 'Paris', days: [1, 2] };
    server.enqueue({ kind: 'anthropic-stream', chunks: ['Checking'], toolUses: [{ id: 'toolu_1', name: 'weather', input, fragment: 5 }] });
    const data = splitSse(await (await messages()).text()).map((e) => JSON.parse(e.data) as Loose);
    const start = data.find((d) => d.type === 'content_block_start' && d.index === 1);
    expect(start.content_block).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} });
    const partials = data.filter((d) => d.delta?.type === 'input_json_delta');
    expect(partials.every((d) => d.index === 1 && d.delta.partial_json.length <= 5)).toBe(true);
    expect(JSON.parse(partials.map((d) => d.delta.partial_json).join(''))).toEqual(input);
    expect(data.find((d) => d.type === 'content_block_stop' && d.index === 1)).toBeDefined();
    expect(data.find((d) => d.type === 'message_delta').delta.stop_reason).toBe('tool_use');
  });

  it('cutAfter truncates after N text deltas', async () => {
    server.enqueue({ kind: 'anthropic-stream', chunks: ['a', 'b', 'c'], cutAfter: 1 });
    const { text, error } = await readAll(await messages());
    expect(error).toBeDefined();
    const names = splitSse(text).map((e) => e.event);
    expect(names).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta']);
  });

  it('answers a non-streaming request with a message object', async () => {
    server.enqueue({ kind: 'anthropic-stream', chunks: ['Hi', '!'], stopReason: 'max_tokens', usage: { input_tokens: 2, output_tokens: 2 } });
    const body: Loose = await (await messages({ stream: false })).json();
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Hi!' }],
      stop_reason: 'max_tokens',
      usage: { input_tokens: 2, output_tokens: 2 },
    });
  });
});

// ---------------------------------------------------------------------------
// errors, auth, models
// ---------------------------------------------------------------------------

describe('errors', () => {
  it('uses provider-shaped default bodies and custom headers', async () => {
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '1' } }, { kind: 'error', status: 529 });
    const openai = await chat();
    expect(openai.status).toBe(429);
    expect(openai.headers.get('retry-after')).toBe('1');
    expect(openai.headers.get('content-type')).toBe('application/json');
    expect(await openai.json()).toEqual({
      error: { message: expect.any(String), type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    const anthropic = await messages();
    expect(anthropic.status).toBe(529);
    expect(await anthropic.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('sends a custom body verbatim', async () => {
    server.enqueue({ kind: 'error', status: 502, body: { detail: 'bad gateway' } }, { kind: 'error', status: 502, body: '<html>502</html>' });
    expect(await (await chat()).json()).toEqual({ detail: 'bad gateway' });
    expect(await (await chat()).text()).toBe('<html>502</html>');
  });

  it('rejects bad-key with 401 in each provider format; no key or a good key is fine', async () => {
    server.setDefault({ kind: 'openai-json', content: 'ok' });
    const openai = await chat({}, { authorization: 'Bearer bad-key' });
    expect(openai.status).toBe(401);
    const openaiBody: Loose = await openai.json();
    expect(openaiBody.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
    expect(openaiBody.error.message).toMatch(/^Incorrect API key provided: bad-key/);

    const anthropic = await messages({}, { 'x-api-key': 'bad-key' });
    expect(anthropic.status).toBe(401);
    expect(await anthropic.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });

    expect((await chat({ stream: false })).status).toBe(200);
    expect((await chat({ stream: false }, { authorization: 'Bearer sk-good' })).status).toBe(200);
  });

  it('404s an unknown model before consuming the queue', async () => {
    server.enqueue({ kind: 'openai-json', content: 'first' });
    const openai = await chat({ model: 'nope' });
    expect(openai.status).toBe(404);
    expect(await openai.json()).toEqual({
      error: {
        message: 'The model `nope` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    });
    const anthropic = await messages({ model: 'claude-nope' });
    expect(anthropic.status).toBe(404);
    expect(await anthropic.json()).toEqual({ type: 'error', error: { type: 'not_found_error', message: 'model: claude-nope' } });

    const ok: Loose = await (await chat({ stream: false })).json();
    expect(ok.choices[0].message.content).toBe('first');
  });

  it('400s a body that is not JSON', async () => {
    const res = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{oops' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Loose).error.type).toBe('invalid_request_error');
  });

  it('500s with an explanation when nothing is scripted', async () => {
    const res = await chat();
    expect(res.status).toBe(500);
    expect(((await res.json()) as Loose).error.message).toMatch(/scripted no reply/);
  });
});

describe('models', () => {
  it('serves /v1/models and /api/tags', async () => {
    server.models = ['llama3:8b', 'qwen'];
    const list: Loose = await (await fetch(`${server.url}/v1/models`)).json();
    expect(list).toEqual({
      object: 'list',
      data: [
        { id: 'llama3:8b', object: 'model', created: expect.any(Number), owned_by: expect.any(String) },
        { id: 'qwen', object: 'model', created: expect.any(Number), owned_by: expect.any(String) },
      ],
    });
    const tags: Loose = await (await fetch(`${server.url}/api/tags`)).json();
    expect(tags.models.map((m: Loose) => [m.name, m.model])).toEqual([
      ['llama3:8b', 'llama3:8b'],
      ['qwen', 'qwen'],
    ]);
    expect(tags.models[0]).toMatchObject({ digest: expect.stringMatching(/^[0-9a-f]{64}$/), details: { format: 'gguf' } });
  });

  it('uses the new model list for the model check', async () => {
    server.models = ['other'];
    expect((await chat()).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------
// CORS and Ollama origins
// ---------------------------------------------------------------------------

describe('CORS', () => {
  const extensionOrigin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

  function preflight(origin: string): Promise<Response> {
    return fetch(`${server.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
  }

  it('answers preflights permissively and echoes the origin', async () => {
    const res = await preflight(extensionOrigin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(extensionOrigin);
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    server.enqueue({ kind: 'openai-json', content: 'x' });
    const normal = await chat({ stream: false }, { origin: extensionOrigin });
    expect(normal.headers.get('access-control-allow-origin')).toBe(extensionOrigin);
  });

  it('ollamaOrigins: 403 with empty body and no CORS headers for extension origins', async () => {
    server.ollamaOrigins = true;
    server.setDefault({ kind: 'openai-json', content: 'ok' });
    for (const origin of [extensionOrigin, 'moz-extension://1234-5678', 'https://example.com']) {
      const res = await chat({ stream: false }, { origin });
      expect(res.status).toBe(403);
      expect(await res.text()).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect((await preflight(origin)).status).toBe(403);
    }
    for (const origin of ['http://localhost:5173', 'https://127.0.0.1', 'http://localhost']) {
      const res = await chat({ stream: false }, { origin });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    }
    expect((await chat({ stream: false })).status).toBe(200);
    expect(server.requests.length).toBe(10); // blocked requests are recorded too
  });
});

// ---------------------------------------------------------------------------
// transcriptions and multipart
// ---------------------------------------------------------------------------

describe('transcriptions', () => {
  function upload(fields: Record<string, string>, file?: Uint8Array<ArrayBuffer>): Promise<Response> {
    const form = new FormData();
    if (file) form.append('file', new Blob([file], { type: 'audio/webm' }), 'clip.webm');
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return fetch(`${server.url}/v1/audio/transcriptions`, { method: 'POST', body: form });
  }

  const audio = new Uint8Array([0, 1, 2, 13, 10, 45, 45, 255, 13, 10]); // includes CRLF and "--"

  it('parses the multipart body and answers {text}', async () => {
    server.enqueue({ kind: 'transcription', text: 'hello world' });
    const res = await upload({ model: 'whisper-1', language: 'en' }, audio);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: 'hello world' });
    const [req] = await server.waitForRequests(1);
    expect(req!.multipart).toEqual([
      { name: 'file', filename: 'clip.webm', contentType: 'audio/webm', data: Buffer.from(audio) },
      { name: 'model', data: Buffer.from('whisper-1') },
      { name: 'language', data: Buffer.from('en') },
    ]);
  });

  it('answers plain text for response_format=text', async () => {
    server.enqueue({ kind: 'transcription', text: 'plain' });
    const res = await upload({ model: 'whisper-1', response_format: 'text' }, audio);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('plain');
  });

  it('400s without a file or a model, without consuming the queue', async () => {
    server.enqueue({ kind: 'transcription', text: 'kept' });
    const noFile = await upload({ model: 'whisper-1' });
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as Loose).error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('file') });
    const noModel = await upload({}, audio);
    expect(noModel.status).toBe(400);
    expect(((await noModel.json()) as Loose).error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('model') });
    expect(await (await upload({ model: 'whisper-1' }, audio)).json()).toEqual({ text: 'kept' });
  });

  it('parseMultipart handles quoted boundaries, header-less parts and the preamble', () => {
    const body = Buffer.concat([
      Buffer.from('preamble\r\n--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n'),
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="f"; filename="we \\"ird\\".bin"\r\nContent-Type: application/octet-stream\r\n\r\n'),
      Buffer.from([13, 10, 45, 45, 88, 0]),
      Buffer.from('\r\n--XyZ\r\n\r\nnameless\r\n--XyZ\r\nContent-Disposition: form-data; name="empty"\r\n\r\n\r\n--XyZ--\r\n'),
    ]);
    expect(parseMultipart(body, 'multipart/form-data; boundary="XyZ"')).toEqual([
      { name: 'a', data: Buffer.from('1') },
      { name: 'f', filename: 'we "ird".bin', contentType: 'application/octet-stream', data: Buffer.from([13, 10, 45, 45, 88, 0]) },
      { name: 'empty', data: Buffer.alloc(0) },
    ]);
    expect(parseMultipart(body, 'application/json')).toBeUndefined();
    expect(parseMultipart(Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated'), 'multipart/form-data; boundary=XyZ')).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------
// queue, recording, reset
// ---------------------------------------------------------------------------

describe('queue and recording', () => {
  it('consumes replies in FIFO order across endpoints, then the default', async () => {
    server.enqueue({ kind: 'openai-json', content: 'one' }, { kind: 'openai-json', content: 'two' });
    server.setDefault({ kind: 'openai-json', content: 'default' });
    const contents: string[] = [];
    for (let i = 0; i < 4; i++) {
      const body: Loose = await (await chat({ stream: false })).json();
      contents.push(body.choices[0].message.content);
    }
    expect(contents).toEqual(['one', 'two', 'default', 'default']);
    server.setDefault(undefined);
    expect((await chat()).status).toBe(500);
  });

  it('records every request with headers and parsed JSON', async () => {
    server.enqueue({ kind: 'openai-json', content: 'x' });
    await fetch(`${server.url}/v1/models?limit=5`, { headers: { authorization: 'Bearer sk-1' } });
    await chat({ stream: false, temperature: 0.5 }, { 'x-custom': 'yes' });
    const reqs = await server.waitForRequests(2);
    expect(reqs.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models?limit=5', 'POST /v1/chat/completions']);
    expect(reqs[0]!.headers.authorization).toBe('Bearer sk-1');
    expect(reqs[0]!.rawBody.length).toBe(0);
    expect(reqs[1]!.headers['x-custom']).toBe('yes');
    expect(reqs[1]!.json).toMatchObject({ model: 'test-model', temperature: 0.5 });
    expect(reqs[1]!.rawBody.toString()).toBe(JSON.stringify(reqs[1]!.json));
    expect(reqs[1]!.at).toBeGreaterThanOrEqual(reqs[0]!.at);
  });

  it('waitForRequests waits for late requests and times out with a useful error', async () => {
    const waiting = server.waitForRequests(1, 1000);
    setTimeout(() => void fetch(`${server.url}/api/tags`), 20);
    expect((await waiting)[0]!.path).toBe('/api/tags');
    await expect(server.waitForRequests(5, 50)).rejects.toThrow(/wanted 5 requests.*got 1/);
  });

  it('reset clears everything', async () => {
    server.enqueue({ kind: 'openai-json', content: 'x' });
    server.setDefault({ kind: 'openai-json', content: 'y' });
    server.ollamaOrigins = true;
    server.models = ['m'];
    await fetch(`${server.url}/v1/models`);
    server.reset();
    expect(server.requests).toEqual([]);
    expect(server.ollamaOrigins).toBe(false);
    expect(server.models).toEqual(['test-model']);
    expect((await chat()).status).toBe(500);
  });
});

// ---------------------------------------------------------------------------
// stalls and close()
// ---------------------------------------------------------------------------

describe('stalls and close', () => {
  it('stall: never answers, and close() does not hang', async () => {
    const own = await startProviderServer();
    own.enqueue({ kind: 'stall' });
    const pending = fetch(`${own.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'test-model', stream: true }),
    });
    const settled = pending.then(
      () => 'answered',
      () => 'failed',
    );
    await own.waitForRequests(1);
    expect(await Promise.race([settled, timeout(150)])).toBe('timeout');
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await settled).toBe('failed');
  });

  it('stallAfter: stops after N content chunks with the stream open, until close()', async () => {
    const own = await startProviderServer();
    own.enqueue({ kind: 'openai-stream', chunks: ['a', 'b', 'c'], stallAfter: 2 });
    const res = await fetch(`${own.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'test-model', stream: true }),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // Wait for 3 complete events (role chunk + 2 content chunks).
    while (text.split('\n\n').length - 1 < 3) text += decoder.decode((await reader.read()).value, { stream: true });
    expect(jsonEvents(text).map((e) => e.choices[0].delta.content)).toEqual(['', 'a', 'b']);

    const next = reader.read().then(
      () => 'data',
      () => 'failed',
    );
    expect(await Promise.race([next, timeout(150)])).toBe('timeout');
    await own.close();
    expect(await next).toBe('failed');
  });
});
