import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../../src/db/import-formats';

/** Real export files (MIT, github.com/yetanotherchris/openwebui-importer, examples/; see LICENSE beside them). */
const fixture = (name: string) => readFileSync(new URL(`../fixtures/imports/${name}`, import.meta.url), 'utf8');

describe('ChatGPT conversations.json', () => {
  const { format, archive } = parseImport(fixture('chatgpt-conversations.json'));

  it('is recognised and gives one conversation with its title and dates', () => {
    expect(format).toBe('chatgpt');
    expect(archive.conversations).toHaveLength(1);
    expect(archive.conversations[0]).toMatchObject({ title: 'How photosynthesis works', id: expect.stringMatching(/^chatgpt-/) });
    expect(new Date(archive.conversations[0]!.createdAt).getUTCFullYear()).toBe(2025);
  });

  it('keeps the visible turns in order, without the hidden system and custom-instruction messages', () => {
    const turns = archive.messages.map((m) => [m.role, m.content.slice(0, 30)]);
    expect(turns[0]).toEqual(['user', 'Can you explain how photosynth']);
    expect(turns.map(([role]) => role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(turns.at(-2)).toEqual(['user', 'What about forests?']);
    expect(archive.messages.every((m, i, all) => i === 0 || m.createdAt > all[i - 1]!.createdAt)).toBe(true);
    expect(archive.messages[1]!.model).toBe('gpt-4o');
  });

  it('follows the branch the user was on when a message was edited', () => {
    const edited = {
      id: 'conv-1',
      title: 'Edited',
      create_time: 1700000000,
      current_node: 'a2',
      mapping: {
        root: { id: 'root', parent: null, children: ['u1'], message: null },
        u1: { id: 'u1', parent: 'root', children: ['a1', 'a2'], message: { id: 'u1', author: { role: 'user' }, content: { content_type: 'text', parts: ['question'] } } },
        a1: { id: 'a1', parent: 'u1', children: [], message: { id: 'a1', author: { role: 'assistant' }, content: { content_type: 'text', parts: ['first answer'] } } },
        a2: { id: 'a2', parent: 'u1', children: [], message: { id: 'a2', author: { role: 'assistant' }, content: { content_type: 'text', parts: ['regenerated answer'] } } },
      },
    };
    expect(parseImport(JSON.stringify([edited])).archive.messages.map((m) => m.content)).toEqual(['question', 'regenerated answer']);
  });
});

describe('Open WebUI export', () => {
  it('reads a single exported chat', () => {
    const { format, archive } = parseImport(fixture('open-webui-chat.json'));
    expect(format).toBe('open-webui');
    expect(archive.conversations[0]!.title).toBe('🧠 Goldwater Rule Ethics');
    expect(archive.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(archive.messages[1]!.content).toContain('**Goldwater Rule');
    expect(archive.messages[1]!.model).toBe('deepseek/deepseek-chat:free');
  });

  it('reads "Export chats": rows of the chat table with the chat inside, ids and pins kept', () => {
    const chat = JSON.parse(fixture('open-webui-chat.json'));
    const rows = [{ id: 'f2c1', user_id: 'u', title: chat.title, chat, created_at: 1744577557, updated_at: 1744577600, pinned: true, archived: false }];
    const { archive } = parseImport(JSON.stringify(rows));
    expect(archive.conversations[0]).toMatchObject({ id: 'openwebui-f2c1', pinned: true, createdAt: 1744577557000, updatedAt: 1744577600000 });
  });

  it('gives the same ids to the same chat imported twice', () => {
    const once = parseImport(fixture('open-webui-chat.json'), 1).archive;
    const twice = parseImport(fixture('open-webui-chat.json'), 2).archive;
    expect(twice.conversations.map((c) => c.id)).toEqual(once.conversations.map((c) => c.id));
    expect(twice.messages.map((m) => m.id)).toEqual(once.messages.map((m) => m.id));
  });
});

describe('bad files', () => {
  it.each([
    ['not JSON', 'hello', /not JSON/],
    ['an unknown shape', '{"foo": 1}', /not a Jawad archive, a ChatGPT/],
    ['a newer archive', '{"format":"jawad-archive","version":99}', /version 99.*Update Jawad/],
    ['a damaged archive', '{"format":"jawad-archive","version":1,"exportedAt":1,"conversations":[{"id":5}],"messages":[]}', /damaged at conversations\.0\.id/],
    ['a damaged ChatGPT file', '[{"mapping": {"x": {"message": {"author": {}}}}}]', /ChatGPT export is damaged/],
  ])('refuses %s with a clear message', (_name, text, message) => {
    expect(() => parseImport(text)).toThrow(message);
  });

  it('does not let a hostile __proto__ key reach the archive', () => {
    const hostile = '{"format":"jawad-archive","version":1,"exportedAt":1,"conversations":[],"messages":[],"__proto__":{"polluted":true},"prices":{"__proto__":{"input":1,"output":1}}}';
    const { archive } = parseImport(hostile);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(archive)).toBe(Object.prototype);
  });
});
