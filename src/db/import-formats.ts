/**
 * Reading an import file: a Jawad archive, ChatGPT's conversations.json, or Open WebUI's chat
 * export, all turned into a Jawad archive. Pure; validated with zod; every failure is a JawadError
 * saying what is wrong with the file. Foreign records get ids derived from their own, so importing
 * the same file twice adds nothing the second time.
 */
import * as z from 'zod/mini';
import { Archive, ARCHIVE_FORMAT, ARCHIVE_VERSION, JawadError, validationDetails, type ArchivedMessage, type ImportFormat } from '../protocol';
import { titleFrom } from './conversations';

export interface ParsedImport {
  format: ImportFormat;
  archive: Archive;
}

type Conversation = Archive['conversations'][number];

const Text = z.optional(z.nullable(z.string()));
const Seconds = z.optional(z.nullable(z.number()));

// ---- ChatGPT (Settings → Data controls → Export data → conversations.json) -------------------

const ChatGptMessage = z.object({
  id: z.optional(z.string()),
  author: z.object({ role: z.string() }),
  create_time: Seconds,
  content: z.object({
    content_type: z.string(),
    parts: z.optional(z.nullable(z.array(z.unknown()))),
    text: Text,
    language: Text,
  }),
  metadata: z.optional(z.nullable(z.object({
    model_slug: Text,
    is_visually_hidden_from_conversation: z.optional(z.nullable(z.boolean())),
  }))),
});

const ChatGptNode = z.object({
  id: z.optional(z.string()),
  parent: Text,
  children: z.optional(z.nullable(z.array(z.string()))),
  message: z.optional(z.nullable(ChatGptMessage)),
});

const ChatGptConversation = z.object({
  id: Text,
  conversation_id: Text,
  title: Text,
  create_time: Seconds,
  update_time: Seconds,
  current_node: Text,
  mapping: z.record(z.string(), ChatGptNode),
});
type ChatGptConversation = z.infer<typeof ChatGptConversation>;
type ChatGptMessage = z.infer<typeof ChatGptMessage>;

/** The branch the user last saw: from the current node up to the root. */
function chatGptPath(conversation: ChatGptConversation): ChatGptMessage[] {
  const mapping = new Map(Object.entries(conversation.mapping));
  let nodeId = conversation.current_node ?? lastLeaf(mapping);
  const path: ChatGptMessage[] = [];
  const seen = new Set<string>();
  while (nodeId && !seen.has(nodeId)) {
    seen.add(nodeId);
    const node = mapping.get(nodeId);
    if (!node) break;
    if (node.message) path.push(node.message);
    nodeId = node.parent ?? undefined;
  }
  return path.reverse();
}

/** Without current_node: follow the last child from the root. */
function lastLeaf(mapping: Map<string, z.infer<typeof ChatGptNode>>): string | undefined {
  let id = [...mapping.entries()].find(([, node]) => !node.parent)?.[0];
  const seen = new Set<string>();
  while (id && !seen.has(id)) {
    seen.add(id);
    const next: string | undefined = mapping.get(id)?.children?.at(-1);
    if (!next) break;
    id = next;
  }
  return id;
}

/** What the user saw of a message: text parts and code; hidden context, thoughts and tool output are left out. */
function chatGptText(message: ChatGptMessage): string {
  const { content } = message;
  if (content.content_type === 'text' || content.content_type === 'multimodal_text') {
    return (content.parts ?? []).filter((part): part is string => typeof part === 'string').join('\n\n').trim();
  }
  if (content.content_type === 'code' && content.text) return `\`\`\`${content.language && content.language !== 'unknown' ? content.language : ''}\n${content.text}\n\`\`\``;
  return '';
}

function fromChatGpt(items: ChatGptConversation[], now: number): Archive {
  const conversations: Conversation[] = [];
  const messages: ArchivedMessage[] = [];
  for (const item of items) {
    const sourceId = item.conversation_id ?? item.id ?? stableId(JSON.stringify([item.title, item.create_time]));
    const conversationId = `chatgpt-${sourceId}`.slice(0, 100);
    const created = toMillis(item.create_time) ?? now;
    const turns = chatGptPath(item).filter((m) => (m.author.role === 'user' || m.author.role === 'assistant') && !m.metadata?.is_visually_hidden_from_conversation);
    let last = created;
    for (const [index, message] of turns.entries()) {
      const content = chatGptText(message);
      if (!content) continue;
      last = Math.max(last, toMillis(message.create_time) ?? last);
      messages.push(importedMessage(conversationId, `chatgpt-${message.id ?? `${sourceId}-${index}`}`, message.author.role as 'user' | 'assistant', content, last + index * 1e-3, message.metadata?.model_slug ?? undefined));
    }
    conversations.push({ id: conversationId, title: titleFrom(item.title ?? ''), createdAt: created, updatedAt: toMillis(item.update_time) ?? last });
  }
  return emptyArchive(now, conversations, messages);
}

// ---- Open WebUI (Settings → Chats → Export chats, or a single chat's "Export chat (.json)") ----

const OpenWebUiMessage = z.object({
  id: z.string(),
  parentId: Text,
  role: z.string(),
  content: z.optional(z.nullable(z.unknown())),
  timestamp: Seconds,
  model: Text,
});
type OpenWebUiMessage = z.infer<typeof OpenWebUiMessage>;

const OpenWebUiChat = z.object({
  id: Text,
  title: Text,
  timestamp: Seconds,
  history: z.optional(z.object({ messages: z.record(z.string(), OpenWebUiMessage), currentId: Text })),
  messages: z.optional(z.array(OpenWebUiMessage)),
});
type OpenWebUiChat = z.infer<typeof OpenWebUiChat>;

/** A row of Open WebUI's chat table, as "Export chats" writes it. */
const OpenWebUiRow = z.object({ id: Text, title: Text, chat: OpenWebUiChat, created_at: Seconds, updated_at: Seconds, pinned: z.optional(z.nullable(z.boolean())) });

function openWebUiPath(chat: OpenWebUiChat): OpenWebUiMessage[] {
  const history = chat.history;
  if (!history?.currentId) return chat.messages ?? [];
  const path: OpenWebUiMessage[] = [];
  const seen = new Set<string>();
  let id: string | null | undefined = history.currentId;
  while (id && !seen.has(id)) {
    seen.add(id);
    const message: OpenWebUiMessage | undefined = history.messages[id];
    if (!message) break;
    path.push(message);
    id = message.parentId;
  }
  return path.reverse();
}

function fromOpenWebUi(rows: z.infer<typeof OpenWebUiRow>[], now: number): Archive {
  const conversations: Conversation[] = [];
  const messages: ArchivedMessage[] = [];
  for (const row of rows) {
    const chat = row.chat;
    const sourceId = row.id || chat.id || stableId(JSON.stringify([row.title ?? chat.title, chat.timestamp, openWebUiPath(chat)[0]?.id]));
    const conversationId = `openwebui-${sourceId}`.slice(0, 100);
    const created = toMillis(row.created_at) ?? toMillis(chat.timestamp) ?? now;
    let last = created;
    for (const [index, message] of openWebUiPath(chat).entries()) {
      if ((message.role !== 'user' && message.role !== 'assistant') || typeof message.content !== 'string' || !message.content.trim()) continue;
      last = Math.max(last, toMillis(message.timestamp) ?? last);
      messages.push(importedMessage(conversationId, `openwebui-${message.id}`, message.role, message.content, last + index * 1e-3, message.model ?? undefined));
    }
    conversations.push({ id: conversationId, title: titleFrom(row.title ?? chat.title ?? ''), createdAt: created, updatedAt: toMillis(row.updated_at) ?? last, ...(row.pinned ? { pinned: true } : {}) });
  }
  return emptyArchive(now, conversations, messages);
}

// ---- Shared ---------------------------------------------------------------------------------

function importedMessage(conversationId: string, id: string, role: 'user' | 'assistant', content: string, createdAt: number, model?: string): ArchivedMessage {
  return { id: id.slice(0, 100), conversationId, role, content, status: 'complete', createdAt, requestId: 'import', ...(model && role === 'assistant' ? { model } : {}) };
}

function emptyArchive(now: number, conversations: Conversation[], messages: ArchivedMessage[]): Archive {
  return { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: now, conversations, messages, steps: [], usage: [], memories: [], prices: {} };
}

/** Exports write seconds (ChatGPT, Open WebUI messages) or milliseconds (Open WebUI chats). */
function toMillis(value: number | null | undefined): number | undefined {
  if (value === null || value === undefined || !Number.isFinite(value) || value <= 0) return undefined;
  return value < 1e11 ? value * 1000 : value;
}

/** A short stable id for a record that has none (FNV-1a, hex). */
function stableId(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

function validated<S extends z.ZodMiniType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = validationDetails(result.error);
  const first = result.error.issues[0];
  const where = first?.path.length ? ` at ${first.path.join('.')}` : '';
  throw new JawadError('VALIDATION_ERROR', `This ${what} is damaged${where}: ${first?.message ?? 'invalid'}. Nothing was imported.`, details);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads an import file's text; throws a JawadError naming the problem when it is none of the known formats. */
export function parseImport(text: string, now = Date.now()): ParsedImport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new JawadError('VALIDATION_ERROR', 'This file is not JSON. Choose a Jawad archive, ChatGPT’s conversations.json or an Open WebUI export.');
  }
  if (isObject(data) && data.format === ARCHIVE_FORMAT) {
    if (data.version !== ARCHIVE_VERSION) {
      throw new JawadError('VALIDATION_ERROR', `This archive is version ${String(data.version)}; this Jawad reads version ${ARCHIVE_VERSION}. Update Jawad to import it.`);
    }
    return { format: 'jawad', archive: validated(Archive, data, 'Jawad archive') };
  }
  const items = Array.isArray(data) ? data : [data];
  const first: unknown = items[0];
  if (isObject(first) && 'mapping' in first) {
    return { format: 'chatgpt', archive: fromChatGpt(validated(z.array(ChatGptConversation), items, 'ChatGPT export'), now) };
  }
  if (isObject(first) && 'chat' in first) {
    return { format: 'open-webui', archive: fromOpenWebUi(validated(z.array(OpenWebUiRow), items, 'Open WebUI export'), now) };
  }
  if (isObject(first) && ('history' in first || 'messages' in first)) {
    const chats = validated(z.array(OpenWebUiChat), items, 'Open WebUI export');
    return { format: 'open-webui', archive: fromOpenWebUi(chats.map((chat) => ({ id: chat.id, title: chat.title, chat })), now) };
  }
  throw new JawadError('VALIDATION_ERROR', 'This file is not a Jawad archive, a ChatGPT conversations.json or an Open WebUI export.');
}
