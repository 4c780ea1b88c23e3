import { describe, expect, it } from 'vitest';
import { listModels } from '../../../src/background/llm/models';
import { testConnection } from '../../../src/background/llm/test-connection';
import { useProviderServer } from '../../support/use-provider-server';

const provider = useProviderServer();
const config = provider.config;

describe('testConnection', () => {
  it('succeeds with the latency and the listed models', async () => {
    provider.server.models = ['other-model', 'test-model'];
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['OK'] });
    const result = await testConnection(config());
    expect(result).toEqual({ success: true, latencyMs: expect.any(Number), models: ['other-model', 'test-model'] });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(provider.server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
    // A tiny test: capped output.
    expect((provider.server.requests[1]!.json as { max_tokens?: number }).max_tokens).toBe(16);
  });

  it('fails when the model is not on the server, listing what is', async () => {
    provider.server.models = ['llama3.1', 'qwen2.5'];
    const result = await testConnection(config({ model: 'gpt-9' }));
    expect(result).toEqual({
      success: false,
      error: 'No model named “gpt-9” on this server. Available: llama3.1, qwen2.5',
      models: ['llama3.1', 'qwen2.5'],
    });
    expect(provider.server.requests).toHaveLength(1);
  });

  it('shortens a long model list', async () => {
    provider.server.models = Array.from({ length: 12 }, (_, i) => `m${i}`);
    const result = await testConnection(config({ model: 'gpt-9' }));
    expect(result.error).toMatch(/Available: m0, m1, m2, m3, m4, m5, m6, m7, …$/);
    expect(result.models).toHaveLength(12);
  });

  it('fails with the auth message on a bad key', async () => {
    const result = await testConnection(config({ apiKey: 'bad-key' }));
    expect(result).toEqual({ success: false, error: 'Invalid API key. Double-check your openai key in Settings.' });
    expect(provider.server.requests).toHaveLength(1);
  });

  it('fails when the chat itself fails even though the model is listed', async () => {
    provider.server.enqueue({ kind: 'error', status: 400, body: { error: { message: 'streaming is disabled' } } });
    const result = await testConnection(config());
    expect(result.success).toBe(false);
    expect(result.error).toContain('streaming is disabled');
    expect(result.models).toEqual(['test-model']);
  });

  it('tests the chat anyway on a server without a model list, and reports a wrong base URL', async () => {
    const result = await testConnection(config({ baseUrl: `${provider.server.url}/v2` }));
    expect(result.success).toBe(false);
    expect(result.error).toContain('Check the base URL');
    expect(result.models).toBeUndefined();
    expect(provider.server.requests.map((r) => r.path)).toEqual(['/v2/models', '/v2/chat/completions']);
  });

  it('works against Anthropic', async () => {
    provider.server.enqueue({ kind: 'anthropic-stream', chunks: ['OK'] });
    const result = await testConnection(config({ provider: 'anthropic' }));
    expect(result.success).toBe(true);
    expect(provider.server.requests[0]!.headers['x-api-key']).toBe('sk-test');
  });
});

describe('listModels', () => {
  it('returns the model ids the server lists', async () => {
    provider.server.models = ['a', 'b'];
    expect(await listModels(config())).toEqual(['a', 'b']);
  });

  it('returns undefined when the server has no list or an empty one', async () => {
    expect(await listModels(config({ baseUrl: `${provider.server.url}/nowhere` }))).toBeUndefined();
    provider.server.models = [];
    expect(await listModels(config())).toBeUndefined();
  });
});
