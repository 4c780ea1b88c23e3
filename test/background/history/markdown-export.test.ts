import { describe, expect, it } from 'vitest';
import { conversationMarkdown, markdownFilename } from '../../../src/background/history/markdown-export';
import type { StoredMessage } from '../../../src/protocol';
import { agentStep } from '../../support/agent-step';

const conversation = { id: 'c1', title: 'Café: prix & "quotes"/slashes', createdAt: Date.UTC(2026, 10, 2), updatedAt: Date.UTC(2026, 10, 2) };
const message = (id: string, role: StoredMessage['role'], content: string, extra: Partial<StoredMessage> = {}): StoredMessage => ({ id, conversationId: 'c1', role, content, status: 'complete', createdAt: Date.UTC(2026, 10, 2, 9), requestId: 'user-00000001', ...extra });

describe('Markdown export', () => {
  it('names the file safely after the title and the day', () => {
    expect(markdownFilename(conversation)).toBe('cafe-prix-quotes-slashes-2026-11-02.md');
    expect(markdownFilename({ ...conversation, title: '???' })).toBe('conversation-2026-11-02.md');
  });

  it('writes each turn with who and when, the page attached, and the agent steps under their answer', () => {
    const markdown = conversationMarkdown(
      conversation,
      [message('u1', 'user', 'Add the jacket', { page: { title: 'Shop [sale]', url: 'https://shop.test/j' } }), message('a1', 'assistant', 'Done: **added**.', { model: 'gpt-4o' })],
      [agentStep({ id: 's2', messageId: 'a1', index: 1, tool: 'click', target: { role: 'button', name: 'Add to cart' }, result: { success: true, summary: 'clicked' } }), agentStep({ id: 's1', messageId: 'a1', index: 0, tool: 'snapshot', result: { success: true, summary: 'snapshot: 12 refs' } })],
    );
    expect(markdown).toContain('# Café: prix & "quotes"/slashes');
    expect(markdown).toContain('## You · 2026-11-02T09:00:00.000Z\n\nPage: [Shop sale](https://shop.test/j)\n\nAdd the jacket');
    expect(markdown).toContain('## Jawad (gpt-4o) · 2026-11-02T09:00:00.000Z\n\nDone: **added**.\n\nSteps:\n\n- snapshot: snapshot: 12 refs\n- click “Add to cart”: clicked');
  });
});
