import { clipText, oneLine, type Conversation, type StoredMessage } from '../protocol';
import type { JawadDatabase, MessageRow } from './database';
import { dropQueued, settleConversation } from './import-queue';

const TITLE_CHARS = 60;

export function titleFrom(text: string): string {
  return clipText(oneLine(text), TITLE_CHARS) || 'New conversation';
}

/** Conversations and their messages. All writes go through here. */
export class ConversationStore {
  constructor(private readonly db: JawadDatabase) {}

  async create(id: string, title: string, now = Date.now()): Promise<Conversation> {
    const conversation: Conversation = { id, title: titleFrom(title), createdAt: now, updatedAt: now };
    await this.db.conversations.add(conversation);
    return conversation;
  }

  get(id: string): Promise<Conversation | undefined> {
    return this.db.conversations.get(id);
  }

  /** Pinned ones first, then newest first. */
  async list(limit = 500): Promise<Conversation[]> {
    const pinned = await this.db.conversations.filter((c) => c.pinned === true).toArray();
    const recent = await this.db.conversations.orderBy('updatedAt').reverse().filter((c) => c.pinned !== true).limit(limit).toArray();
    return [...pinned.sort((a, b) => b.updatedAt - a.updatedAt), ...recent];
  }

  /** True when the conversation exists. */
  async rename(id: string, title: string): Promise<boolean> {
    return (await this.db.conversations.update(id, { title: title.trim() })) === 1;
  }

  async setPinned(id: string, pinned: boolean): Promise<boolean> {
    return (await this.db.conversations.update(id, { pinned })) === 1;
  }

  /**
   * The latest `limit` messages, or from `focus` on when it is older, and how many older ones were
   * left out: opening a conversation reads only what the sidebar shows.
   */
  async recentMessages(conversationId: string, limit: number, focus?: string): Promise<{ messages: MessageRow[]; earlier: number }> {
    await settleConversation(this.db, conversationId);
    const range = this.db.messages.where('[conversationId+createdAt]');
    const focused = focus ? await this.db.messages.get(focus) : undefined;
    const from = focused?.conversationId === conversationId ? focused.createdAt : Infinity;
    const latest = await range.between([conversationId, -Infinity], [conversationId, Infinity]).reverse().limit(limit).toArray();
    const oldest = latest.at(-1)?.createdAt ?? Infinity;
    const older = from < oldest ? await range.between([conversationId, from], [conversationId, oldest], true, false).toArray() : [];
    const messages = [...older, ...latest.reverse()];
    const first = messages[0]?.createdAt ?? Infinity;
    const earlier = await range.between([conversationId, -Infinity], [conversationId, first], true, false).count();
    return { messages, earlier };
  }

  async messages(conversationId: string): Promise<MessageRow[]> {
    await settleConversation(this.db, conversationId);
    return this.db.messages
      .where('[conversationId+createdAt]')
      .between([conversationId, -Infinity], [conversationId, Infinity])
      .toArray();
  }

  async addMessage(message: MessageRow): Promise<void> {
    await this.db.transaction('rw', this.db.messages, this.db.conversations, async () => {
      await this.db.messages.add(message);
      await this.db.conversations.update(message.conversationId, { updatedAt: message.createdAt });
    });
  }

  async updateMessage(id: string, changes: Partial<Omit<MessageRow, 'id' | 'conversationId'>>): Promise<MessageRow | undefined> {
    await this.db.messages.update(id, changes);
    return this.db.messages.get(id);
  }

  getMessage(id: string): Promise<MessageRow | undefined> {
    return this.db.messages.get(id);
  }

  /** Removes the given message and everything after it in its conversation (used by retry). */
  async truncateFrom(conversationId: string, createdAt: number): Promise<void> {
    await this.db.transaction('rw', this.db.messages, this.db.steps, async () => {
      for (const table of [this.db.messages, this.db.steps] as const) {
        await table.where('[conversationId+createdAt]').between([conversationId, createdAt], [conversationId, Infinity], true, true).delete();
      }
    });
  }

  async delete(conversationId: string): Promise<void> {
    await this.db.transaction('rw', [this.db.messages, this.db.conversations, this.db.steps, this.db.importQueue], async () => {
      await dropQueued(this.db, conversationId);
      await this.db.messages.where('conversationId').equals(conversationId).delete();
      await this.db.steps.where('conversationId').equals(conversationId).delete();
      await this.db.conversations.delete(conversationId);
    });
  }

  /** Clears history: conversations, their messages and steps, and the cache of pages read. */
  async clear(): Promise<void> {
    await this.db.transaction('rw', [this.db.messages, this.db.conversations, this.db.steps, this.db.pages, this.db.importQueue], async () => {
      await this.db.importQueue.clear();
      await this.db.messages.clear();
      await this.db.steps.clear();
      await this.db.conversations.clear();
      await this.db.pages.clear();
    });
  }

  /**
   * Run at background start: a reply still marked "streaming" was cut off when the browser stopped
   * the previous background. Its partial text stays; it is marked interrupted so the user can retry.
   */
  async markInterrupted(): Promise<number> {
    return this.db.messages.where('status').equals('streaming').modify({
      status: 'interrupted',
      error: { code: 'EXECUTION_ERROR', message: 'Interrupted: the browser stopped Jawad’s background while this answer was streaming. Press Retry.' },
    });
  }
}

/** What the sidebar may see of a stored message (the attached page text stays in the background). */
export function publicMessage(row: MessageRow): StoredMessage {
  const { pageContext: _pageContext, prompt: _prompt, agent: _agent, memoryContext: _memory, forgotten: _forgotten, ...message } = row;
  return message;
}
