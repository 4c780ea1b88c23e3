import { describe, expect, it } from 'vitest';
import { toLlmMessages } from '../../../src/background/chat/history';
import { SYSTEM_PROMPT } from '../../../src/background/prompts';
import type { MessageRow } from '../../../src/db/database';

let at = 0;
function row(role: 'user' | 'assistant', content: string, extra: Partial<MessageRow> = {}): MessageRow {
  at += 1;
  return { id: `m${at}`, conversationId: 'c', role, content, status: 'complete', createdAt: at, requestId: 'user-00000000', ...extra };
}

describe('toLlmMessages', () => {
  it('starts with the system prompt, then the turns in order', () => {
    expect(toLlmMessages([row('user', 'Hi'), row('assistant', 'Hello'), row('user', 'Bye')])).toEqual([
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Bye' },
    ]);
  });

  it('drops empty assistant turns (failed or stopped before any text)', () => {
    const messages = toLlmMessages([
      row('user', 'Q1'),
      row('assistant', '', { status: 'error' }),
      row('user', 'Q2'),
      row('assistant', '  \n', { status: 'stopped' }),
      row('user', 'Q3'),
    ]);
    expect(messages.map((m) => m.content)).toEqual([SYSTEM_PROMPT, 'Q1', 'Q2', 'Q3']);
  });

  it('keeps partial answers that have text', () => {
    const messages = toLlmMessages([row('user', 'Q'), row('assistant', 'Half', { status: 'stopped' }), row('user', 'Go on')]);
    expect(messages.map((m) => m.content)).toEqual([SYSTEM_PROMPT, 'Q', 'Half', 'Go on']);
  });

  it('puts the attached page before the user’s text and uses the hidden prompt when there is one', () => {
    const messages = toLlmMessages([
      row('user', 'Summarize this page: Example', { prompt: 'Summarize this page for me.', pageContext: '<<<PAGE>>>' }),
      row('assistant', 'A summary'),
      row('user', 'What about this?', { pageContext: '<<<OTHER PAGE>>>' }),
    ]);
    expect(messages[1]).toEqual({ role: 'user', content: '<<<PAGE>>>\n\nSummarize this page for me.' });
    expect(messages[3]).toEqual({ role: 'user', content: '<<<OTHER PAGE>>>\n\nWhat about this?' });
  });

  it('drops the oldest turns over budget, keeps the newest, and never starts with an assistant turn', () => {
    const big = (c: string) => c.repeat(50_000);
    const rows = [row('user', big('a')), row('assistant', big('b')), row('user', big('c')), row('assistant', 'short'), row('user', 'latest')];
    const messages = toLlmMessages(rows);
    expect(messages[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(messages[1]!.role).toBe('user');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'latest' });
    expect(messages.slice(1).map((m) => m.content[0])).toEqual(['c', 's', 'l']);
    const total = messages.slice(1).reduce((sum, m) => sum + m.content.length, 0);
    expect(total).toBeLessThanOrEqual(120_000);
  });

  it('keeps a single newest turn even when it alone is over budget', () => {
    const huge = 'z'.repeat(200_000);
    const messages = toLlmMessages([row('user', 'old'), row('assistant', 'older answer'), row('user', huge)]);
    expect(messages).toEqual([
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: huge },
    ]);
  });

  it('returns just the system prompt for no rows', () => {
    expect(toLlmMessages([])).toEqual([{ role: 'system', content: SYSTEM_PROMPT }]);
  });
});
