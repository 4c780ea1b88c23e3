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
  if ((status === 400 || status === 422) && TOOL_WORDS.test(text)) {
    return new LlmError('tools-unsupported', `${label} rejected tool definitions: ${text}`, status);
  }
  if (status >= 500) {
    return new LlmError('server', `${label} had a server error (HTTP ${status})${text ? `: ${text}` : '.'}`, status, retryAfterMs);
  }
  return new LlmError('bad-request', `${label} rejected the request (HTTP ${status})${text ? `: ${text}` : '.'}`, status);
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
