import { describe, expect, it } from 'vitest';
import type { ConnectionCheck, UsageRecord } from '../../../src/protocol';
import { findModel, listModels } from '../../../src/background/llm/models';
import { createRouter, memoryShapes } from '../../../src/background/llm/router';
import { createConnectionTest } from '../../../src/background/llm/test-connection';
import { useProviderServer } from '../../support/use-provider-server';

const provider = useProviderServer();
const config = provider.config;
const REQ = 'user-0000test';

function tester() {
  const records: UsageRecord[] = [];
  const test = createConnectionTest(createRouter({ shapes: memoryShapes(), recordUsage: (record) => void records.push(record) }));
  return { records, run: (extra: Parameters<typeof config>[0] = {}) => test(config(extra), REQ) };
}

const line = (checks: ConnectionCheck[] | undefined, name: ConnectionCheck['name']) => checks?.find((check) => check.name === name);
const paths = () => provider.server.requests.map((r) => `${r.method} ${r.path}`);

describe('testConnection', () => {
  it('passes with one line per check, the latency and the listed models', async () => {
    provider.server.models = ['other-model', 'test-model'];
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['OK'], usage: { prompt_tokens: 12, completion_tokens: 1 } });
    const { run, records } = tester();
    const result = await run();
    expect(result).toMatchObject({ success: true, latencyMs: expect.any(Number), models: ['other-model', 'test-model'] });
    expect(result.checks?.map((check) => [check.name, check.status])).toEqual([
      ['reachable', 'ok'],
      ['key', 'ok'],
      ['model', 'ok'],
      ['streaming', 'ok'],
      ['tools', 'ok'],
    ]);
    expect(line(result.checks, 'model')?.detail).toBe('test-model is listed (2 models)');
    expect(paths()).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
    // A tiny test: capped output, with a probe tool to learn whether native tools work.
    const body = provider.server.requests[1]!.json as { max_completion_tokens?: number; tools?: unknown[] };
    expect(body.max_completion_tokens).toBe(16);
    expect(body.tools).toHaveLength(1);
    // The test's own model call is counted like any other.
    expect(records).toEqual([expect.objectContaining({ kind: 'test-connection', inputTokens: 12, outputTokens: 1, model: 'test-model' })]);
    expect(records[0]!.requestId).toMatch(new RegExp(`^${REQ}:llm-[0-9a-f]{8}$`));
  });

  it('passes for llama3.1 when Ollama lists llama3.1:latest', async () => {
    provider.server.models = ['qwen2.5:7b', 'llama3.1:latest'];
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['OK'] });
    const result = await tester().run({ provider: 'ollama', model: 'llama3.1', apiKey: undefined });
    expect(result.success).toBe(true);
    expect(line(result.checks, 'model')).toEqual({ name: 'model', status: 'ok', detail: 'llama3.1 is listed as llama3.1:latest' });
    expect(line(result.checks, 'key')?.detail).toBe('none needed');
  });

  it('passes for an Anthropic alias missing from a paginated list, resolved through GET /models/{id}', async () => {
    provider.server.models = Array.from({ length: 5 }, (_, i) => `claude-model-${i}-20250101`);
    provider.server.aliases = { 'claude-model-4-latest': 'claude-model-4-20250101' };
    provider.server.modelPageSize = 2;
    provider.server.enqueue({ kind: 'anthropic-stream', chunks: ['OK'] });
    const result = await tester().run({ provider: 'anthropic', model: 'claude-model-4-latest' });
    expect(result.success).toBe(true);
    expect(result.models).toHaveLength(5);
    expect(line(result.checks, 'model')?.detail).toBe('claude-model-4-latest resolves to claude-model-4-20250101');
    expect(paths()).toEqual([
      'GET /v1/models?limit=1000',
      'GET /v1/models?limit=1000&after_id=claude-model-1-20250101',
      'GET /v1/models?limit=1000&after_id=claude-model-3-20250101',
      'GET /v1/models/claude-model-4-latest',
      'POST /v1/messages',
    ]);
  });

  it('passes for a llama.cpp server that lists its model file, whatever name is configured', async () => {
    provider.server.models = ['/models/Qwen2.5-7B-Instruct-Q4_K_M.gguf'];
    provider.server.anyModel = true;
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['OK'] });
    const result = await tester().run({ provider: 'llamacpp', model: 'default' });
    expect(result.success).toBe(true);
    expect(line(result.checks, 'model')).toEqual({ name: 'model', status: 'warn', detail: "default is not in the server's list, but answered" });
  });

  it('passes for a reasoning model that refuses max_tokens, and says it thinks', async () => {
    provider.server.models = ['o3-mini'];
    provider.server.reasoningModels = ['o3-mini'];
    provider.server.enqueue({ kind: 'openai-stream', reasoning: ['Hmm.'], chunks: ['OK'] });
    const result = await tester().run({ provider: 'custom', model: 'o3-mini' });
    expect(result.success).toBe(true);
    expect(line(result.checks, 'streaming')?.detail).toBe('a reply streamed to its end, with its thinking apart');
    expect((provider.server.requests.at(-1)!.json as Record<string, unknown>).max_completion_tokens).toBe(16);
  });

  it('fails on the model line when the model really is missing, listing what is there', async () => {
    provider.server.models = ['llama3.1:latest', 'qwen2.5'];
    const result = await tester().run({ model: 'gpt-9' });
    expect(result.success).toBe(false);
    expect(result.error).toBe('No model named “gpt-9” on this server. Available: llama3.1:latest, qwen2.5');
    expect(line(result.checks, 'model')?.status).toBe('fail');
    expect(result.models).toEqual(['llama3.1:latest', 'qwen2.5']);
  });

  it('shortens a long model list', async () => {
    provider.server.models = Array.from({ length: 12 }, (_, i) => `m${i}`);
    const result = await tester().run({ model: 'gpt-9' });
    expect(result.error).toMatch(/Available: m0, m1, m2, m3, m4, m5, m6, m7, …$/);
    expect(result.models).toHaveLength(12);
  });

  it('fails on the key line with the auth message on a bad key, without chatting', async () => {
    const result = await tester().run({ apiKey: 'bad-key' });
    expect(result).toMatchObject({ success: false, error: 'Invalid API key. Double-check your openai key in Settings.' });
    expect(result.checks?.map((check) => [check.name, check.status])).toEqual([['reachable', 'ok'], ['key', 'fail']]);
    expect(provider.server.requests).toHaveLength(1);
  });

  it('fails on the streaming line when the chat itself fails even though the model is listed', async () => {
    provider.server.enqueue({ kind: 'error', status: 400, body: { error: { message: 'streaming is disabled' } } });
    const result = await tester().run();
    expect(result.success).toBe(false);
    expect(line(result.checks, 'streaming')?.status).toBe('fail');
    expect(result.error).toContain('streaming is disabled');
    expect(result.models).toEqual(['test-model']);
  });

  it('notes that the agent will use XML tools when the server refuses native ones', async () => {
    provider.server.enqueue(
      { kind: 'error', status: 400, body: { error: 'registry.ollama.ai/library/gemma does not support tools' } },
      { kind: 'openai-stream', chunks: ['OK'] },
    );
    const result = await tester().run();
    expect(result.success).toBe(true);
    expect(line(result.checks, 'tools')).toMatchObject({ status: 'warn', detail: expect.stringContaining('XML tool format') });
  });

  it('tests the chat anyway on a server without a model list, and reports a wrong base URL', async () => {
    const result = await tester().run({ baseUrl: `${provider.server.url}/v2` });
    expect(result.success).toBe(false);
    expect(result.error).toContain('Check the base URL');
    expect(result.models).toBeUndefined();
    expect(provider.server.requests.map((r) => r.path)).toEqual(['/v2/models', '/v2/chat/completions']);
  });

  it('fails on the first line when nothing listens', async () => {
    const result = await tester().run({ baseUrl: 'http://127.0.0.1:9/v1' });
    expect(result.checks).toEqual([{ name: 'reachable', status: 'fail', detail: expect.stringContaining("Can't reach") }]);
  });
});

describe('listModels and findModel', () => {
  it('returns the model ids the server lists', async () => {
    provider.server.models = ['a', 'b'];
    expect(await listModels(config())).toEqual(['a', 'b']);
  });

  it('returns undefined when the server has no list or an empty one', async () => {
    expect(await listModels(config({ baseUrl: `${provider.server.url}/nowhere` }))).toBeUndefined();
    provider.server.models = [];
    expect(await listModels(config())).toBeUndefined();
  });

  it('matches tags both ways and file names, and calls a name nobody knows unlisted', async () => {
    expect(await findModel(config({ model: 'llama3.1' }), ['llama3.1:latest'])).toEqual({ how: 'tag', id: 'llama3.1:latest' });
    expect(await findModel(config({ model: 'llama3.1:latest' }), ['llama3.1'])).toEqual({ how: 'tag', id: 'llama3.1' });
    expect(await findModel(config({ model: 'qwen2.5-7b-instruct-q4_k_m' }), ['/m/qwen2.5-7b-instruct-q4_k_m.gguf'])).toEqual({ how: 'file', id: '/m/qwen2.5-7b-instruct-q4_k_m.gguf' });
    expect(await findModel(config({ model: 'nobody' }), ['test-model'])).toEqual({ how: 'unlisted' });
  });
});
