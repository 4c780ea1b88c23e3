/** Usage records as the router writes them (one per model call), for tests of what reads them. */
import type { UsageRecord } from '../../../src/protocol';
import type { Sidebar } from './extension-browser';

export interface AnswerMatch {
  /** The answer with this exact text… */
  content?: string;
  /** …or the one still being written. */
  streaming?: boolean;
}

/**
 * Writes a usage record for a model call of the matched answer, under its request-id chain, straight
 * into the extension's database from the sidebar (same origin). Returns the answer's ids.
 */
export function recordModelCall(
  sidebar: Sidebar,
  match: AnswerMatch,
  call: Pick<UsageRecord, 'kind' | 'provider' | 'model' | 'inputTokens' | 'cachedInputTokens' | 'outputTokens'> & { link: string },
): Promise<{ id: string; conversationId: string }> {
  return sidebar.eval(async (win, { match: wanted, call: made }) => {
    const open = win.indexedDB.open('jawad');
    const db = await new Promise<IDBDatabase>((done) => (open.onsuccess = () => done(open.result)));
    const read = db.transaction('messages').objectStore('messages').getAll();
    const rows = await new Promise<Array<{ id: string; role: string; status: string; content: string; requestId: string; conversationId: string }>>((done) => (read.onsuccess = () => done(read.result)));
    const answer = rows.find((row) => row.role === 'assistant' && (wanted.streaming ? row.status === 'streaming' : row.content === wanted.content));
    if (!answer) throw new Error(`No answer matching ${JSON.stringify(wanted)}`);
    const write = db.transaction('usage', 'readwrite');
    const { link, ...fields } = made;
    write.objectStore('usage').put({ ...fields, requestId: `${answer.requestId}:${link}`, conversationId: answer.conversationId, messageId: answer.id, baseUrl: 'https://api.example/v1', reasoningTokens: 0, createdAt: Date.now() });
    await new Promise((done) => (write.oncomplete = done));
    db.close();
    return { id: answer.id, conversationId: answer.conversationId };
  }, { match, call });
}
