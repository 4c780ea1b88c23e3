/**
 * Every message that crosses a context boundary, as a zod schema. Types are inferred from the
 * schemas; receivers validate with `parseSidebarRequest` & co. and never trust the sender's shape.
 */
import * as z from 'zod/mini';
import { AgentStep, Decision, Grant, HarborOptions, PermissionLevel } from './agent';
import { ActivityEntry, BridgeStatus, isLoopbackBridgeUrl } from './bridge';
import { CAPS } from './caps';
import { Waited } from './wait';
import { DialogText, LateDialogs, PageDialogs } from './dialogs';
import { ErrorPayload, JawadError } from './errors';
import { Budgets, CostReport, ImportPreview, ModelPrice, Trace, MAX_IMPORT_CHARS, MAX_MEMORY_CHARS, Memory, SearchHit, TRANSFER_CHUNK_CHARS, UsedContext } from './history';
import { REQUEST_ID_PATTERN } from './request-id';
import { DEFAULT_PARALLEL, MAX_PARALLEL, MAX_WORKFLOW_STEPS, PlanEdit, ResearchSettings, WorkflowPlan } from './workflow';
import { ProviderSettings, PublicSettings, PublicVoiceSettings, VoiceMode, VoiceSettings } from './settings';

const RequestId = z.string().check(z.regex(REQUEST_ID_PATTERN, 'requestId must be a request-id chain like user-1a2b3c4d'));
const Id = z.string().check(z.minLength(1), z.maxLength(100));
const WindowId = z.optional(z.int());

function message<T extends string, P extends z.ZodMiniType>(type: T, payload: P) {
  return z.object({ type: z.literal(type), requestId: RequestId, payload });
}
const Empty = z._default(z.object({}), {});
const NewOrExisting = z._default(z.nullable(Id), null);

// ---- Shared records -------------------------------------------------------------------------

export const Usage = z.object({
  inputTokens: z.int().check(z.nonnegative()),
  outputTokens: z.int().check(z.nonnegative()),
  cachedInputTokens: z.optional(z.int().check(z.nonnegative())),
  reasoningTokens: z.optional(z.int().check(z.nonnegative())),
});
export type Usage = z.infer<typeof Usage>;

/** complete: the model finished · streaming: in flight · stopped: the user pressed stop ·
 *  interrupted: the background went away mid-answer · error: the provider or network failed. */
export const MessageStatus = z.enum(['complete', 'streaming', 'stopped', 'interrupted', 'error']);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const PageRef = z.object({
  title: z.string(),
  url: z.string(),
  /** The start of what the user had selected on it, shown on the message's page chip. */
  selection: z.optional(z.string()),
});
export type PageRef = z.infer<typeof PageRef>;

export const StoredMessage = z.object({
  id: Id,
  conversationId: Id,
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  status: MessageStatus,
  createdAt: z.number(),
  requestId: z.string(),
  usage: z.optional(Usage),
  error: z.optional(ErrorPayload),
  /** The page attached as context (user turns) or summarised (assistant turns). */
  page: z.optional(PageRef),
  /** The model that wrote an assistant turn. */
  model: z.optional(z.string()),
  /** The model's thinking, kept apart from the answer: shown collapsed, never sent back. */
  reasoning: z.optional(z.string()),
  /** What memory gave the model for this answer (issue 14). */
  context: z.optional(z.array(UsedContext)),
});
export type StoredMessage = z.infer<typeof StoredMessage>;

export const Conversation = z.object({
  id: Id,
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Kept at the top of the history list. */
  pinned: z.optional(z.boolean()),
});
export type Conversation = z.infer<typeof Conversation>;

// ---- Sidebar → background (over the Port) ----------------------------------------------------

export const MAX_CHAT_CHARS = 100_000;
/** About 7.5 MB of audio: five minutes of Opus at typical voice bit rates, with room to spare. */
export const MAX_AUDIO_BASE64_CHARS = 10_000_000;

/** The latest messages a conversation opens with. */
export const OPEN_LIMIT = 50;

const TransferPart = {
  transferId: Id,
  index: z.int().check(z.nonnegative()),
  count: z.int().check(z.positive(), z.maximum(Math.ceil(MAX_IMPORT_CHARS / TRANSFER_CHUNK_CHARS))),
  text: z.string().check(z.maxLength(TRANSFER_CHUNK_CHARS)),
};

// ---- History, memory, traces and cost (issue 14) --------------------------------------------
// Kept together, apart from the rest, so parallel work on the protocol merges cleanly.

function historyRequests() {
  return [
    message('SEARCH_HISTORY', z.object({ query: z.string().check(z.maxLength(500)) })),
    message('RENAME_CONVERSATION', z.object({ conversationId: Id, title: z.string().check(z.trim(), z.minLength(1, 'A title cannot be empty'), z.maxLength(200)) })),
    message('PIN_CONVERSATION', z.object({ conversationId: Id, pinned: z.boolean() })),
    message('EXPORT_MARKDOWN', z.object({ conversationId: Id })),
    /** One part of a file to import; once all parts are in: a preview, or the import itself when `apply`. */
    message('IMPORT_PART', z.object({ ...TransferPart, apply: z._default(z.boolean(), false) })),
    message('GET_COSTS', z.object({ conversationId: z.optional(Id) })),
    message('LIST_MEMORIES', Empty),
    /** Adds a memory (no id) or changes one; page memories keep their site. */
    message('SAVE_MEMORY', z.object({
      id: z.optional(Id),
      text: z.string().check(z.trim(), z.minLength(1, 'A memory cannot be empty'), z.maxLength(MAX_MEMORY_CHARS)),
      pinned: z._default(z.boolean(), false),
    })),
    /** Forgets a memory, or keeps a past message out of memory from now on (the message itself stays). */
    message('FORGET_MEMORY', z.object({ kind: z.enum(['memory', 'message']), id: Id })),
    message('SET_MEMORY_ENABLED', z.object({ enabled: z.boolean() })),
    /** What memory would give the model for this question (the memory view's "try a question"). */
    message('PREVIEW_RECALL', z.object({ question: z.string().check(z.minLength(1), z.maxLength(MAX_CHAT_CHARS)), conversationId: z.optional(Id), windowId: WindowId })),
    message('SAVE_BUDGETS', Budgets),
    /** Sets the price of `provider/model`, or (null) goes back to the default. */
    message('SAVE_PRICE', z.object({ key: z.string().check(z.regex(/^[^/\s]+\/\S+$/, 'Name the model as provider/model'), z.maxLength(300)), price: z.nullable(ModelPrice) })),
    /** The user's answer to a BUDGET_REQUEST: go on (with one more budget's worth) or stop the work. */
    message('BUDGET_RESPONSE', z.object({ id: Id, decision: z.enum(['continue', 'stop']) })),
    /** The request-id chain behind an answer or an agent step. */
    message('GET_TRACE', z.object({ messageId: z.optional(Id), stepId: z.optional(Id) })),
  ] as const;
}

function historyEvents() {
  return [
    message('SEARCH_RESULTS', z.object({ query: z.string(), hits: z.array(SearchHit) })),
    message('MARKDOWN', z.object({ filename: z.string(), markdown: z.string() })),
    message('IMPORT_RESULT', ImportPreview),
    message('COSTS', CostReport),
    message('MEMORIES', z.object({ enabled: z.boolean(), memories: z.array(Memory) })),
    message('TRACE', Trace),
    message('RECALL', z.object({ question: z.string(), used: z.array(UsedContext) })),
    /** Work is paused before a model call that would go over a budget; answer with BUDGET_RESPONSE. */
    message('BUDGET_REQUEST', z.object({
      id: Id,
      conversationId: Id,
      messageId: Id,
      scope: z.enum(['task', 'day']),
      /** Dollars spent so far (the task's, or today's), and the limit. */
      spent: z.number(),
      limit: z.number(),
    })),
    /** A budget prompt is no longer waiting (answered, or its task ended). */
    message('BUDGET_SETTLED', z.object({ id: Id })),
  ] as const;
}

export const SidebarRequest = z.discriminatedUnion('type', [
  message('CHAT_MESSAGE', z.object({
    conversationId: NewOrExisting,
    content: z.string().check(z.trim(), z.minLength(1, 'Type a message first'), z.maxLength(MAX_CHAT_CHARS)),
    attachPage: z._default(z.boolean(), false),
    /** Let the model act on the page through the tool registry (the agent loop), under Harbor. */
    agent: z._default(z.boolean(), false),
    windowId: WindowId,
  })),
  message('SUMMARIZE_PAGE', z.object({ conversationId: NewOrExisting, windowId: WindowId })),
  message('STOP_GENERATION', z.object({ conversationId: Id })),
  message('RETRY_MESSAGE', z.object({ conversationId: Id, messageId: Id })),
  message('LIST_CONVERSATIONS', Empty),
  message('OPEN_CONVERSATION', z.object({
    conversationId: Id,
    /** How many of the latest messages to send (older ones on request); OPEN_LIMIT by default. */
    limit: z.optional(z.int().check(z.minimum(1), z.maximum(100_000))),
    /** A message to show (a search hit): enough messages are sent to include it. */
    focus: z.optional(Id),
  })),
  message('DELETE_CONVERSATION', z.object({ conversationId: Id })),
  message('CLEAR_HISTORY', Empty),
  message('GET_SETTINGS', Empty),
  message('SAVE_SETTINGS', ProviderSettings),
  message('TEST_CONNECTION', ProviderSettings),
  message('GET_VOICE_SETTINGS', Empty),
  message('SAVE_VOICE_SETTINGS', VoiceSettings),
  /** The sidebar is about to record: the background checks the transcription setup first. */
  message('START_VOICE', z.object({ mode: VoiceMode })),
  /** Recording ended: the audio to transcribe, or `cancelled` to drop it unheard. */
  message('STOP_VOICE', z.object({
    cancelled: z._default(z.boolean(), false),
    audio: z.optional(z.string().check(z.maxLength(MAX_AUDIO_BASE64_CHARS))),
    mimeType: z._default(z.string().check(z.maxLength(100)), 'audio/webm'),
    durationMs: z._default(z.number().check(z.nonnegative()), 0),
  })),
  /** The tool registry, as OpenAI-style function definitions (seed 002's GET_TOOLS). */
  message('GET_TOOLS', Empty),
  /** Runs one tool against the sidebar window's current tab (seed 002's EXECUTE_TOOL). */
  message('EXECUTE_TOOL', z.object({
    toolName: z.string().check(z.minLength(1), z.maxLength(100)),
    parameters: z._default(z.record(z.string(), z.unknown()), {}),
    timeoutMs: z.optional(z.int().check(z.minimum(100), z.maximum(120_000))),
    windowId: WindowId,
  })),
  /** The user's answer to a PERMISSION_REQUEST. */
  message('PERMISSION_RESPONSE', z.object({ stepId: Id, decision: Decision })),
  /** Harbor's standing grants and options, for the settings view. */
  message('GET_GRANTS', Empty),
  message('REVOKE_GRANT', z.object({ grantId: Id })),
  message('SAVE_HARBOR_OPTIONS', HarborOptions),
  /** Keeps Chrome's service worker awake while the sidebar waits on a stream. */
  message('PING', Empty),
  // The external agent bridge (seed 004's popup messages, plus pairing and the kill switch).
  message('GET_STATUS', Empty),
  message('CONNECT', Empty),
  message('DISCONNECT', Empty),
  message('UPDATE_URL', z.object({ url: z.string().check(z.refine(isLoopbackBridgeUrl, 'The bridge connects to ws://localhost or ws://127.0.0.1 only')) })),
  message('GET_ACTIVITY_LOG', Empty),
  message('APPROVE_PAIRING', z.object({ client: z.string().check(z.maxLength(100)) })),
  message('REFUSE_PAIRING', z.object({ client: z.string().check(z.maxLength(100)) })),
  message('UNPAIR_CLIENT', z.object({ clientId: z.string().check(z.maxLength(100)) })),
  /** Disconnects and stops every client's command and prompt at once. */
  message('KILL_BRIDGE', Empty),
  ...historyRequests(),
  /** Research mode: the model plans a workflow for this intent; the plan comes back as WORKFLOW_UPDATE (proposed). */
  message('START_WORKFLOW', z.object({
    intent: z.string().check(z.trim(), z.minLength(1, 'Say what to research first'), z.maxLength(4_000)),
    windowId: WindowId,
  })),
  /** The user's approval of a proposed plan, as edited (reordered, sites changed, steps removed). */
  message('APPROVE_WORKFLOW', z.object({
    workflowId: Id,
    steps: z.array(PlanEdit).check(z.minLength(1, 'Keep at least one step'), z.maxLength(MAX_WORKFLOW_STEPS)),
    keepTabs: z._default(z.boolean(), false),
    /** How many read-only steps may run side by side. */
    parallel: z._default(z.int().check(z.minimum(1), z.maximum(MAX_PARALLEL)), DEFAULT_PARALLEL),
  })),
  /** After a restart, a step that may have changed something runs again only on this (or is skipped). */
  message('CONFIRM_WORKFLOW_STEP', z.object({ workflowId: Id, stepId: Id, run: z.boolean() })),
  message('CANCEL_WORKFLOW', z.object({ workflowId: Id })),
  /** The workflows not yet finished, and the last finished one: one WORKFLOW_UPDATE each. */
  message('GET_WORKFLOWS', Empty),
  message('GET_RESEARCH_SETTINGS', Empty),
  message('SAVE_RESEARCH_SETTINGS', ResearchSettings),
]);
export type SidebarRequest = z.infer<typeof SidebarRequest>;
export type SidebarRequestType = SidebarRequest['type'];
export type SidebarRequestOf<T extends SidebarRequestType> = Extract<SidebarRequest, { type: T }>;

// ---- Background → sidebar -------------------------------------------------------------------

export const ToolListing = z.object({
  type: z.literal('function'),
  function: z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) }),
  permission: PermissionLevel,
});
export type ToolListing = z.infer<typeof ToolListing>;

/** seed 002's ToolExecutionResponse, plus which tool it answers. */
export const ToolResult = z.object({
  toolName: z.string(),
  success: z.boolean(),
  data: z.optional(z.unknown()),
  error: z.optional(ErrorPayload),
  duration: z.number(),
});
export type ToolResult = z.infer<typeof ToolResult>;

export const VOICE_ERROR_CODES = [
  'MIC_DENIED',
  'NO_MIC',
  'MIC_BUSY',
  'NOT_CONFIGURED',
  'NOT_SUPPORTED',
  'BAD_KEY',
  'SERVER_DOWN',
  'TRANSCRIPTION_FAILED',
  'EMPTY_AUDIO',
  'TIMEOUT',
] as const;
export const VoiceErrorCode = z.enum(VOICE_ERROR_CODES);
export type VoiceErrorCode = z.infer<typeof VoiceErrorCode>;

/** A voice failure with words for the user: what happened and what to do about it. */
export const VoiceErrorPayload = z.object({ code: VoiceErrorCode, error: z.string() });
export type VoiceErrorPayload = z.infer<typeof VoiceErrorPayload>;

export const ChatResponsePayload = z.discriminatedUnion('phase', [
  z.object({
    phase: z.literal('start'),
    conversation: Conversation,
    userMessage: z.optional(StoredMessage),
    assistantMessage: StoredMessage,
    /** Set by a retry: this answer, and everything after it, is replaced. */
    replaces: z.optional(Id),
  }),
  z.object({ phase: z.literal('delta'), conversationId: Id, messageId: Id, text: z.string() }),
  /** More of the model's thinking, streamed apart from the answer. */
  z.object({ phase: z.literal('thinking'), conversationId: Id, messageId: Id, text: z.string() }),
  z.object({ phase: z.literal('final'), conversationId: Id, message: StoredMessage }),
]);
export type ChatResponsePayload = z.infer<typeof ChatResponsePayload>;

export const CONNECTION_CHECKS = ['reachable', 'key', 'model', 'streaming', 'tools'] as const;
/** One line of the Test connection report: what was checked and what came of it. */
export const ConnectionCheck = z.object({
  name: z.enum(CONNECTION_CHECKS),
  status: z.enum(['ok', 'warn', 'fail', 'skipped']),
  detail: z.string(),
});
export type ConnectionCheck = z.infer<typeof ConnectionCheck>;

export const TestResultPayload = z.object({
  success: z.boolean(),
  /** One line per check, in CONNECTION_CHECKS order. */
  checks: z.optional(z.array(ConnectionCheck)),
  error: z.optional(z.string()),
  /** Models the server lists, when it lists them. */
  models: z.optional(z.array(z.string())),
  latencyMs: z.optional(z.number()),
});
export type TestResultPayload = z.infer<typeof TestResultPayload>;

export const BackgroundEvent = z.discriminatedUnion('type', [
  message('CHAT_RESPONSE', ChatResponsePayload),
  message('CONVERSATION', z.object({
    conversation: Conversation,
    messages: z.array(StoredMessage),
    steps: z._default(z.array(AgentStep), []),
    /** How many older messages were not sent. */
    earlier: z.optional(z.int().check(z.nonnegative())),
    /** The message the sidebar asked to show. */
    focus: z.optional(z.string()),
  })),
  message('CONVERSATIONS', z.object({ conversations: z.array(Conversation) })),
  message('SETTINGS', z.nullable(PublicSettings)),
  message('TEST_RESULT', TestResultPayload),
  message('ERROR', ErrorPayload),
  message('TOOLS', z.object({ tools: z.array(ToolListing) })),
  message('TOOL_RESULT', ToolResult),
  message('VOICE_SETTINGS', PublicVoiceSettings),
  /** A step of the agent was proposed, decided, started or finished. */
  message('ACTION_LOG_UPDATE', z.object({ step: AgentStep })),
  /** Harbor asks the user about this step (status 'asking'); answer with PERMISSION_RESPONSE. */
  message('PERMISSION_REQUEST', z.object({ step: AgentStep })),
  message('GRANTS', z.object({ grants: z.array(Grant), options: HarborOptions })),
  message('VOICE_STARTED', z.object({ mode: VoiceMode })),
  message('VOICE_TRANSCRIBING', Empty),
  message('VOICE_RESULT', z.object({ transcript: z.string(), isFinal: z.boolean() })),
  message('VOICE_END', Empty),
  message('VOICE_ERROR', VoiceErrorPayload),
  message('BRIDGE_STATUS', BridgeStatus),
  message('ACTIVITY_LOG', z.object({ entries: z.array(ActivityEntry) })),
  ...historyEvents(),
  /** The whole plan, on every change of it. */
  message('WORKFLOW_UPDATE', WorkflowPlan),
  message('RESEARCH_SETTINGS', ResearchSettings),
]);
export type BackgroundEvent = z.infer<typeof BackgroundEvent>;
export type BackgroundEventOf<T extends BackgroundEvent['type']> = Extract<BackgroundEvent, { type: T }>;

// ---- Background → content script ------------------------------------------------------------

/** Page-chosen text with a cap: the page agent cuts to size, and a longer answer is refused. */
const Capped = (max: number) => z.string().check(z.maxLength(max));

/** What a shop page says about its product; each field from the best source that has it. */
const Fact = z.optional(Capped(CAPS.productField));
export const Product = z.object({
  name: Fact,
  price: Fact,
  currency: Fact,
  brand: Fact,
  rating: Fact,
  availability: Fact,
  sources: z.array(z.enum(['json-ld', 'microdata', 'opengraph', 'visible'])),
});
export type Product = z.infer<typeof Product>;

export const SnapshotRef = z.object({
  ref: z.string(),
  role: z.string(),
  name: z.string(),
  tag: z.string(),
  id: z.optional(z.string()),
  testid: z.optional(z.string()),
});
export type SnapshotRef = z.infer<typeof SnapshotRef>;

/** Said instead of the page's text when nothing on it is visible as text. */
export const NO_READABLE_TEXT = '(This page has no readable text: nothing on it shows as text.)';

export const PageContent = z.object({
  title: Capped(CAPS.title),
  url: Capped(CAPS.url),
  markdown: z.string(),
  /** True when the page was longer than what a prompt can carry and was cut. */
  truncated: z.boolean(),
  lang: z.optional(z.string()),
  /** Null when the page is not a product page. */
  product: z._default(z.nullable(Product), null),
  /** Everything a user can act on, with the refs the action tools take (same as the snapshot's). */
  interactiveElements: z._default(z.array(SnapshotRef), []),
  lateDialogs: LateDialogs,
  /** What the user has selected on the page, as far as it shows: what "this" in their question may mean. */
  selection: z.optional(z.string().check(z.maxLength(10_000))),
  /** The tab shows a PDF in the browser's viewer: its number of pages (the markdown is its text). */
  pdfPages: z.optional(z.int()),
});
export type PageContent = z.infer<typeof PageContent>;

/** A compact outline of the page for a model, with a ref on everything a user can act on. */
export const PageSnapshot = z.object({
  url: Capped(CAPS.url),
  title: Capped(CAPS.title),
  text: z.string(),
  refs: z.array(SnapshotRef),
  elementCount: z.int(),
  /** True when the time or size budget ran out before the walk finished. */
  partial: z.boolean(),
  /**
   * The document each frame's refs belong to (frame prefix → document id; '' is the page). Refs
   * restart at e1 on every page, so a ref means something only together with its document.
   */
  documents: z.optional(z.record(z.string(), z.string())),
  /** Requests (XHR, fetch) the tab's last action set off that were still unanswered when the snapshot stopped waiting. */
  unansweredRequests: z.optional(z.int()),
  /** A snapshot asked to wait (for text to show or go, or for time): what for, whether it came, after how long. */
  waited: z.optional(Waited),
  lateDialogs: LateDialogs,
});
export type PageSnapshot = z.infer<typeof PageSnapshot>;

/** What the background hands each frame to claim its place with: fresh per frame and per snapshot. */
export const FRAME_CLAIM_PATTERN = /^n[0-9a-f]{16}$/;

/** A snapshot ref: e12 in the page, f3e4 in frame 3. */
export const REF_PATTERN = /^(f\d+)?e\d+$/;

/** The frame a ref belongs to: f12e3 lives in frame 12; e3, a selector or nothing, in the page itself. */
export function frameOfRef(ref: string | undefined): number {
  return Number(/^f(\d+)e/.exec(ref ?? '')?.[1] ?? 0);
}

/** The prefix a frame's refs carry: '' in the page itself, f12 in frame 12. */
export function framePrefix(frameId: number): string {
  return frameId === 0 ? '' : `f${frameId}`;
}

/** An element to act on: a snapshot ref (e12, f1e3) or a CSS selector; neither means the page. */
export const Target = z.object({
  ref: z.optional(z.string().check(z.regex(REF_PATTERN, 'A ref looks like e12'))),
  selector: z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
}).check(z.refine((target) => !(target.ref && target.selector), 'Give either a ref or a selector, not both'));
export type Target = z.infer<typeof Target>;

/** The element tool parameters name: a ref, else a selector, else nothing (the page itself). */
export function targetOf(params: { ref?: unknown; selector?: unknown }): Target {
  if (typeof params.ref === 'string' && params.ref) return { ref: params.ref };
  return typeof params.selector === 'string' && params.selector ? { selector: params.selector } : {};
}

/**
 * What a step was judged (and approved) on, fixed at judging time and checked again in the page
 * just before the action runs: the document, and the target's identity as the user saw it.
 */
export const Binding = z.object({
  documentId: z.string().check(z.maxLength(100)),
  role: z.optional(z.string().check(z.maxLength(100))),
  name: z.optional(z.string().check(z.maxLength(1_000))),
  url: z.optional(z.string().check(z.maxLength(10_000))),
});
export type Binding = z.infer<typeof Binding>;

/** Why a bound step did not run when its document is gone (navigated, reloaded). */
export function documentChanged(): JawadError {
  return new JawadError('STALE_REF', 'The page has changed since this step was judged (it navigated or reloaded): the step was not run. Take a new snapshot.');
}

/** seed 004's commands, minus snapshot (its own request). */
/** Extra choices of get, is and scroll. */
export const ActOptions = z.object({
  what: z.optional(z.enum(['text', 'value', 'attribute', 'html', 'url', 'title', 'visible', 'enabled', 'checked', 'editable'])),
  name: z.optional(z.string().check(z.maxLength(100))),
  direction: z.optional(z.enum(['up', 'down', 'left', 'right', 'top', 'bottom'])),
  amount: z.optional(z.int().check(z.minimum(1), z.maximum(100_000))),
  /** A confirmation or prompt box the page shows during the action is accepted (the step gate asked the user), not cancelled. */
  acceptDialog: z.optional(z.boolean()),
  /** With acceptDialog: what a prompt box the page shows is answered with (else the page's own suggestion). */
  dialogText: z.optional(DialogText),
});
export type ActOptions = z.infer<typeof ActOptions>;

export const ACTIONS = ['click', 'dblclick', 'fill', 'type', 'press', 'hover', 'focus', 'select', 'check', 'uncheck', 'scroll', 'get', 'is'] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * Actions that run the page's own handlers (a click, a key, a changed value). What those handlers
 * do is followed: another page they open (a link, a form sent, a dropdown whose choice sends its
 * form, `location.href = …` in a change handler) is waited for, and an alert, confirmation or
 * prompt box they show is answered.
 */
export const RUNS_PAGE_HANDLERS: ReadonlySet<Action> = new Set(['click', 'dblclick', 'press', 'fill', 'type', 'select', 'check', 'uncheck']);

/**
 * How long after a click on a link the page took over (it cancelled following it) its script may
 * still start what the link stands for, on the page's own clock: a list that tells a click from a
 * double click acts only after a timer (Roundcube loads the message into its preview pane 60 ms
 * after the click), later still when the page is busy.
 */
export const TAKEN_OVER_LINK_MS = 150;

/** What an action did, read back from the page after doing it. */
export const ActionOutcome = z.object({
  action: z.enum(ACTIONS),
  target: z.string(),
  value: z.optional(z.string()),
  checked: z.optional(z.boolean()),
  /** What `get` read or `is` found; `scroll`'s new position. */
  result: z.optional(z.unknown()),
  /** This document began leaving for another page in this tab (a link followed, a form sent, a script's navigation): a new page is coming. */
  navigates: z.optional(z.boolean()),
  /**
   * The address it leaves for, where the page told it (a link's, the Navigation API's destination):
   * the tab has not arrived while it still shows the page left. For the background only.
   */
  leavingFor: z.optional(z.string().check(z.maxLength(CAPS.url))),
  /**
   * The page cancelled a click on a link that leads elsewhere: its script does what the link stands
   * for, maybe after a timer (up to TAKEN_OVER_LINK_MS). For the background only (request-watch.ts);
   * not shown to the model.
   */
  linkTakenOver: z.optional(z.boolean()),
  /** The page the action led to, once it loaded (a link, a form submission). */
  navigatedTo: z.optional(z.string()),
  /** That page could not be loaded (the tab shows the browser's error page): why, in words. */
  navigationFailed: z.optional(z.string()),
  /** Requests (XHR, fetch) the action set off that were still unanswered when it stopped waiting. */
  unansweredRequests: z.optional(z.int()),
  /** The page's own dialog boxes the action raised, and how Jawad answered each. */
  dialogs: z.optional(PageDialogs),
  lateDialogs: LateDialogs,
});
export type ActionOutcome = z.infer<typeof ActionOutcome>;

export const ContentRequest = z.discriminatedUnion('type', [
  message('READ_PAGE', z.object({ maxChars: z._default(z.int().check(z.positive()), 60_000) })),
  message('SNAPSHOT', z.object({
    maxRefs: z._default(z.int().check(z.minimum(1), z.maximum(20_000)), 3_000),
    timeBudgetMs: z._default(z.int().check(z.minimum(10), z.maximum(10_000)), 800),
    page: z._default(z.int().check(z.minimum(1), z.maximum(100_000)), 1),
    /** '' in the top frame; `f<frameId>` in a frame, so refs name their frame (f12e3). */
    framePrefix: z._default(z.string().check(z.regex(/^(f\d+)?$/)), ''),
    /** A frame's single-use claim for this snapshot, which it posts to its parent window (see FRAME_CLAIMS). */
    claim: z.optional(z.string().check(z.regex(FRAME_CLAIM_PATTERN))),
  })),
  /** For each `[frame=<token>]` this frame's snapshot wrote: the claims that came from that <iframe>'s own window. */
  message('FRAME_CLAIMS', z.object({ tokens: z.array(z.string().check(z.regex(/^t\d+$/))).check(z.maxLength(1_000)) })),
  /**
   * What an action's target is (role, name, whether it submits a form), and what the action would
   * do to it (`action` + `value`: would these keys submit, this text break a line in a form field,
   * where this link leads), judged where it would happen — for Harbor, before anything is done.
   */
  message('DESCRIBE', z.object({
    target: Target,
    action: z.optional(z.enum(ACTIONS)),
    value: z.optional(z.string().check(z.maxLength(100_000))),
    /** The document the caller's refs came from: another one means the refs are stale. */
    expectDocument: z.optional(z.string().check(z.maxLength(100))),
  })),
  /** Outlines the given refs on the page (all of the last snapshot's when none), or removes the outlines. */
  message('HIGHLIGHT', z.object({
    refs: z._default(z.array(z.string().check(z.regex(REF_PATTERN))).check(z.maxLength(5_000)), []),
    clear: z._default(z.boolean(), false),
  })),
  /**
   * Answers once the page has the answers to the requests an action set off (`received`) and the
   * document then holds still: no change for quietMs. Each wait lasts maxMs at most.
   */
  message('SETTLE', z.object({
    quietMs: z.int().check(z.minimum(0), z.maximum(2_000)),
    maxMs: z.int().check(z.minimum(0), z.maximum(10_000)),
    /** Addresses of the answered requests: the page has them once its resource timeline lists them. */
    received: z._default(z.array(z.string().check(z.maxLength(CAPS.url))).check(z.maxLength(50)), []),
  })),
  /**
   * The action this frame's agent ran, and what it set off, is over: the page's boxes are the
   * browser's own again. Answered with the boxes the page showed since the action's own answer.
   */
  message('ACTION_DONE', z.object({})),
  message('ACT', z.object({
    action: z.enum(ACTIONS),
    target: Target,
    /** fill/type: text · press: keys such as "Enter" or "Control+a" · select: option value or text. */
    value: z.optional(z.string().check(z.maxLength(100_000))),
    options: z._default(ActOptions, {}),
    /** What the step was judged on: the action does not run if the page or the element changed since. */
    expect: z.optional(Binding),
  })),
]);
export type ContentRequest = z.infer<typeof ContentRequest>;

/**
 * SETTLE's answer: `quiet` false when the page was still changing at maxMs; `startedAt`, for each
 * received address, when the page started its request (ms since the epoch), null when its timeline
 * does not list it.
 */
export const Settled = z.object({
  quiet: z.boolean(),
  startedAt: z._default(z.array(z.nullable(z.number())).check(z.maxLength(50)), []),
  /** The page's own boxes Jawad answered meanwhile, as the page showed the answers. */
  dialogs: z._default(PageDialogs, []),
});
export type Settled = z.infer<typeof Settled>;

/** ACTION_DONE's answer. */
export const ActionDone = z.object({ dialogs: PageDialogs });
export type ActionDone = z.infer<typeof ActionDone>;

/** FRAME_CLAIMS' answer: token → the distinct claims its <iframe>'s window posted. */
export const FrameClaims = z.object({ claims: z.record(z.string(), z.array(z.string().check(z.regex(FRAME_CLAIM_PATTERN))).check(z.maxLength(50))) });
export type FrameClaims = z.infer<typeof FrameClaims>;

/** What an action would do to its target, found in the page before doing it. */
export const StepEffect = z.object({
  /** It would activate something: click a button or link, toggle, or press Enter/Space on it. */
  activates: z.boolean(),
  /** It would (or may) submit a form or send what was typed. */
  submits: z.boolean(),
  /** Why, in words for the user ("Enter in a form field submits the form"). */
  because: z.optional(z.string().check(z.maxLength(300))),
  /** Where the browser would go: a link's destination or the form's action. */
  destination: z.optional(z.string()),
});
export type StepEffect = z.infer<typeof StepEffect>;

/** DESCRIBE's answer. */
export const TargetDescription = z.object({
  role: z.string(),
  name: z.string(),
  tag: z.string(),
  /** Activating it submits a form (a submit button, Enter in a form field). */
  submits: z.boolean(),
  /** Where a link goes or where its form posts. */
  url: z.optional(z.string()),
  /** Text fields: the input type (email, password, …). */
  inputType: z.optional(z.string()),
  /**
   * Text fields: the autocomplete token that says what the field holds. For a secret field
   * (protocol/secret-fields) it is the secret's token even when the page declares none (a numeric
   * field named like a card number reads cc-number): isSecretTarget() tells from this and inputType.
   */
  autocomplete: z.optional(z.string().check(z.maxLength(100))),
  /** The document the element is in: a frame's own address, which may be another site. */
  documentUrl: z.optional(z.string()),
  /** That document's id (new on every page load): what an approval is bound to. */
  documentId: z.optional(z.string()),
  /** What the described action would do, as the page sees it (DESCRIBE with an action). */
  effect: z.optional(StepEffect),
});
export type TargetDescription = z.infer<typeof TargetDescription>;

/** A content script's answer; `data` is validated against the schema of the request it answers. */
export const ContentReply = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorPayload }),
]);
export type ContentReply = z.infer<typeof ContentReply>;

/** The name the sidebar gives its Port; the background refuses any other. */
export const SIDEBAR_PORT_NAME = 'jawad-sidebar';
