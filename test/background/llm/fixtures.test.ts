/**
 * Recorded bodies from the providers' own SDK test suites (test/fixtures/providers/README.md),
 * replayed over loopback through Jawad's router: as recorded, cut into odd-sized reads, with CRLF
 * line ends and with keep-alive comments between events — all of which real servers and proxies do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LlmError } from '../../../src/background/llm/errors';
import { streamChat } from '../../../src/background/llm/router';
import type { LlmConfig, StreamEvent } from '../../../src/background/llm/types';
import { useProviderServer } from '../../support/use-provider-server';

const provider = useProviderServer();
const fixture = (path: string) => readFileSync(new URL(`../../fixtures/providers/${path}`, import.meta.url), 'utf8');

type Variant = (body: string) => string[];
const VARIANTS: Record<string, Variant> = {
  'as recorded': (body) => [body],
  'in 17-byte reads': (body) => body.match(/[\s\S]{1,17}/g)!,
  'with CRLF line ends': (body) => [body.replace(/\n/g, '\r\n')],
  'with keep-alive comments': (body) => [body.replace(/\n\n/g, '\n\n: OPENROUTER PROCESSING\n\n')],
};

async function replay(config: LlmConfig, pieces: string[]): Promise<{ events: StreamEvent[]; error?: LlmError }> {
  provider.server.enqueue({ kind: 'raw', body: pieces });
  const events: StreamEvent[] = [];
  try {
    for await (const event of streamChat(config, { messages: [{ role: 'user', content: 'Hi' }] })) events.push(event);
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    return { events, error };
  }
  return { events };
}

const joined = (events: StreamEvent[], type: 'text' | 'reasoning') =>
  events.map((e) => (e.type === type ? e.text : '')).join('');
const only = <T extends StreamEvent['type']>(events: StreamEvent[], type: T) =>
  events.filter((e): e is Extract<StreamEvent, { type: T }> => e.type === type);

describe.each(Object.entries(VARIANTS))('openai-node recordings, %s', (_name, variant) => {
  const openai = () => provider.config();

  it('streams the answer and the final usage chunk (works.sse)', async () => {
    const { events, error } = await replay(openai(), variant(fixture('openai-node/works.sse')));
    expect(error).toBeUndefined();
    expect(joined(events, 'text')).toBe('{"city":"San Francisco","units":"c"}');
    expect(only(events, 'usage')).toEqual([{ type: 'usage', inputTokens: 17, outputTokens: 10, cachedInputTokens: 0, reasoningTokens: 0 }]);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop', toolMode: 'none' });
  });

  it('ignores logprobs and keeps leading newlines of the content', async () => {
    expect(joined((await replay(openai(), variant(fixture('openai-node/content-logprobs.sse')))).events, 'text')).toBe('{"city":"San Francisco","units":"f"}');
    expect(joined((await replay(openai(), variant(fixture('openai-node/leading-newline.sse')))).events, 'text')).toBe('\n\n{"city":"San Francisco","units":"c"}');
  });

  it('shows a refusal as the answer instead of an empty reply', async () => {
    const { events } = await replay(openai(), variant(fixture('openai-node/refusal-logprobs.sse')));
    expect(joined(events, 'text')).toBe("I'm very sorry, but I can't assist with that request.");
    expect(only(events, 'usage')[0]).toMatchObject({ inputTokens: 17, outputTokens: 13 });
  });
});

describe.each(Object.entries(VARIANTS))('anthropic-sdk recordings, %s', (_name, variant) => {
  const anthropic = () => provider.config({ provider: 'anthropic' });

  it('streams text and takes output_tokens from message_delta (basic_response)', async () => {
    const { events, error } = await replay(anthropic(), variant(fixture('anthropic-sdk/basic_response.sse')));
    expect(error).toBeUndefined();
    expect(joined(events, 'text')).toBe('Hello there!');
    expect(only(events, 'usage')).toEqual([{ type: 'usage', inputTokens: 11, outputTokens: 6, cachedInputTokens: 0, reasoningTokens: 0 }]);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'end_turn', toolMode: 'none' });
  });

  it('rebuilds the tool call from input_json_delta fragments (tool_use_response)', async () => {
    const { events } = await replay(anthropic(), variant(fixture('anthropic-sdk/tool_use_response.sse')));
    expect(joined(events, 'text')).toBe("I'll check the current weather in Paris for you.");
    expect(only(events, 'tool_call')).toEqual([{ type: 'tool_call', call: { id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', arguments: '{"location": "Paris"}' } }]);
    expect(only(events, 'usage')[0]).toMatchObject({ inputTokens: 377, outputTokens: 65 });
    expect(events.at(-1)).toMatchObject({ finishReason: 'tool_use' });
  });

  it('never proposes a tool call cut off by max_tokens (incomplete_partial_json_response)', async () => {
    const { events, error } = await replay(anthropic(), variant(fixture('anthropic-sdk/incomplete_partial_json_response.sse')));
    expect(error).toBeUndefined();
    expect(only(events, 'tool_call')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ finishReason: 'max_tokens' });
  });

  it('keeps thinking apart from the answer and counts thinking tokens (stream-a-refusal)', async () => {
    const { events } = await replay(anthropic(), variant(fixture('anthropic-sdk/stream-a-refusal.sse')));
    expect(joined(events, 'reasoning')).toBe(
      'Simple educational question about what a solar eclipse is. This is benign general knowledge — definitions are fine. Also the user called me "claudius" — I\'m Claude. Minor correction or just roll with it politely.',
    );
    expect(joined(events, 'text')).toBe('Hi');
    expect(only(events, 'usage')).toEqual([{ type: 'usage', inputTokens: 28, outputTokens: 106, cachedInputTokens: 0, reasoningTokens: 67 }]);
  });
});

describe('anthropic-sdk error event', () => {
  it('turns a mid-stream overloaded_error, split over three reads, into an overloaded message', async () => {
    const pieces = JSON.parse(fixture('anthropic-sdk/overloaded-error-event.json')) as string[];
    const { error } = await replay(provider.config({ provider: 'anthropic' }), pieces);
    expect(error).toMatchObject({ kind: 'server', status: 529 });
    expect(error?.message).toBe('Anthropic is overloaded and stopped mid-answer (overloaded_error). The partial answer is kept; press Retry.');
  });
});

/** The JSON events of an SSE body, in order (comments and [DONE] left out). */
function eventsOf(body: string): Array<Record<string, unknown>> {
  return body
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:') && !line.includes('[DONE]'))
    .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
}

const keysOf = (value: unknown) => Object.keys((value ?? {}) as object).sort();

describe('the provider test server against the recordings', () => {
  async function played(path: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Array<Record<string, unknown>>> {
    const response = await fetch(`${provider.server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return eventsOf(await response.text());
  }

  it('sends OpenAI chunks with the fields the recorded ones have', async () => {
    provider.server.enqueue({ kind: 'openai-stream', chunks: ['Hi'], usage: { prompt_tokens: 1, completion_tokens: 1 } });
    const ours = await played('/v1/chat/completions', { model: 'test-model', stream: true, stream_options: { include_usage: true }, messages: [] });
    const theirs = eventsOf(fixture('openai-node/works.sse'));
    expect(ours.map(keysOf)).toEqual([...ours.slice(1).map(() => keysOf(theirs[1])), keysOf(theirs.at(-1))]);
    expect(keysOf(theirs[1])).toEqual(['choices', 'created', 'id', 'model', 'object', 'system_fingerprint']);
    expect(keysOf((ours[1]!.choices as unknown[])[0])).toEqual(keysOf((theirs[1]!.choices as unknown[])[0]));
  });

  it('sends Anthropic events in the recorded order, with the usage fields the API sends', async () => {
    provider.server.enqueue({ kind: 'anthropic-stream', thinking: ['Hm.'], chunks: ['Hi'], usage: { input_tokens: 28, output_tokens: 106 } });
    const ours = await played('/v1/messages', { model: 'test-model', stream: true, max_tokens: 10, messages: [] }, { 'anthropic-version': '2023-06-01' });
    const theirs = eventsOf(fixture('anthropic-sdk/stream-a-refusal.sse'));
    // The same sequence of event types, however many deltas each block has.
    const shape = (events: Array<Record<string, unknown>>) => events.map((event) => event.type).filter((type, i, all) => type !== all[i - 1]);
    expect(shape(ours)).toEqual(shape(theirs));
    const usageKeys = (events: Array<Record<string, unknown>>, type: string) => {
      const event = events.find((candidate) => candidate.type === type)!;
      return keysOf(type === 'message_start' ? (event.message as { usage: unknown }).usage : event.usage);
    };
    for (const type of ['message_start', 'message_delta']) {
      expect(usageKeys(theirs, type)).toEqual(expect.arrayContaining(usageKeys(ours, type)));
      expect(usageKeys(ours, type)).toEqual(expect.arrayContaining(['cache_creation_input_tokens', 'cache_read_input_tokens', 'input_tokens', 'output_tokens']));
    }
  });
});
