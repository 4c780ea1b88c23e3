import { JawadError } from '../../protocol';
import { PROVIDER_PRESETS, type ProviderId } from '../../protocol/settings';
import type { LlmConfig } from './types';

export type LlmErrorKind =
  | 'auth'
  | 'no-key'
  | 'model-not-found'
  | 'endpoint-not-found'
  | 'origin-refused'
  | 'rate-limit'
  | 'server'
  | 'bad-request'
  | 'tools-unsupported'
  | 'network'
  | 'timeout'
  | 'stream-cut'
  | 'bad-stream'
  | 'cancelled';

/** A provider failure, with a message written for the person reading the sidebar. */
export class LlmError extends JawadError {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(kind === 'cancelled' ? 'CANCELLED' : kind === 'timeout' ? 'TIMEOUT' : 'LLM_ERROR', message, {
      kind,
      ...(status === undefined ? {} : { status }),
    });
    this.name = 'LlmError';
  }

  get retryable(): boolean {
    return this.kind === 'rate-limit' || this.kind === 'server' || this.kind === 'network';
  }
}

export function providerLabel(provider: ProviderId): string {
  return PROVIDER_PRESETS[provider].label.replace(/ \(.*\)$/, '');
}

const TOOL_WORDS = /\btools?\b|tool_choice|function[ _]?call|functions?\b/i;

/** Pulls the human part out of the error bodies OpenAI, Anthropic, Ollama and friends send. */
export function errorTextOf(body: string): string {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const error = json.error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
      return (error as { message: string }).message;
    }
    if (typeof json.message === 'string') return json.message;
    if (typeof json.detail === 'string') return json.detail;
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return body.trim().slice(0, 300);
}

function looksLikeMissingModel(status: number, text: string): boolean {
  if (status !== 404 && status !== 400) return false;
  // Anthropic's not_found_error reads just "model: <name>".
  if (status === 404 && /^model:\s*\S+$/i.test(text)) return true;
  return /model/i.test(text) && /(not[ _]found|does not exist|no such|unknown|not available|invalid model)/i.test(text);
}

/** Maps an HTTP failure to an LlmError whose message tells the user what to do. */
export function errorFromResponse(config: LlmConfig, status: number, body: string, retryAfterMs?: number): LlmError {
  const label = providerLabel(config.provider);
  const text = errorTextOf(body);
  if (status === 401 || (status === 403 && /key|auth|token|credential|permission/i.test(text))) {
    return new LlmError('auth', `Invalid API key. Double-check your ${config.provider} key in Settings.`, status);
  }
  if (status === 403 && text === '') {
    return new LlmError(
      'origin-refused',
      `${label} refused the extension's origin (HTTP 403). Jawad rewrites the Origin header for ${new URL(config.baseUrl).host}; ` +
        'if this persists, start the server with OLLAMA_ORIGINS="chrome-extension://*,moz-extension://*".',
      status,
    );
  }
  if (looksLikeMissingModel(status, text)) {
    return new LlmError('model-not-found', `No model named “${config.model}” on this server. Pick another in Settings.`, status);
  }
  if (status === 404) {
    return new LlmError('endpoint-not-found', `Nothing answers at ${config.baseUrl} (HTTP 404). Check the base URL in Settings — it usually ends in /v1.`, status);
  }
  if (status === 429) {
    const wait = retryAfterMs === undefined ? '' : ` Try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`;
    return new LlmError('rate-limit', `${label} is rate-limiting requests (HTTP 429).${wait}${text ? ` ${text}` : ''}`, status, retryAfterMs);
  }
  // llama-server without --jinja answers 500 "tools param requires --jinja flag".
  if ((status === 400 || status === 422 || (status === 500 && /\btools?\b.*(requires|not supported|unsupported)/i.test(text))) && TOOL_WORDS.test(text)) {
    return new LlmError('tools-unsupported', `${label} rejected tool definitions: ${text}`, status);
  }
  if (status === 529 || (status === 503 && /overload/i.test(text))) {
    return new LlmError('server', `${label} is overloaded right now (HTTP ${status})${text ? `: ${text}` : '.'} Try again in a moment.`, status, retryAfterMs);
  }
  if (status >= 500) {
    return new LlmError('server', `${label} had a server error (HTTP ${status})${text ? `: ${text}` : '.'}`, status, retryAfterMs);
  }
  return new LlmError('bad-request', `${label} rejected the request (HTTP ${status})${text ? `: ${text}` : '.'}`, status);
}

/** An HTTP status a JSON error body implies, for servers that send errors with HTTP 200. */
function impliedStatus(body: Record<string, unknown>, error: Record<string, unknown>, text: string): number | undefined {
  for (const candidate of [error.code, error.status, body.status, body.code]) {
    const status = typeof candidate === 'number' ? candidate : typeof candidate === 'string' && /^\d{3}$/.test(candidate) ? Number(candidate) : undefined;
    if (status !== undefined && status >= 400 && status < 600) return status;
  }
  const type = `${String(error.type ?? '')} ${String(error.code ?? '')}`;
  if (/overloaded/i.test(type)) return 529;
  if (/rate_limit/i.test(type)) return 429;
  if (/auth|invalid_api_key/i.test(type)) return 401;
  if (/not_found|model_not_found/i.test(type) || /model/i.test(text) && /not[ _]found|does not exist/i.test(text)) return 404;
  return undefined;
}

/**
 * Some proxies and gateways answer a streaming request with HTTP 200 and a JSON error body
 * instead of an error status. Returns the error that body describes, or undefined when the JSON
 * is not an error.
 */
export function errorInJsonBody(config: LlmConfig, json: unknown): LlmError | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const body = json as Record<string, unknown>;
  const raw = body.error ?? (body.type === 'error' ? body : undefined);
  if (raw === undefined || raw === null || raw === false) return undefined;
  const error = typeof raw === 'object' ? (raw as Record<string, unknown>) : { message: String(raw) };
  const text = errorTextOf(JSON.stringify(body));
  const status = impliedStatus(body, error, text);
  if (status !== undefined) return errorFromResponse(config, status, JSON.stringify(body));
  return new LlmError('server', `${label(config)} answered with an error instead of a reply: ${text}`);
}

/** An error the server sent inside an already-started stream (Anthropic's `event: error`, an OpenAI chunk with `error`). */
export function midStreamError(config: LlmConfig, error: unknown): LlmError {
  const fields = typeof error === 'object' && error !== null ? (error as { type?: unknown; message?: unknown }) : { message: error };
  const type = typeof fields.type === 'string' ? fields.type : '';
  const text = typeof fields.message === 'string' ? fields.message : type || 'unknown error';
  const kept = 'The partial answer is kept; press Retry.';
  if (/overloaded/i.test(type)) return new LlmError('server', `${label(config)} is overloaded and stopped mid-answer (${type}). ${kept}`, 529);
  if (/rate_limit/i.test(type)) return new LlmError('rate-limit', `${label(config)} is rate-limiting requests and stopped mid-answer: ${text}. ${kept}`, 429);
  return new LlmError('server', `${label(config)} stopped with an error: ${text}${type && type !== text ? ` (${type})` : ''}. ${kept}`);
}

export function networkError(config: LlmConfig): LlmError {
  const local = /^(localhost|127\.|\[::1\])/.test(new URL(config.baseUrl).host);
  const tip = local ? ' Is the server running on your machine?' : ' Check your connection and the base URL.';
  return new LlmError('network', `Can't reach ${label(config)} at ${config.baseUrl}.${tip}`);
}

export function timeoutError(config: LlmConfig, phase: 'first byte' | 'next chunk'): LlmError {
  const what = phase === 'first byte' ? 'did not answer' : 'stopped sending';
  return new LlmError('timeout', `${label(config)} ${what} within ${config.timeoutSeconds} s.`);
}

export function streamCutError(config: LlmConfig): LlmError {
  return new LlmError('stream-cut', `The connection to ${label(config)} dropped mid-answer. The partial answer is kept; press Retry.`);
}

export function badStreamError(config: LlmConfig, detail: string): LlmError {
  return new LlmError('bad-stream', `${label(config)} sent a malformed reply (${detail}). The partial answer is kept; press Retry.`);
}

export const cancelledError = (): LlmError => new LlmError('cancelled', 'Stopped.');

function label(config: LlmConfig): string {
  return providerLabel(config.provider);
}
