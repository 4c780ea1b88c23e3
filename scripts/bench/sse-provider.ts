/**
 * A tiny OpenAI-compatible provider for the benchmark that records WHEN each streamed chunk left
 * the process. test/support/provider-server.ts speaks the same wire format but does not expose
 * write times, and the tests' helpers stay untouched.
 *
 * Wire format (OpenAI Chat Completions, `stream: true`): `data: {chat.completion.chunk}\n\n` events —
 * first a delta with the role, then one delta per content chunk, then a chunk with finish_reason,
 * then (with stream_options.include_usage) a usage-only chunk with `choices: []`, then
 * `data: [DONE]\n\n`. With include_usage, every chunk before the usage one carries `usage: null`.
 *
 * Timestamps are `performance.timeOrigin + performance.now()` taken just after each event is handed
 * to the kernel (see writeEvent): the same epoch clock as the browser's
 * `performance.timeOrigin + performance.now()`, since both processes run on this machine.
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export const BENCH_MODEL = 'test-model';

export interface ChunkWrite {
  /** Index into the scripted chunks. */
  index: number;
  /** Epoch ms (sub-ms precision) just after the event was sent to the socket. */
  at: number;
  /** Epoch ms when res.write's callback ran (later; for reference only). */
  callbackAt: number;
}

export interface ScriptedStream {
  chunks: string[];
  delayMs: number;
}

export interface BenchProvider {
  /** Base URL without /v1. */
  url: string;
  /** Plays `stream` for the next chat request; resolves with the write times once it has been sent. */
  script(stream: ScriptedStream): Promise<ChunkWrite[]>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const epochNow = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** A short answer for requests nobody scripted (warm-up messages). */
const DEFAULT_STREAM: ScriptedStream = { chunks: ['Ready', '.'], delayMs: 0 };

function readJson(req: IncomingMessage): Promise<Json> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('error', reject);
    req.on('end', () => {
      try {
        const text = Buffer.concat(parts).toString('utf8');
        resolve(text ? (JSON.parse(text) as Json) : {});
      } catch {
        resolve({});
      }
    });
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Writes one SSE event; resolves with the epoch time the bytes went to the kernel (undefined if the
 * client left). Node's http corks the socket on write and uncorks it — the actual send — in a
 * process.nextTick queued by that write; a nextTick queued after it runs right after the send.
 * (The write callback comes later, once the event loop gets round to it: under load that was seen
 * to lag the send by ~20 ms, enough to make the DOM appear to update before the write.)
 */
function writeEvent(res: ServerResponse, data: string): Promise<{ sentAt: number; flushedAt: Promise<number> } | undefined> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const flushedAt = new Promise<number>((flushed) => res.write(`data: ${data}\n\n`, () => flushed(epochNow())));
    process.nextTick(() => resolve({ sentAt: epochNow(), flushedAt }));
  });
}

class ChunkFactory {
  private readonly id = `chatcmpl-${randomBytes(12).toString('hex')}`;
  private readonly created = Math.floor(Date.now() / 1000);

  constructor(private readonly withUsage: boolean) {}

  chunk(delta: Json, finishReason: string | null = null): string {
    const choice = { index: 0, delta, logprobs: null, finish_reason: finishReason };
    return JSON.stringify({ ...this.base(), choices: [choice], ...(this.withUsage ? { usage: null } : {}) });
  }

  usage(completionTokens: number): string {
    const usage = { prompt_tokens: 12, completion_tokens: completionTokens, total_tokens: 12 + completionTokens };
    return JSON.stringify({ ...this.base(), choices: [], usage });
  }

  private base(): Json {
    return { id: this.id, object: 'chat.completion.chunk', created: this.created, model: BENCH_MODEL, system_fingerprint: 'fp_jawad_bench' };
  }
}

async function playStream(res: ServerResponse, stream: ScriptedStream, withUsage: boolean): Promise<ChunkWrite[]> {
  const factory = new ChunkFactory(withUsage);
  const writes: ChunkWrite[] = [];
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.flushHeaders();
  await writeEvent(res, factory.chunk({ role: 'assistant', content: '' }));
  for (const [index, content] of stream.chunks.entries()) {
    await sleep(stream.delayMs);
    const sent = await writeEvent(res, factory.chunk({ content }));
    if (sent === undefined) return writes;
    writes.push({ index, at: sent.sentAt, callbackAt: await sent.flushedAt });
  }
  await writeEvent(res, factory.chunk({}, 'stop'));
  if (withUsage) await writeEvent(res, factory.usage(stream.chunks.length));
  await writeEvent(res, '[DONE]');
  res.end();
  return writes;
}

function allowCors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
  res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
}

export async function startBenchProvider(): Promise<BenchProvider> {
  const pending: Array<{ stream: ScriptedStream; done: (writes: ChunkWrite[]) => void }> = [];

  async function chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const next = pending.shift();
    const stream = next?.stream ?? DEFAULT_STREAM;
    if (body.stream !== true) {
      const message = { role: 'assistant', content: stream.chunks.join(''), refusal: null };
      sendJson(res, 200, { id: 'chatcmpl-bench', object: 'chat.completion', created: 0, model: BENCH_MODEL, choices: [{ index: 0, message, logprobs: null, finish_reason: 'stop' }] });
      next?.done([]);
      return;
    }
    const options = body.stream_options as { include_usage?: boolean } | undefined;
    const writes = await playStream(res, stream, options?.include_usage === true);
    next?.done(writes);
  }

  const server = http.createServer({ noDelay: true }, (req, res) => {
    allowCors(req, res);
    const route = `${req.method ?? ''} ${new URL(req.url ?? '/', 'http://localhost').pathname}`;
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      res.end();
    } else if (route === 'GET /v1/models') {
      sendJson(res, 200, { object: 'list', data: [{ id: BENCH_MODEL, object: 'model', created: 1_700_000_000, owned_by: 'bench' }] });
    } else if (route === 'POST /v1/chat/completions') {
      chat(req, res).catch((error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))));
    } else {
      sendJson(res, 404, { error: { message: `Invalid URL (${route})`, type: 'invalid_request_error', param: null, code: null } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // a TCP listener, so never a string

  return {
    url: `http://127.0.0.1:${port}`,
    script: (stream) => new Promise((done) => pending.push({ stream, done })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
