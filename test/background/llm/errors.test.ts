import { describe, expect, it } from 'vitest';
import { errorFromResponse, errorTextOf, LlmError, networkError } from '../../../src/background/llm/errors';
import type { LlmConfig } from '../../../src/background/llm/types';

const openai: LlmConfig = { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', timeoutSeconds: 60 };
const ollama: LlmConfig = { provider: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1', timeoutSeconds: 60 };
const json = (value: unknown) => JSON.stringify(value);

describe('errorTextOf', () => {
  it('pulls the message out of the common error body shapes', () => {
    expect(errorTextOf(json({ error: { message: 'Incorrect API key', type: 'x' } }))).toBe('Incorrect API key');
    expect(errorTextOf(json({ error: 'model "x" not found, try pulling it first' }))).toBe('model "x" not found, try pulling it first');
    expect(errorTextOf(json({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }))).toBe('Overloaded');
    expect(errorTextOf(json({ message: 'plain message' }))).toBe('plain message');
    expect(errorTextOf(json({ detail: 'Not Found' }))).toBe('Not Found');
  });

  it('falls back to the trimmed raw text, capped at 300 characters', () => {
    expect(errorTextOf('  Bad Gateway \n')).toBe('Bad Gateway');
    expect(errorTextOf('x'.repeat(1000))).toHaveLength(300);
    expect(errorTextOf('')).toBe('');
  });
});

describe('errorFromResponse', () => {
  it('maps 401 to an auth error naming the provider', () => {
    const error = errorFromResponse(openai, 401, json({ error: { message: 'Incorrect API key provided' } }));
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ kind: 'auth', status: 401, code: 'LLM_ERROR', retryable: false });
    expect(error.message).toBe('Invalid API key. Double-check your openai key in Settings.');
  });

  it('maps a 403 that talks about the key to auth', () => {
    expect(errorFromResponse(openai, 403, json({ error: { message: 'permission denied for this key' } })).kind).toBe('auth');
  });

  it('maps Ollama’s empty-body 403 to origin-refused with the fix', () => {
    const error = errorFromResponse(ollama, 403, '');
    expect(error.kind).toBe('origin-refused');
    expect(error.message).toContain('localhost:11434');
    expect(error.message).toContain('OLLAMA_ORIGINS');
  });

  it('maps an unknown model to model-not-found, naming the model', () => {
    const body = json({ error: { message: 'The model `gpt-9` does not exist or you do not have access to it.' } });
    const error = errorFromResponse({ ...openai, model: 'gpt-9' }, 404, body);
    expect(error.kind).toBe('model-not-found');
    expect(error.message).toContain('gpt-9');
    expect(errorFromResponse(ollama, 404, json({ error: "model 'llama9' not found" })).kind).toBe('model-not-found');
    const anthropic: LlmConfig = { provider: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-nope', timeoutSeconds: 60 };
    const anthropicBody = json({ type: 'error', error: { type: 'not_found_error', message: 'model: claude-nope' } });
    expect(errorFromResponse(anthropic, 404, anthropicBody).kind).toBe('model-not-found');
  });

  it('maps any other 404 to a wrong base URL', () => {
    const error = errorFromResponse(openai, 404, '404 page not found');
    expect(error.kind).toBe('endpoint-not-found');
    expect(error.message).toContain('https://api.openai.com/v1');
    expect(error.message).toContain('/v1');
  });

  it('maps 429 to a retryable rate limit with the wait rounded up', () => {
    const error = errorFromResponse(openai, 429, json({ error: { message: 'Rate limit reached' } }), 2500);
    expect(error).toMatchObject({ kind: 'rate-limit', retryAfterMs: 2500, retryable: true });
    expect(error.message).toContain('Try again in 3 s.');
    expect(error.message).toContain('Rate limit reached');
  });

  it('maps a 400 or 422 about tools to tools-unsupported', () => {
    expect(errorFromResponse(ollama, 400, json({ error: 'registry.ollama.ai/library/gemma does not support tools' })).kind).toBe('tools-unsupported');
    expect(errorFromResponse(openai, 422, json({ detail: 'tool_choice is not supported' })).kind).toBe('tools-unsupported');
    expect(errorFromResponse(openai, 500, json({ error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } })).kind).toBe('tools-unsupported');
    expect(errorFromResponse(openai, 500, json({ error: { message: 'tool call parser crashed' } })).kind).toBe('server');
  });

  it('maps 5xx to a retryable server error with the text', () => {
    const error = errorFromResponse(openai, 500, json({ error: { message: 'boom' } }));
    expect(error).toMatchObject({ kind: 'server', status: 500, retryable: true });
    expect(error.message).toBe('OpenAI had a server error (HTTP 500): boom');
  });

  it('says "overloaded" for Anthropic’s 529 and a 503 that says so, and still retries them', () => {
    const anthropic = { ...openai, provider: 'anthropic' as const };
    const error = errorFromResponse(anthropic, 529, json({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), 2000);
    expect(error).toMatchObject({ kind: 'server', status: 529, retryable: true, retryAfterMs: 2000 });
    expect(error.message).toBe('Anthropic is overloaded right now (HTTP 529): Overloaded Try again in a moment.');
    expect(errorFromResponse(openai, 503, json({ error: { message: 'The engine is currently overloaded' } })).message).toMatch(/^OpenAI is overloaded right now \(HTTP 503\)/);
  });

  it('maps other 4xx to a non-retryable bad request', () => {
    const error = errorFromResponse(openai, 400, json({ error: { message: 'max_tokens is too large' } }));
    expect(error).toMatchObject({ kind: 'bad-request', retryable: false });
    expect(error.message).toContain('max_tokens is too large');
  });

  it('carries kind and status in details that survive messaging', () => {
    expect(errorFromResponse(openai, 500, '').toPayload()).toEqual({
      code: 'LLM_ERROR',
      message: 'OpenAI had a server error (HTTP 500).',
      details: { kind: 'server', status: 500 },
    });
  });
});

describe('LlmError codes', () => {
  it('uses CANCELLED and TIMEOUT for those kinds, LLM_ERROR otherwise', () => {
    expect(new LlmError('cancelled', 'Stopped.').code).toBe('CANCELLED');
    expect(new LlmError('timeout', 't').code).toBe('TIMEOUT');
    expect(new LlmError('stream-cut', 's').code).toBe('LLM_ERROR');
  });
});

describe('networkError', () => {
  it('suggests starting a local server, or checking the connection for a remote one', () => {
    expect(networkError(ollama).message).toBe("Can't reach Ollama at http://localhost:11434/v1. Is the server running on your machine?");
    expect(networkError(openai).message).toContain('Check your connection and the base URL.');
    expect(networkError(openai).retryable).toBe(true);
  });
});
