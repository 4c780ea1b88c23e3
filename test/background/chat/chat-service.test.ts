import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatService, type ChatDeps } from '../../../src/background/chat/chat-service';
import { cancelledError, LlmError } from '../../../src/background/llm/errors';
import type { RouterRequest } from '../../../src/background/llm/router';
import type { LlmConfig, StreamEvent } from '../../../src/background/llm/types';
import { SUMMARY_INSTRUCTION, SYSTEM_PROMPT } from '../../../src/background/prompts';
import { ConversationStore } from '../../../src/db/conversations';
import { JawadDatabase } from '../../../src/db/database';
import { SettingsStore } from '../../../src/db/settings';
import {
  BackgroundEvent,
  JawadError,
  type BackgroundEventOf,
  type ChatResponsePayload,
  type PageContent,
  type ProviderSettings,
  type SidebarRequestOf,
} from '../../../src/protocol';

type Script = (config: LlmConfig, request: RouterRequest) => AsyncGenerator<StreamEvent>;

const SETTINGS: ProviderSettings = { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-x', timeoutSeconds: 60 };
const PAGE: PageContent = { title: 'Example Domain', url: 'https://example.com/a', markdown: '# Example\n\nSome body text.', truncated: false, product: null, interactiveElements: [] };

let db: JawadDatabase;
let conversations: ConversationStore;
let settings: SettingsStore;
let events: BackgroundEvent[];
let calls: Array<{ config: LlmConfig; request: RouterRequest }>;
let script: Script;
let readPage: ReturnType<typeof vi.fn<ChatDeps['readPage']>>;
let service: ChatService;

beforeEach(async () => {
  db = new JawadDatabase(`test-${crypto.randomUUID()}`);
  conversations = new ConversationStore(db);
  settings = new SettingsStore(db);
  events = [];
  calls = [];
  script = reply(['Hello', ' there']);
  readPage = vi.fn<ChatDeps['readPage']>(async () => PAGE);
  let clock = 1_000;
  let ids = 0;
  service = new ChatService({
    conversations,
    settings,
    readPage,
    stream: (config, request) => {
      calls.push({ config, request });
      return script(config, request);
    },
    emit: (event) => {
      // Every event must be one the sidebar accepts.
      events.push(BackgroundEvent.parse(event));
    },
    now: () => (clock += 10),
    newId: () => `id-${++ids}`,
  });
});
afterEach(async () => {
  service.stopAll();
  await db.delete();
});

/** A stream that yields the given text chunks, then usage and done. */
function reply(chunks: string[], usage = { inputTokens: 7, outputTokens: 3 }): Script {
  return async function* () {
    for (const text of chunks) yield { type: 'text', text };
    yield { type: 'usage', ...usage };
    yield { type: 'done', finishReason: 'stop', toolMode: 'none' };
  };
}

/**
 * A stream that yields `first`, then waits for the stop button like the real router does. With
 * `giveUpMs` it ends by itself (as "complete") so a test that never stops it fails instead of hanging.
 */
function untilStopped(first: string, giveUpMs?: number): Script {
  return async function* (_config, request) {
    yield { type: 'text', text: first };
    const stopped = await new Promise<boolean>((resolve) => {
      if (request.signal?.aborted) resolve(true);
      request.signal?.addEventListener('abort', () => resolve(true));
      if (giveUpMs !== undefined) setTimeout(() => resolve(false), giveUpMs);
    });
    if (stopped) throw cancelledError();
  };
}

const chat = (content: string, extra: Partial<SidebarRequestOf<'CHAT_MESSAGE'>['payload']> = {}): SidebarRequestOf<'CHAT_MESSAGE'> => ({
  type: 'CHAT_MESSAGE',
  requestId: 'user-0000000a',
  payload: { conversationId: null, content, attachPage: false, agent: false, ...extra },
});

const payloads = (): ChatResponsePayload[] =>
  events.filter((e): e is BackgroundEventOf<'CHAT_RESPONSE'> => e.type === 'CHAT_RESPONSE').map((e) => e.payload);
const finalOf = () => payloads().find((p): p is Extract<ChatResponsePayload, { phase: 'final' }> => p.phase === 'final');
const startOf = () => payloads().find((p): p is Extract<ChatResponsePayload, { phase: 'start' }> => p.phase === 'start');

async function rejection(promise: Promise<unknown>): Promise<JawadError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(JawadError);
  return error as JawadError;
}

describe('ChatService.sendMessage', () => {
  beforeEach(() => settings.save(SETTINGS));

  it('streams the thinking apart, stores it with the answer and never sends it back', async () => {
    script = async function* () {
      yield { type: 'reasoning', text: 'The user greets; ' };
      yield { type: 'reasoning', text: 'greet back.' };
      yield { type: 'text', text: 'Hello!' };
      yield { type: 'done', finishReason: 'stop', toolMode: 'none' };
    };
    await service.sendMessage(chat('Hi!'));
    expect(payloads().map((p) => p.phase)).toEqual(['start', 'thinking', 'thinking', 'delta', 'final']);
    const final = finalOf()!.message;
    expect(final).toMatchObject({ content: 'Hello!', reasoning: 'The user greets; greet back.', status: 'complete' });
    expect((await conversations.getMessage(final.id))?.reasoning).toBe('The user greets; greet back.');

    script = reply(['Fine.']);
    await service.sendMessage(chat('And now?', { conversationId: final.conversationId }));
    const sent = JSON.stringify(calls[1]!.request.messages);
    expect(sent).toContain('Hello!');
    expect(sent).not.toContain('greet back');
  });

  it('says the model only thought when thinking came but no answer', async () => {
    script = async function* () {
      yield { type: 'reasoning', text: 'Hmm' };
      yield { type: 'done', finishReason: 'length', toolMode: 'none' };
    };
    await service.sendMessage(chat('Hi!'));
    expect(finalOf()!.message).toMatchObject({ status: 'error', reasoning: 'Hmm', error: { message: expect.stringContaining('only thought') } });
  });

  it('asks the router to record usage under the answer’s chain, as chat or summarize', async () => {
    await service.sendMessage(chat('Hi!'));
    const start = startOf()!;
    expect(calls[0]!.request.usage).toEqual({ requestId: start.assistantMessage.requestId, kind: 'chat', conversationId: start.conversation.id, messageId: start.assistantMessage.id });
    await service.summarizePage({ type: 'SUMMARIZE_PAGE', requestId: 'user-0000000b', payload: { conversationId: null } });
    expect(calls[1]!.request.usage?.kind).toBe('summarize');
  });

  it('streams start → deltas → final and stores the answer', async () => {
    await service.sendMessage(chat('Hi!'));
    expect(payloads().map((p) => p.phase)).toEqual(['start', 'delta', 'delta', 'final']);
    expect(events.every((e) => e.requestId === 'user-0000000a')).toBe(true);

    const start = startOf()!;
    expect(start.conversation.title).toBe('Hi!');
    expect(start.userMessage).toMatchObject({ role: 'user', content: 'Hi!', status: 'complete' });
    expect(start.assistantMessage).toMatchObject({ role: 'assistant', content: '', status: 'streaming', model: 'gpt-4o-mini' });
    expect(start.userMessage!.requestId).toMatch(/^user-0000000a:chat-[0-9a-f]{8}$/);

    const deltas = payloads().filter((p) => p.phase === 'delta');
    expect(deltas.map((d) => d.phase === 'delta' && d.text)).toEqual(['Hello', ' there']);
    expect(deltas.every((d) => d.phase === 'delta' && d.messageId === start.assistantMessage.id)).toBe(true);

    const final = finalOf()!;
    expect(final.message).toMatchObject({
      id: start.assistantMessage.id,
      content: 'Hello there',
      status: 'complete',
      usage: { inputTokens: 7, outputTokens: 3 },
    });

    const stored = await conversations.messages(start.conversation.id);
    expect(stored.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Hi!', 'complete'],
      ['assistant', 'Hello there', 'complete'],
    ]);
    expect(service.isStreaming(start.conversation.id)).toBe(false);
  });

  it('sends the system prompt and the history to the model with the saved settings', async () => {
    await service.sendMessage(chat('First question'));
    const conversationId = startOf()!.conversation.id;
    script = reply(['Second answer']);
    await service.sendMessage(chat('Second question', { conversationId }));

    expect(calls).toHaveLength(2);
    expect(calls[1]!.config).toMatchObject({ model: 'gpt-4o-mini', apiKey: 'sk-x' });
    expect(calls[1]!.request.messages).toEqual([
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'Hello there' },
      { role: 'user', content: 'Second question' },
    ]);
    expect(calls[1]!.request.signal).toBeInstanceOf(AbortSignal);
    expect((await conversations.messages(conversationId)).map((m) => m.content)).toEqual([
      'First question',
      'Hello there',
      'Second question',
      'Second answer',
    ]);
    expect(await conversations.list()).toHaveLength(1);
  });

  it('moves a continued conversation to the top of the sidebar’s history', async () => {
    await service.sendMessage(chat('Old topic'));
    const older = startOf()!.conversation.id;
    await service.sendMessage(chat('Newer topic'));
    events = [];
    await service.sendMessage(chat('Back to the old topic', { conversationId: older }));

    const sent = startOf()!.conversation;
    expect(sent).toEqual(await conversations.get(older));
    expect((await conversations.list())[0]!.id).toBe(older);
    expect(sent.updatedAt).toBeGreaterThan((await conversations.list())[1]!.updatedAt);
  });

  it('refuses a conversation that no longer exists', async () => {
    const error = await rejection(service.sendMessage(chat('Hi', { conversationId: 'gone' })));
    expect(error.code).toBe('NOT_FOUND');
    expect(calls).toHaveLength(0);
  });

  it('stop() mid-stream ends the answer as stopped and keeps the partial text', async () => {
    script = untilStopped('Partial ans');
    const sending = service.sendMessage(chat('Tell me a long story'));
    await vi.waitFor(() => expect(payloads().some((p) => p.phase === 'delta')).toBe(true));
    const conversationId = startOf()!.conversation.id;
    expect(service.isStreaming(conversationId)).toBe(true);

    expect(service.stop(conversationId)).toBe(true);
    await sending;

    expect(finalOf()!.message).toMatchObject({ content: 'Partial ans', status: 'stopped' });
    expect(finalOf()!.message.error).toBeUndefined();
    const stored = await conversations.getMessage(finalOf()!.message.id);
    expect(stored).toMatchObject({ content: 'Partial ans', status: 'stopped' });
    expect(service.isStreaming(conversationId)).toBe(false);
    expect(service.stop(conversationId)).toBe(false);
  });

  it('refuses a second message while an answer is streaming', async () => {
    script = untilStopped('…');
    const first = service.sendMessage(chat('One'));
    await vi.waitFor(() => expect(payloads().some((p) => p.phase === 'delta')).toBe(true));
    const conversationId = startOf()!.conversation.id;

    const error = await rejection(service.sendMessage(chat('Two', { conversationId })));
    expect(error.code).toBe('EXECUTION_ERROR');
    expect(error.message).toContain('still streaming');

    service.stop(conversationId);
    await first;
    expect((await conversations.messages(conversationId)).map((m) => m.content)).toEqual(['One', '…']);
    expect(calls).toHaveLength(1);
  });

  it('refuses the second of two messages sent at once to the same conversation', async () => {
    await service.sendMessage(chat('Start'));
    const conversationId = startOf()!.conversation.id;
    script = untilStopped('…', 1000);
    const settled = Promise.allSettled([
      service.sendMessage(chat('A', { conversationId })),
      service.sendMessage(chat('B', { conversationId })),
    ]);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 20)); // room for B to (wrongly) reach the model
    expect(service.stop(conversationId)).toBe(true);
    const [a, b] = await settled;

    expect(a.status).toBe('fulfilled');
    expect(b.status === 'rejected' && (b.reason as JawadError).code).toBe('EXECUTION_ERROR');
    expect(calls).toHaveLength(2);
    expect((await conversations.messages(conversationId)).map((m) => [m.content, m.status])).toEqual([
      ['Start', 'complete'],
      ['Hello there', 'complete'],
      ['A', 'complete'],
      ['…', 'stopped'],
    ]);
    expect(service.isStreaming(conversationId)).toBe(false);
  });

  it('turns a provider error into an error answer, keeping the user message', async () => {
    script = async function* () {
      yield { type: 'text', text: 'Half' };
      throw new LlmError('stream-cut', 'The connection to OpenAI dropped mid-answer. The partial answer is kept; press Retry.');
    };
    await service.sendMessage(chat('Question'));
    const final = finalOf()!;
    expect(final.message).toMatchObject({
      status: 'error',
      content: 'Half',
      error: { code: 'LLM_ERROR', message: 'The connection to OpenAI dropped mid-answer. The partial answer is kept; press Retry.', details: { kind: 'stream-cut' } },
    });
    const stored = await conversations.messages(final.conversationId);
    expect(stored.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Question', 'complete'],
      ['assistant', 'Half', 'error'],
    ]);
  });

  it('reports an error thrown before any text', async () => {
    // eslint-disable-next-line require-yield
    script = async function* () {
      throw new LlmError('auth', 'Invalid API key. Double-check your openai key in Settings.', 401);
    };
    await service.sendMessage(chat('Question'));
    expect(finalOf()!.message).toMatchObject({ status: 'error', content: '', error: { message: 'Invalid API key. Double-check your openai key in Settings.' } });
  });

  it('marks an empty answer as an error with a clear message', async () => {
    script = reply(['', '  \n']);
    await service.sendMessage(chat('Question'));
    expect(finalOf()!.message.status).toBe('error');
    expect(finalOf()!.message.error?.message).toMatch(/empty answer/);
  });

  it('wraps an attached page in untrusted markers before the user’s text', async () => {
    await service.sendMessage({ ...chat('What is this page about?', { attachPage: true, windowId: 3 }) });
    expect(readPage).toHaveBeenCalledWith('user-0000000a', 3);

    const userTurn = calls[0]!.request.messages.at(-1)!;
    expect(userTurn.role).toBe('user');
    const match = /^<<<UNTRUSTED_PAGE_CONTENT ([0-9a-f]+)>>>\n([\s\S]*)\n<<<END_UNTRUSTED_PAGE_CONTENT \1>>>\n\nWhat is this page about\?$/.exec(userTurn.content);
    expect(match, userTurn.content).not.toBeNull();
    expect(match![2]).toContain('Title: Example Domain');
    expect(match![2]).toContain('URL: https://example.com/a');
    expect(match![2]).toContain('# Example\n\nSome body text.');

    // The sidebar sees the page reference, never the page text.
    const start = startOf()!;
    expect(start.userMessage).toMatchObject({ content: 'What is this page about?', page: { title: 'Example Domain', url: 'https://example.com/a' } });
    expect(JSON.stringify(events)).not.toContain('Some body text');
  });

  it('keeps the attached page in later turns of the conversation', async () => {
    await service.sendMessage(chat('Summarise', { attachPage: true }));
    const conversationId = startOf()!.conversation.id;
    await service.sendMessage(chat('And in French?', { conversationId }));
    expect(readPage).toHaveBeenCalledTimes(1);
    const messages = calls[1]!.request.messages;
    expect(messages[1]!.content).toContain('Some body text.');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'And in French?' });
  });

  it('does not start a turn when the page cannot be read', async () => {
    readPage.mockRejectedValueOnce(new JawadError('PAGE_UNREADABLE', 'This page cannot be read.'));
    const error = await rejection(service.sendMessage(chat('Hi', { attachPage: true })));
    expect(error.code).toBe('PAGE_UNREADABLE');
    expect(await conversations.list()).toEqual([]);
    expect(events).toEqual([]);
  });
});

describe('ChatService without settings', () => {
  it('refuses with NOT_CONFIGURED and stores nothing', async () => {
    const error = await rejection(service.sendMessage(chat('Hi')));
    expect(error.code).toBe('NOT_CONFIGURED');
    expect(error.message).toContain('Settings');
    expect(await conversations.list()).toEqual([]);
    expect(events).toEqual([]);
    expect((await rejection(service.summarizePage({ type: 'SUMMARIZE_PAGE', requestId: 'user-0000000b', payload: { conversationId: null } }))).code).toBe(
      'NOT_CONFIGURED',
    );
  });
});

describe('ChatService.summarizePage', () => {
  beforeEach(() => settings.save(SETTINGS));

  it('asks for a summary of the wrapped page and shows a short request', async () => {
    await service.summarizePage({ type: 'SUMMARIZE_PAGE', requestId: 'user-0000000b', payload: { conversationId: null, windowId: 9 } });
    expect(readPage).toHaveBeenCalledWith('user-0000000b', 9);
    const start = startOf()!;
    expect(start.conversation.title).toBe('Summary: Example Domain');
    expect(start.userMessage!.content).toBe('Summarize this page: Example Domain');

    const userTurn = calls[0]!.request.messages.at(-1)!.content;
    expect(userTurn).toMatch(/^<<<UNTRUSTED_PAGE_CONTENT /);
    expect(userTurn.endsWith(`>>>\n\n${SUMMARY_INSTRUCTION}`)).toBe(true);
    expect(userTurn).toContain('Some body text.');
    expect(finalOf()!.message).toMatchObject({ status: 'complete', content: 'Hello there' });
  });

  it('falls back to the URL for a page without a title', async () => {
    readPage.mockResolvedValueOnce({ ...PAGE, title: '' });
    await service.summarizePage({ type: 'SUMMARIZE_PAGE', requestId: 'user-0000000b', payload: { conversationId: null } });
    expect(startOf()!.userMessage!.content).toBe('Summarize this page: https://example.com/a');
  });
});

describe('ChatService.retry', () => {
  beforeEach(() => settings.save(SETTINGS));

  it('replaces the answer: start carries `replaces`, the old answer is gone', async () => {
    await service.sendMessage(chat('Question'));
    const conversationId = startOf()!.conversation.id;
    const oldAnswer = finalOf()!.message;
    events = [];
    script = reply(['Better ', 'answer']);

    await service.retry({ type: 'RETRY_MESSAGE', requestId: 'user-0000000c', payload: { conversationId, messageId: oldAnswer.id } });

    const start = startOf()!;
    expect(start.replaces).toBe(oldAnswer.id);
    expect(start.userMessage).toBeUndefined();
    expect(start.assistantMessage.id).not.toBe(oldAnswer.id);
    expect(finalOf()!.message).toMatchObject({ id: start.assistantMessage.id, content: 'Better answer', status: 'complete' });

    expect(calls[1]!.request.messages).toEqual([
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: 'Question' },
    ]);
    const stored = await conversations.messages(conversationId);
    expect(stored.map((m) => m.content)).toEqual(['Question', 'Better answer']);
    expect(await conversations.getMessage(oldAnswer.id)).toBeUndefined();
  });

  it('retrying an earlier answer drops every later turn', async () => {
    await service.sendMessage(chat('Q1'));
    const conversationId = startOf()!.conversation.id;
    const firstAnswer = finalOf()!.message;
    await service.sendMessage(chat('Q2', { conversationId }));
    script = reply(['New A1']);
    await service.retry({ type: 'RETRY_MESSAGE', requestId: 'user-0000000c', payload: { conversationId, messageId: firstAnswer.id } });
    expect((await conversations.messages(conversationId)).map((m) => m.content)).toEqual(['Q1', 'New A1']);
  });

  it('refuses to retry a user message or an unknown one', async () => {
    await service.sendMessage(chat('Q'));
    const { conversation, userMessage } = startOf()!;
    const request = (messageId: string) => ({ type: 'RETRY_MESSAGE' as const, requestId: 'user-0000000c', payload: { conversationId: conversation.id, messageId } });
    expect((await rejection(service.retry(request(userMessage!.id)))).code).toBe('NOT_FOUND');
    expect((await rejection(service.retry(request('nope')))).code).toBe('NOT_FOUND');
    expect((await conversations.messages(conversation.id))).toHaveLength(2);
  });
});

describe('agent turns', () => {
  function withAgent(run: NonNullable<ChatDeps['agent']>['run']): ChatService {
    return new ChatService({ conversations, settings, readPage, stream: () => reply(['unused'])(SETTINGS, { messages: [] }), emit: (event) => void events.push(event), agent: { run } });
  }

  it('hands an agent message to the agent with its own system prompt and the user’s words, and stores what it wrote', async () => {
    await settings.save(SETTINGS);
    const run = vi.fn<NonNullable<ChatDeps['agent']>['run']>(async (task) => {
      task.onText('Added the jacket.');
      return { status: 'complete', usage: { inputTokens: 40, outputTokens: 9 } };
    });
    await withAgent(run).sendMessage(chat('Add the red jacket to my cart', { agent: true, windowId: 7 }));
    const task = run.mock.calls[0]![0];
    expect(task.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('can act on web pages with tools') });
    expect(task.messages.at(-1)).toEqual({ role: 'user', content: 'Add the red jacket to my cart' });
    expect(task).toMatchObject({ userTexts: ['Add the red jacket to my cart'], windowId: 7, eventRequestId: 'user-0000000a' });
    expect(task.requestId).toMatch(/^user-0000000a:chat-[0-9a-f]{8}$/);
    const [, answer] = await conversations.messages(task.conversationId);
    expect(answer).toMatchObject({ id: task.messageId, content: 'Added the jacket.', status: 'complete', usage: { inputTokens: 40, outputTokens: 9 }, agent: true });
  });

  it('marks the answer stopped when the agent stopped, keeping its account', async () => {
    await settings.save(SETTINGS);
    const run = vi.fn<NonNullable<ChatDeps['agent']>['run']>(async (task) => {
      task.onText('**You stopped the task.**');
      return { status: 'stopped' };
    });
    await withAgent(run).sendMessage(chat('Buy it', { agent: true }));
    const [, answer] = await conversations.messages(run.mock.calls[0]![0].conversationId);
    expect(answer).toMatchObject({ status: 'stopped', content: '**You stopped the task.**' });
  });

  it('runs a retried agent answer as an agent again', async () => {
    await settings.save(SETTINGS);
    const run = vi.fn<NonNullable<ChatDeps['agent']>['run']>(async (task) => {
      task.onText('Done.');
      return { status: 'complete' };
    });
    const service = withAgent(run);
    await service.sendMessage(chat('Click the button', { agent: true }));
    const { conversationId, messageId } = run.mock.calls[0]![0];
    await service.retry({ type: 'RETRY_MESSAGE', requestId: 'user-0000000b', payload: { conversationId, messageId } });
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('keeps plain chat plain: no agent unless asked', async () => {
    await settings.save(SETTINGS);
    const run = vi.fn<NonNullable<ChatDeps['agent']>['run']>();
    await withAgent(run).sendMessage(chat('Hello'));
    expect(run).not.toHaveBeenCalled();
  });
});

describe('ChatService with memory', () => {
  beforeEach(() => settings.save(SETTINGS));

  it('gives the model what memory recalled before the question, keeps it for later turns, and shows it on the answer', async () => {
    const used = [{ kind: 'message' as const, id: 'old-1', text: 'My cat is called Pixel', source: 'conversation' as const, conversationId: 'old', title: 'Pets', createdAt: 5 }];
    const recall = vi.fn(async () => ({ block: 'Jawad’s memory recalled: My cat is called Pixel', used }));
    const rememberPage = vi.fn(async () => undefined);
    const withMemory = new ChatService({ conversations, settings, readPage, stream: (config, request) => (calls.push({ config, request }), script(config, request)), emit: (event) => events.push(event), memory: { recall, rememberPage } });

    await withMemory.sendMessage(chat('What is my cat called?', { attachPage: true, windowId: 4 }));
    expect(recall).toHaveBeenCalledWith('What is my cat called?', expect.any(String), 4, PAGE);
    expect(rememberPage).toHaveBeenCalledWith(PAGE);
    const turn = calls[0]!.request.messages.at(-1)!.content;
    expect(turn.indexOf('Jawad’s memory recalled: My cat is called Pixel')).toBe(0);
    expect(turn.endsWith('What is my cat called?')).toBe(true);
    expect(startOf()!.assistantMessage.context).toEqual(used);
    expect(finalOf()!.message.context).toEqual(used);

    script = reply(['Still Pixel']);
    recall.mockResolvedValueOnce({ block: '', used: [] });
    await withMemory.sendMessage(chat('And her age?', { conversationId: finalOf()!.conversationId }));
    expect(calls[1]!.request.messages.some((m) => m.content.startsWith('Jawad’s memory recalled'))).toBe(true);
  });

  it('answers without memory when recall fails', async () => {
    const withMemory = new ChatService({
      conversations, settings, readPage, stream: (config, request) => script(config, request), emit: (event) => events.push(event),
      memory: { recall: async () => Promise.reject(new Error('index broken')), rememberPage: async () => undefined },
    });
    await withMemory.sendMessage(chat('Hi'));
    expect(finalOf()!.message).toMatchObject({ status: 'complete', content: 'Hello there' });
  });
});
