/**
 * History, memory and cost records (issue 14): what the history view, the archive and the cost
 * meter exchange with the background.
 */
import * as z from 'zod/mini';
import { AgentStep } from './agent';
import { ErrorPayload } from './errors';
import { UsageRecord } from './usage';

const Id = z.string().check(z.minLength(1), z.maxLength(200));
const Money = z.number().check(z.nonnegative(), z.maximum(1_000_000));
const Time = z.number().check(z.nonnegative());

// ---- Memory ---------------------------------------------------------------------------------

export const MAX_MEMORY_CHARS = 2_000;

/** user: typed by the user · conversation: taken from a chat · page: read on a web page (untrusted). */
export const MemorySource = z.enum(['user', 'conversation', 'page']);
export type MemorySource = z.infer<typeof MemorySource>;

export const Memory = z.object({
  id: Id,
  text: z.string().check(z.minLength(1), z.maxLength(MAX_MEMORY_CHARS)),
  source: MemorySource,
  /** The site a page memory came from ("https://example.com"); it is offered only there unless pinned. */
  site: z.optional(z.string().check(z.maxLength(500))),
  url: z.optional(z.string().check(z.maxLength(4_000))),
  title: z.optional(z.string().check(z.maxLength(500))),
  conversationId: z.optional(Id),
  messageId: z.optional(Id),
  pinned: z._default(z.boolean(), false),
  createdAt: Time,
  updatedAt: Time,
});
export type Memory = z.infer<typeof Memory>;

/** Something memory put in front of the model for an answer, with where it came from. */
export const UsedContext = z.object({
  kind: z.enum(['memory', 'message']),
  id: z.string(),
  /** What the model was given (cut for display). */
  text: z.string(),
  source: MemorySource,
  site: z.optional(z.string()),
  url: z.optional(z.string()),
  /** The page's or the earlier conversation's title. */
  title: z.optional(z.string()),
  conversationId: z.optional(z.string()),
  createdAt: z.number(),
});
export type UsedContext = z.infer<typeof UsedContext>;

// ---- Search ---------------------------------------------------------------------------------

export const Snippet = z.object({
  text: z.string(),
  marks: z.array(z.tuple([z.int(), z.int()])),
});
export type Snippet = z.infer<typeof Snippet>;

export const SearchHit = z.object({
  /** report: a research workflow's report (a message whose request link is `report-…`). */
  kind: z.enum(['message', 'step', 'report']),
  id: z.string(),
  conversationId: z.string(),
  conversationTitle: z.string(),
  /** The message to show: the hit itself, or the answer a step belongs to. */
  messageId: z.string(),
  createdAt: z.number(),
  snippet: Snippet,
});
export type SearchHit = z.infer<typeof SearchHit>;

// ---- Cost -----------------------------------------------------------------------------------

/** US dollars per million tokens. */
export const ModelPrice = z.object({
  input: Money,
  output: Money,
  /** Prompt tokens served from the provider's cache; the input price when unset. */
  cachedInput: z.optional(Money),
});
export type ModelPrice = z.infer<typeof ModelPrice>;

export const Budgets = z.object({
  /** US dollars one agent task (or chat answer) may spend before it pauses and asks. */
  perTask: z.optional(Money),
  /** US dollars all model calls of one day may spend before work pauses and asks. */
  perDay: z.optional(Money),
});
export type Budgets = z.infer<typeof Budgets>;

export const CostRow = z.object({
  key: z.string(),
  label: z.string(),
  calls: z.int(),
  inputTokens: z.int(),
  cachedInputTokens: z.int(),
  outputTokens: z.int(),
  reasoningTokens: z.int(),
  /** Dollars for the calls whose model has a price. */
  cost: z.number(),
  /** Calls of models without a known price: their tokens count, their cost is unknown. */
  unpricedCalls: z.int(),
});
export type CostRow = z.infer<typeof CostRow>;

export const CostReport = z.object({
  byDay: z.array(CostRow),
  byProvider: z.array(CostRow),
  /** Per assistant message of the conversation asked about: a reply, or an agent task's calls. */
  byMessage: z.record(z.string(), CostRow),
  prices: z.record(z.string(), ModelPrice),
  /** Which of `prices` the user set (the rest are built-in defaults). */
  customPrices: z.array(z.string()),
  budgets: Budgets,
});
export type CostReport = z.infer<typeof CostReport>;

// ---- Archive --------------------------------------------------------------------------------

export const ARCHIVE_FORMAT = 'jawad-archive';
export const ARCHIVE_VERSION = 1;
/** An import moves over the Port in parts this size (Chrome refuses messages over 64 MiB). */
export const TRANSFER_CHUNK_CHARS = 4_000_000;

/** A long text cut into Port-sized parts (an empty text is one empty part). */
export function splitText(text: string, size = TRANSFER_CHUNK_CHARS): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts.length > 0 ? parts : [''];
}
export const MAX_IMPORT_CHARS = 200_000_000;

const ArchivedConversation = z.object({
  id: Id,
  title: z.string().check(z.maxLength(1_000)),
  createdAt: Time,
  updatedAt: Time,
  pinned: z.optional(z.boolean()),
});

const ArchivedMessage = z.object({
  id: Id,
  conversationId: Id,
  role: z.enum(['user', 'assistant']),
  content: z.string().check(z.maxLength(2_000_000)),
  status: z.enum(['complete', 'streaming', 'stopped', 'interrupted', 'error']),
  createdAt: Time,
  requestId: z.string().check(z.maxLength(1_000)),
  usage: z.optional(z.object({ inputTokens: z.int().check(z.nonnegative()), outputTokens: z.int().check(z.nonnegative()) })),
  error: z.optional(ErrorPayload),
  page: z.optional(z.object({ title: z.string().check(z.maxLength(2_000)), url: z.string().check(z.maxLength(8_000)), selection: z.optional(z.string().check(z.maxLength(2_000))) })),
  model: z.optional(z.string().check(z.maxLength(500))),
  pageContext: z.optional(z.string().check(z.maxLength(2_000_000))),
  prompt: z.optional(z.string().check(z.maxLength(2_000_000))),
  agent: z.optional(z.boolean()),
});
export type ArchivedMessage = z.infer<typeof ArchivedMessage>;

/** One file with everything Jawad keeps, except API keys and settings. */
export const Archive = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  exportedAt: Time,
  conversations: z.array(ArchivedConversation).check(z.maxLength(1_000_000)),
  messages: z.array(ArchivedMessage).check(z.maxLength(10_000_000)),
  steps: z._default(z.array(AgentStep).check(z.maxLength(10_000_000)), []),
  usage: z._default(z.array(UsageRecord).check(z.maxLength(10_000_000)), []),
  memories: z._default(z.array(Memory).check(z.maxLength(1_000_000)), []),
  prices: z._default(z.record(z.string().check(z.maxLength(500)), ModelPrice), {}),
});
export type Archive = z.infer<typeof Archive>;

export const ImportFormat = z.enum(['jawad', 'chatgpt', 'open-webui']);
export type ImportFormat = z.infer<typeof ImportFormat>;

/** Per kind of record: new ones, ones already here unchanged, ones here with other content (kept as they are). */
export const ImportCount = z.object({ add: z.int(), same: z.int(), differ: z.int() });
export type ImportCount = z.infer<typeof ImportCount>;

export const ImportPreview = z.object({
  format: ImportFormat,
  conversations: ImportCount,
  messages: ImportCount,
  steps: ImportCount,
  usage: ImportCount,
  memories: ImportCount,
  /** Titles of the conversations that would be added (the first ones). */
  newTitles: z.array(z.string()),
  /** Done: the records were written. Otherwise this is what an import would do. */
  applied: z.boolean(),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

// ---- Trace ----------------------------------------------------------------------------------

/** One piece of work done for a user request: who did it, when, and what came of it. */
export const TraceEntry = z.object({
  requestId: z.string(),
  /** The component that did it, from the chain's last link ("Chat service", "Agent step", "Model router"…). */
  component: z.string(),
  kind: z.enum(['user-message', 'answer', 'model-call', 'tool-call']),
  at: z.number(),
  title: z.string(),
  detail: z.optional(z.string()),
  status: z.optional(z.string()),
  /** Tool calls: Harbor's verdict and the decision that let it run (or not). */
  verdict: z.optional(z.string()),
  decision: z.optional(z.string()),
  site: z.optional(z.string()),
  durationMs: z.optional(z.number()),
  /** Model calls: tokens and cost. */
  usage: z.optional(z.object({ provider: z.string(), model: z.string(), inputTokens: z.int(), cachedInputTokens: z.int(), outputTokens: z.int(), reasoningTokens: z.int(), cost: z.optional(z.number()) })),
});
export type TraceEntry = z.infer<typeof TraceEntry>;

export const Trace = z.object({
  /** The user action every entry goes back to (`user-1a2b3c4d`). */
  root: z.string(),
  conversationId: z.string(),
  /** The message or step the trace was opened from, and its own request id (the entry to point at). */
  from: z.string(),
  fromRequestId: z.optional(z.string()),
  entries: z.array(TraceEntry),
});
export type Trace = z.infer<typeof Trace>;
