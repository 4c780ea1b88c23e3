import { cancelledError, errorFromResponse, LlmError, networkError, timeoutError } from './errors';
import { defaultShape, type RequestShape } from './request-shape';
import type { LlmConfig } from './types';

export const MAX_ATTEMPTS = 3;
const MAX_HONOURED_RETRY_AFTER_MS = 60_000;

type AbortReason = 'cancel' | 'timeout-first-byte' | 'timeout-idle';

/**
 * One provider request with its own AbortController, so the stream reader can enforce an idle
 * timeout and the user's stop button can cancel at any point.
 */
export class ProviderCall {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly detach: () => void;
  /** How to shape requests for this model; an adapter that learns better updates it. */
  shape: RequestShape;

  constructor(
    readonly config: LlmConfig,
    userSignal?: AbortSignal,
    shape?: RequestShape,
  ) {
    this.shape = shape ?? defaultShape(config);
    const onUserAbort = () => this.abort('cancel');
    if (userSignal?.aborted) this.abort('cancel');
    userSignal?.addEventListener('abort', onUserAbort);
    this.detach = () => userSignal?.removeEventListener('abort', onUserAbort);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason: AbortReason): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  /** (Re)arms the watchdog: no byte within timeoutSeconds aborts the call. */
  armTimeout(reason: 'timeout-first-byte' | 'timeout-idle'): void {
    this.disarmTimeout();
    this.timer = setTimeout(() => this.abort(reason), this.config.timeoutSeconds * 1000);
  }

  disarmTimeout(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  finish(): void {
    this.disarmTimeout();
    this.detach();
  }

  /** The LlmError that explains why the signal fired, or undefined when it has not. */
  abortError(): LlmError | undefined {
    if (!this.signal.aborted) return undefined;
    const reason = this.signal.reason as AbortReason;
    if (reason === 'timeout-first-byte') return timeoutError(this.config, 'first byte');
    if (reason === 'timeout-idle') return timeoutError(this.config, 'next chunk');
    return cancelledError();
  }
}

/** Reads Retry-After (seconds or HTTP date) and OpenAI's retry-after-ms. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function backoffMs(attempt: number, random = Math.random): number {
  const base = Math.min(8000, 500 * 2 ** (attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * The parsed body when a server answered a streaming request with plain JSON (a gateway's error
 * with HTTP 200, or a server that ignores `stream: true`); undefined for a real event stream.
 */
export async function jsonInsteadOfStream(response: Response): Promise<{ json: unknown } | undefined> {
  const type = response.headers.get('content-type') ?? '';
  if (!/\bjson\b/i.test(type) || /event-stream/i.test(type)) return undefined;
  const text = await response.text().catch(() => '');
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return { json: text };
  }
}

async function readErrorBody(response: Response): Promise<string> {
  try {
    return (await response.text()).slice(0, 4000);
  } catch {
    return '';
  }
}

/**
 * POSTs to the provider, retrying 429/5xx/network failures with backoff (honouring Retry-After up
 * to a minute). Resolves with a 2xx response whose body is still unread; throws LlmError otherwise.
 */
export async function postWithRetry(call: ProviderCall, url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const error = await attemptOnce(call, url, init);
    if (error instanceof Response) return error;
    const waitMs = error.retryAfterMs ?? backoffMs(attempt);
    const canRetry = error.retryable && attempt < MAX_ATTEMPTS && waitMs <= MAX_HONOURED_RETRY_AFTER_MS;
    if (!canRetry) throw error;
    await sleep(waitMs, call.signal);
    const aborted = call.abortError();
    if (aborted) throw aborted;
  }
}

async function attemptOnce(call: ProviderCall, url: string, init: RequestInit): Promise<Response | LlmError> {
  call.armTimeout('timeout-first-byte');
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: call.signal });
  } catch {
    call.disarmTimeout();
    return call.abortError() ?? networkError(call.config);
  }
  if (response.ok) {
    call.armTimeout('timeout-idle');
    return response;
  }
  const body = await readErrorBody(response);
  call.disarmTimeout();
  const aborted = call.abortError();
  if (aborted) return aborted;
  return errorFromResponse(call.config, response.status, body, retryAfterMs(response.headers));
}
