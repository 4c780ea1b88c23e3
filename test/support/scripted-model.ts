/**
 * Scripted models for the provider test server (OpenAI chat-completions wire format): helpers that
 * read what the agent sent, `scriptedAgent` that plays a fixed tool-calling plan, and
 * `gullibleModel`, a model that obeys every instruction it finds anywhere in its input — the worst
 * case Harbor has to hold against.
 *
 * Each is a `Responder` for `ProviderServer.setResponder`: a pure function of the request, so the
 * plan's position is read from the conversation itself (the tool calls made since the last user
 * message), never kept in a closure.
 */
import { randomBytes } from 'node:crypto';
import type { RecordedRequest, Reply, Responder } from './provider-server';

export type { Responder } from './provider-server';

// ---------------------------------------------------------------------------
// Reading an OpenAI chat request
// ---------------------------------------------------------------------------

export interface ModelToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (JSON text). */
  arguments: string;
}

export interface ChatMessage {
  role: string;
  content: string;
  toolCalls: ModelToolCall[];
  toolCallId?: string;
}

export interface ToolResult {
  callId: string;
  /** The tool the result belongs to, found through tool_call_id. */
  tool: string;
  args: Record<string, unknown>;
  content: string;
}

type JsonObject = Record<string, unknown>;

function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** OpenAI content is a string, null, or an array of parts ({type: 'text', text}). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function toolCallsOf(message: JsonObject): ModelToolCall[] {
  if (!Array.isArray(message.tool_calls)) return [];
  return message.tool_calls.filter(isRecord).map((call) => {
    const fn = isRecord(call.function) ? call.function : {};
    return { id: String(call.id ?? ''), name: String(fn.name ?? ''), arguments: String(fn.arguments ?? '') };
  });
}

export function chatMessages(request: RecordedRequest): ChatMessage[] {
  const body = request.json;
  if (!isRecord(body) || !Array.isArray(body.messages)) return [];
  return body.messages.filter(isRecord).map((message) => ({
    role: String(message.role ?? ''),
    content: contentText(message.content),
    toolCalls: toolCallsOf(message),
    ...(typeof message.tool_call_id === 'string' ? { toolCallId: message.tool_call_id } : {}),
  }));
}

export function isChatCompletion(request: RecordedRequest): boolean {
  return request.method === 'POST' && new URL(request.path, 'http://x').pathname.endsWith('/chat/completions');
}

/** Whether the agent offered tools (a plain chat or a title request offers none). */
export function offersTools(request: RecordedRequest): boolean {
  return isRecord(request.json) && Array.isArray(request.json.tools) && request.json.tools.length > 0;
}

function lastUserIndex(messages: ChatMessage[]): number {
  return messages.findLastIndex((message) => message.role === 'user');
}

export function lastUserMessage(request: RecordedRequest): string {
  const messages = chatMessages(request);
  return messages[lastUserIndex(messages)]?.content ?? '';
}

function parseArgs(text: string): Record<string, unknown> {
  const value = tryJson(text);
  return isRecord(value) ? value : {};
}

/** Every tool result in the conversation, oldest first, with the call it answers. */
export function toolResults(request: RecordedRequest): ToolResult[] {
  const messages = chatMessages(request);
  const calls = new Map(messages.flatMap((message) => message.toolCalls).map((call) => [call.id, call]));
  return messages
    .filter((message) => message.role === 'tool')
    .map((message) => {
      const call = calls.get(message.toolCallId ?? '');
      return { callId: message.toolCallId ?? '', tool: call?.name ?? '', args: parseArgs(call?.arguments ?? ''), content: message.content };
    });
}

/** The tool calls the model made for the current task (since the user's last message). */
export function callsThisTask(request: RecordedRequest): ModelToolCall[] {
  const messages = chatMessages(request);
  return messages.slice(lastUserIndex(messages) + 1).flatMap((message) => message.toolCalls);
}

/**
 * A tool result's text as a reader would see it: a line that is a JSON value (a tool's result
 * data) becomes its string values, one a line, so a snapshot reads as lines whatever carries it.
 */
export function readableText(content: string): string {
  const whole = /^\s*[{[]/.test(content) ? tryJson(content) : undefined;
  if (typeof whole === 'object' && whole !== null) return stringsIn(whole).join('\n');
  return content
    .split('\n')
    .map((line) => {
      const json = /^\s*[{[]/.test(line) ? tryJson(line) : undefined;
      return json === undefined || json === null ? line : stringsIn(json).join('\n');
    })
    .join('\n');
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (isRecord(value)) return Object.values(value).flatMap(stringsIn);
  return [];
}

/** The text of the most recent successful snapshot, if the agent has taken one. */
export function latestSnapshotText(request: RecordedRequest): string | undefined {
  const snapshots = toolResults(request).filter((result) => result.tool === 'snapshot' && snapshotEntries(readableText(result.content)).length > 0);
  const last = snapshots.at(-1);
  return last ? readableText(last.content) : undefined;
}

// ---------------------------------------------------------------------------
// Snapshot refs
// ---------------------------------------------------------------------------

export interface SnapshotEntry {
  ref: string;
  role: string;
  name: string;
  value?: string;
}

/**
 * `- button "Add to cart" [ref=e12] [disabled] value="M"`, indented inside frames (`f3e4`); states
 * written before the ref (`- textbox "User" [active] [ref=e5]`, Playwright's AI snapshot) read too.
 */
const REF_LINE = /^\s*- ([a-z][\w-]*)(?: ("(?:[^"\\]|\\.)*"))?(?: \[[a-z]+(?:=[^\]]*)?\])*? \[ref=((?:f\d+)?e\d+)\](.*)$/m;
const VALUE = / value=("(?:[^"\\]|\\.)*")/;

function unquote(json: string | undefined): string {
  if (json === undefined) return '';
  try {
    return String(JSON.parse(json));
  } catch {
    return json.slice(1, -1);
  }
}

/** A YAML scalar as Playwright writes text: plain, or double-quoted when it holds a colon or quotes. */
function yamlText(text: string): string {
  return text.startsWith('"') ? unquote(text) : text;
}

/** A control inside a line of text: `Read [link "our policy" ref=e5] first`, `[textbox "Qty" ref=e6 editable value="1"]`, `[link ref=e7 url="/u/ada"]`, `[button ref=e8 icon="search"]`. */
const INLINE_REF = /\[([a-z][\w-]*)(?: ("(?:[^"\\]|\\.)*"))? ref=((?:f\d+)?e\d+)((?: [a-z]+)*(?: url="(?:[^"\\]|\\.)*")?(?: icon="(?:[^"\\]|\\.)*")?(?: value=("(?:[^"\\]|\\.)*"))?(?: options=(?:\d+|\[(?:"(?:[^"\\]|\\.)*",?)*\]))?)\]/g;

/** Every element with a ref in a snapshot's text, in page order. */
export function snapshotEntries(snapshotText: string): SnapshotEntry[] {
  const entries: SnapshotEntry[] = [];
  for (const line of snapshotText.split('\n')) {
    const match = REF_LINE.exec(line);
    if (match) {
      const value = VALUE.exec(match[4] ?? '')?.[1];
      // Playwright's outline writes a field's value after a colon: `- textbox "City" [ref=e5]: Paris`.
      const afterColon = /^(?: \[[^\]]*\])*: (.+)$/.exec(match[4] ?? '')?.[1];
      const read = value ? unquote(value) : afterColon && /^(textbox|searchbox|combobox|spinbutton)$/.test(match[1]!) ? yamlText(afterColon) : undefined;
      entries.push({ role: match[1]!, name: unquote(match[2]), ref: match[3]!, ...(read ? { value: read } : {}) });
      continue;
    }
    for (const inline of line.matchAll(INLINE_REF)) {
      const value = inline[5];
      entries.push({ role: inline[1]!, name: unquote(inline[2]), ref: inline[3]!, ...(value ? { value: unquote(value) } : {}) });
    }
  }
  return entries;
}

/** A role to match: one role, a pattern, or undefined / '*' for any. */
export type RoleMatcher = string | RegExp | undefined;
/** A name to match: a string matches the whole name ignoring case and spacing; a RegExp tests it. */
export type NameMatcher = string | RegExp;

function matches(matcher: RoleMatcher | NameMatcher, text: string): boolean {
  if (matcher === undefined || matcher === '*') return true;
  if (matcher instanceof RegExp) return matcher.test(text);
  return squash(matcher) === squash(text);
}

/** Icon fonts' glyphs (Unicode's private use areas), which a reader sees as no letter at all. */
const GLYPHS = /[\uE000-\uF8FF\u{F0000}-\u{10FFFF}]/gu;

function squash(text: string): string {
  return text.replace(GLYPHS, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The ref of the first element with this role after a line that reads `label` (a trailing colon
 * aside; text, a row's first cell or an element's name): how a reader pairs a field with the label
 * beside it when the page does not tie them together (forms laid out as tables, a header cell then
 * the field's cell, the fields a fieldset's link opens).
 */
export function fieldAfter(snapshotText: string, label: NameMatcher, role: RoleMatcher = undefined): string | undefined {
  const lines = snapshotText.split('\n');
  const at = lines.findIndex((line) => matches(label, leadingText(line).replace(/:$/, '')));
  if (at < 0) return undefined;
  return snapshotEntries(lines.slice(at).join('\n')).find((entry) => matches(role, entry.role))?.ref;
}

/**
 * A line's text, a table row's first cell (`| City | [textbox ref=e3] |`), the name on a ref line
 * (a fieldset's toggle), or the text an outline item carries (`- paragraph [ref=e5]: Edit the page`).
 */
function leadingText(line: string): string {
  const text = line.trim();
  if (text.startsWith('- ')) return snapshotEntries(text)[0]?.name || yamlText(/^- [a-z][\w-]*(?: \[[^\]]*\])*: (.*)$/.exec(text)?.[1] ?? '');
  return (text.startsWith('|') ? (text.split(/(?<!\\)\|/)[1] ?? '') : text).trim();
}

/**
 * The ref of the first element with this role and name on the first line that says `text`: in a
 * table written a row a line, the "edit" link of one record.
 */
export function findRefInLine(snapshotText: string, text: string | RegExp, role: RoleMatcher, name: NameMatcher): string | undefined {
  const says = (line: string) => (typeof text === 'string' ? line.toLowerCase().includes(text.toLowerCase()) : text.test(line));
  const lines = snapshotText.split('\n');
  const at = lines.findIndex(says);
  if (at < 0) return undefined;
  return findRef(lines[at]!, role, name) ?? findRef(rowAround(lines, at).join('\n'), role, name);
}

const indentOf = (line: string) => line.length - line.trimStart().length;

const CELL_LINE = /^\s*- (?:cell|gridcell|columnheader|rowheader)(?: ("(?:[^"\\]|\\.)*"))?/;

/** A cell of a nested outline: its name, or the names and text of what it holds. */
function nestedCell(lines: readonly string[], at: number): string {
  const named = CELL_LINE.exec(lines[at]!)?.[1];
  if (named !== undefined) return unquote(named);
  const inner: string[] = [];
  for (let index = at + 1; index < lines.length && indentOf(lines[index]!) > indentOf(lines[at]!); index++) {
    const line = lines[index]!;
    const text = /^\s*- text: (.*)$/.exec(line)?.[1];
    // Text the outline had to quote (`- text: "Leaf check-in:"`, for its colon) is the text inside the quotes.
    if (text !== undefined) inner.push(text.startsWith('"') ? unquote(text) : text);
    else inner.push(...snapshotEntries(line).map((entry) => entry.name).filter(Boolean));
  }
  return inner.join(' ');
}

/**
 * The rows of every table in a snapshot, each as its cells' text, in either way of writing them:
 * a row a line (`| a | [link "edit" ref=e5] |`) or rows nesting their cells (`- row:` then `  - cell "a"`).
 */
export function tableRows(snapshotText: string): string[][] {
  const lines = snapshotText.split('\n');
  const rows: string[][] = [];
  lines.forEach((line, at) => {
    const text = line.trim();
    if (/^\|.*\|/.test(text)) {
      // Notes written after the row (` [covered by …]`) are not cells.
      rows.push(text.slice(1, text.lastIndexOf('|')).split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|')));
    } else if (/^- row\b/.test(text)) {
      const cells: string[] = [];
      const depth = indentOf(line);
      for (let index = at + 1; index < lines.length && indentOf(lines[index]!) > depth; index++) {
        if (CELL_LINE.test(lines[index]!) && !lines.slice(at + 1, index).some((between) => CELL_LINE.test(between) && indentOf(between) < indentOf(lines[index]!))) cells.push(nestedCell(lines, index));
      }
      rows.push(cells);
    }
  });
  return rows;
}

/** In an outline that nests cells under their row (`- row:` then `  - cell …`), the lines of the row holding line `at`. */
function rowAround(lines: readonly string[], at: number): string[] {
  let row = at;
  while (row >= 0 && !/^\s*- row\b/.test(lines[row]!)) row--;
  if (row < 0 || (row < at && indentOf(lines[row]!) >= indentOf(lines[at]!))) return [];
  const end = lines.findIndex((line, index) => index > row && indentOf(line) <= indentOf(lines[row]!));
  return lines.slice(row, end < 0 ? undefined : end);
}

/** The ref of the first element with this role and name in the snapshot text, or undefined. */
export function findRef(snapshotText: string, role: RoleMatcher, name: NameMatcher): string | undefined {
  return snapshotEntries(snapshotText).find((entry) => matches(role, entry.role) && matches(name, entry.name))?.ref;
}

// ---------------------------------------------------------------------------
// Replies
// ---------------------------------------------------------------------------

export interface PlannedCall {
  tool: string;
  args?: Record<string, unknown>;
}

export function toolCallReply(call: PlannedCall): Reply {
  const id = `call_${randomBytes(6).toString('hex')}`;
  return { kind: 'openai-tool-stream', calls: [{ id, name: call.tool, arguments: JSON.stringify(call.args ?? {}) }] };
}

export function textReply(text: string): Reply {
  return { kind: 'openai-stream', chunks: [text] };
}

// ---------------------------------------------------------------------------
// scriptedAgent: a fixed plan
// ---------------------------------------------------------------------------

export interface AgentContext {
  request: RecordedRequest;
  /** Which step of the plan this is (0-based): the number of tool calls made for this task. */
  step: number;
  lastUserMessage: string;
  toolResults: ToolResult[];
  /** The result of the call just made, if any. */
  lastResult: ToolResult | undefined;
  snapshotText: string | undefined;
  /** findRef on the latest snapshot; throws (naming what it saw) when there is no such element. */
  findRef(role: RoleMatcher, name: NameMatcher): string;
  /** fieldAfter on the latest snapshot; throws (naming what it saw) when there is no such field. */
  fieldAfter(label: NameMatcher, role?: RoleMatcher): string;
  /** findRefInLine on the latest snapshot; throws (naming what it saw) when there is no such element. */
  findRefInLine(text: string | RegExp, role: RoleMatcher, name: NameMatcher): string;
}

/** A step: a tool call, a final answer, or a function of what came back so far returning either. */
export type ScriptStep = PlannedCall | string | ((context: AgentContext) => PlannedCall | string);

export interface ScriptOptions {
  /** The answer after the last step (default "Done."). */
  final?: string | ((context: AgentContext) => string);
}

/**
 * Logging in through a form of two text boxes and a button, each found by its name, and reading
 * the page it leads to: the steps every application's tasks start with.
 */
export function logInSteps(form: { user: NameMatcher; password: NameMatcher; button: NameMatcher }, login: { user: string; password: string }): ScriptStep[] {
  return [
    { tool: 'snapshot' },
    (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', form.user), text: login.user } }),
    (ctx) => ({ tool: 'fill', args: { ref: ctx.findRef('textbox', form.password), text: login.password } }),
    (ctx) => ({ tool: 'click', args: { ref: ctx.findRef('button', form.button) } }),
    { tool: 'snapshot' },
  ];
}

/** Whether the latest snapshot waited for `text` and Jawad's note on it says the page now shows it, as a model reads that note. */
export function sawWaitMet(context: AgentContext, text: string): boolean {
  return (context.snapshotText ?? '').split('\n').some((line) => line.startsWith('(waited ') && line.includes(`the page now shows “${text}”`));
}

/** What the call just made read back (a `get` call's JSON result's `result`), or ''. */
export function readBack(context: AgentContext): string {
  for (const line of (context.lastResult?.content ?? '').split('\n')) {
    if (!line.startsWith('{')) continue;
    const parsed = JSON.parse(line) as { result?: unknown };
    if (typeof parsed.result === 'string') return parsed.result;
  }
  return '';
}

function notSeen(what: string, snapshotText: string | undefined): never {
  throw new Error(`scripted model: no ${what} in the latest snapshot:\n${snapshotText ?? '(no snapshot taken yet)'}`);
}

function agentContext(request: RecordedRequest): AgentContext {
  const results = toolResults(request);
  const snapshotText = latestSnapshotText(request);
  return {
    request,
    step: callsThisTask(request).length,
    lastUserMessage: lastUserMessage(request),
    toolResults: results,
    lastResult: results.at(-1),
    snapshotText,
    findRef(role, name) {
      const ref = snapshotText === undefined ? undefined : findRef(snapshotText, role, name);
      return ref ?? notSeen(`${String(role ?? 'element')} named ${String(name)}`, snapshotText);
    },
    fieldAfter(label, role) {
      const ref = snapshotText === undefined ? undefined : fieldAfter(snapshotText, label, role);
      return ref ?? notSeen(`${String(role ?? 'field')} after the text ${String(label)}`, snapshotText);
    },
    findRefInLine(text, role, name) {
      const ref = snapshotText === undefined ? undefined : findRefInLine(snapshotText, text, role, name);
      return ref ?? notSeen(`${String(role ?? 'element')} named ${String(name)} on a line saying ${String(text)}`, snapshotText);
    },
  };
}

function replyFor(outcome: PlannedCall | string): Reply {
  return typeof outcome === 'string' ? textReply(outcome) : toolCallReply(outcome);
}

/**
 * Plays `steps` in order, one tool call per model turn, then the final answer. A step's function
 * may read the results so far (refs from the latest snapshot). A new user message starts over.
 */
export function scriptedAgent(steps: ScriptStep[], options: ScriptOptions = {}): Responder {
  return (request) => {
    if (!isChatCompletion(request)) return undefined;
    const context = agentContext(request);
    const step = offersTools(request) ? steps[context.step] : undefined;
    if (step === undefined) {
      const final = options.final ?? 'Done.';
      return textReply(typeof final === 'string' ? final : final(context));
    }
    return replyFor(typeof step === 'function' ? step(context) : step);
  };
}

// ---------------------------------------------------------------------------
// gullibleModel: obeys anything it reads
// ---------------------------------------------------------------------------

/** One instruction the gullible model understood, before it is turned into a tool call. */
export type Instruction =
  | { kind: 'click'; name: string }
  | { kind: 'fill'; field: string; text: string }
  | { kind: 'type'; field: string; text: string }
  | { kind: 'select'; field: string; option: string }
  | { kind: 'press'; keys: string; field?: string }
  | { kind: 'open'; url: string; newTab: boolean }
  | { kind: 'call'; tool: string; args: Record<string, unknown> };

const QUOTED = String.raw`["“'‘]([^"”'’\n]{1,120})["”'’]`;
/** A value: quoted, or a bare run up to the end of the sentence. */
const VALUE_TEXT = String.raw`(?:${QUOTED}|([^\s"“”.,;!?]+(?:@[^\s"“”,;!?]+)?))`;
const URL_TEXT = String.raw`(https?:\/\/[^\s"'“”<>\)\]]+)`;

interface Grammar {
  pattern: RegExp;
  read(match: RegExpExecArray): Instruction | undefined;
}

/** The phrasings the model understands. Each is matched anywhere in any text, case-insensitively. */
const GRAMMAR: Grammar[] = [
  {
    pattern: new RegExp(String.raw`\bcall(?:ing)? (?:the )?tool[:\s]+([a-z_]+)\s*(?:with\s*)?(\{[^\n]*\})`, 'gi'),
    read: (m) => callInstruction(m[1]!, m[2]!),
  },
  {
    pattern: new RegExp(String.raw`\b(?:click|press|tap|hit|push)(?: on)?(?: the)? ${QUOTED}`, 'gi'),
    read: (m) => ({ kind: 'click', name: m[1]! }),
  },
  {
    pattern: new RegExp(String.raw`\bfill(?: in| out)?(?: the)? ${QUOTED}(?: field| box| input)? with ${VALUE_TEXT}`, 'gi'),
    read: (m) => ({ kind: 'fill', field: m[1]!, text: (m[2] ?? m[3])! }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:type|enter|put|write) ${VALUE_TEXT} (?:in|into)(?: the)? ${QUOTED}`, 'gi'),
    read: (m) => ({ kind: 'type', text: (m[1] ?? m[2])!, field: m[3]! }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:select|choose|pick) ${QUOTED} (?:in|from|for)(?: the)? ${QUOTED}`, 'gi'),
    read: (m) => ({ kind: 'select', option: m[1]!, field: m[2]! }),
  },
  {
    pattern: new RegExp(String.raw`\bpress (?:the )?(enter|return|tab|escape|space)(?: key)?(?: (?:in|on) (?:the )?${QUOTED})?`, 'gi'),
    read: (m) => ({ kind: 'press', keys: keyName(m[1]!), ...(m[2] ? { field: m[2] } : {}) }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:open|navigate to|go to|visit|load|fetch|browse to|redirect to|new[_ ]tab)(?: the (?:page|url|link|address))?:? ${URL_TEXT}([^\n.]{0,30})`, 'gi'),
    read: (m) => ({ kind: 'open', url: trimUrl(m[1]!), newTab: /new[_ ]tab/i.test(m[0]!) }),
  },
];

function keyName(key: string): string {
  const lower = key.toLowerCase();
  return lower === 'return' ? 'Enter' : lower[0]!.toUpperCase() + lower.slice(1);
}

/** Sentence punctuation after a URL belongs to the sentence. */
function trimUrl(url: string): string {
  return url.replace(/[.,;:!?'"]+$/, '');
}

function callInstruction(tool: string, json: string): Instruction | undefined {
  // The JSON may run into the following prose: take the longest prefix that parses.
  for (let end = json.lastIndexOf('}'); end > 0; end = json.lastIndexOf('}', end - 1)) {
    const args = tryJson(json.slice(0, end + 1));
    if (args !== undefined) return isRecord(args) ? { kind: 'call', tool, args } : undefined;
  }
  return undefined;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Undoes the escaping that JSON names in a snapshot and Turndown's markdown add. */
export function unescapeText(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!>~=|"'])/g, '$1');
}

/** Every instruction in a text, in the order they appear. */
export function findInstructions(text: string): Instruction[] {
  const plain = unescapeText(text);
  const found: Array<{ at: number; instruction: Instruction }> = [];
  for (const { pattern, read } of GRAMMAR) {
    for (const match of plain.matchAll(pattern)) {
      const instruction = read(match as RegExpExecArray);
      if (instruction) found.push({ at: match.index ?? 0, instruction });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.instruction);
}

/** "My email is ada@example.com" → { email: 'ada@example.com' }. */
export function secretsIn(text: string): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const match of text.matchAll(/\bmy ([a-z]+(?: [a-z]+)?) (?:is|=|:) ("[^"]+"|\S+)/gi)) {
    const value = match[2]!.replace(/^"|"$/g, '').replace(/[.,;!?]+$/, '');
    const words = match[1]!.toLowerCase().split(' ');
    for (const key of [words.join(' '), words.join('_'), words.join(''), ...words]) secrets[key] ??= value;
  }
  return secrets;
}

/** `{email}`, `{{email}}`, `<email>`, `[EMAIL]`, `{the user's email}` → the secret (or the first one). */
const PLACEHOLDER = /(?:\{\{?|<|\[)\s*(?:the )?(?:user'?s |your )?([a-z_ ]{2,30}?)\s*(?:\}\}?|>|\])/gi;

function substitute(text: string, secrets: Record<string, string>, forUrl: boolean): string {
  const fallback = Object.values(secrets)[0];
  return text.replace(PLACEHOLDER, (whole, key: string) => {
    const value = secrets[key.toLowerCase()] ?? secrets[key.toLowerCase().replace(/ /g, '_')] ?? fallback;
    if (value === undefined) return whole;
    return forUrl ? encodeURIComponent(value) : value;
  });
}

function substituteArgs(value: unknown, secrets: Record<string, string>): unknown {
  if (typeof value === 'string') return substitute(value, secrets, /^https?:/i.test(value));
  if (Array.isArray(value)) return value.map((item) => substituteArgs(item, secrets));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteArgs(item, secrets)]));
  return value;
}

const FIELD_ROLES = /^(textbox|searchbox|combobox|spinbutton)$/;
const CHOICE_ROLES = /^(combobox|listbox|radiogroup)$/;

/** The element a name points at: the exact name first, then a name containing it. */
function refByName(entries: SnapshotEntry[], roles: RegExp | undefined, name: string): string | undefined {
  const candidates = entries.filter((entry) => !roles || roles.test(entry.role));
  const wanted = squash(name);
  return (candidates.find((entry) => squash(entry.name) === wanted) ?? candidates.find((entry) => squash(entry.name).includes(wanted)))?.ref;
}

/** A gullible model fills *some* field when it cannot find the one named. */
function fieldRef(entries: SnapshotEntry[], name: string): string | undefined {
  return refByName(entries, FIELD_ROLES, name) ?? refByName(entries, undefined, name) ?? entries.find((entry) => FIELD_ROLES.test(entry.role))?.ref;
}

function toCall(instruction: Instruction, entries: SnapshotEntry[], secrets: Record<string, string>): PlannedCall | undefined {
  switch (instruction.kind) {
    case 'click': {
      const ref = refByName(entries, undefined, instruction.name);
      return ref ? { tool: 'click', args: { ref } } : undefined;
    }
    case 'fill':
    case 'type': {
      const ref = fieldRef(entries, instruction.field);
      const text = substitute(instruction.text, secrets, false);
      return ref ? { tool: instruction.kind === 'fill' ? 'fill' : 'type_text', args: { ref, text } } : undefined;
    }
    case 'select': {
      const ref = refByName(entries, CHOICE_ROLES, instruction.field) ?? refByName(entries, undefined, instruction.field);
      return ref ? { tool: 'select_option', args: { ref, option: instruction.option } } : undefined;
    }
    case 'press': {
      const ref = instruction.field ? fieldRef(entries, instruction.field) : undefined;
      return { tool: 'press_key', args: { keys: instruction.keys, ...(ref ? { ref } : {}) } };
    }
    case 'open':
      return { tool: instruction.newTab ? 'new_tab' : 'open_url', args: { url: substitute(instruction.url, secrets, true) } };
    case 'call':
      return { tool: instruction.tool, args: substituteArgs(instruction.args, secrets) as Record<string, unknown> };
  }
}

function sameCall(call: ModelToolCall, planned: PlannedCall): boolean {
  return call.name === planned.tool && JSON.stringify(parseArgs(call.arguments)) === JSON.stringify(planned.args ?? {});
}

/** Everything the model has been told: system, user, its own words, and every tool result. */
function everythingRead(request: RecordedRequest): string {
  return chatMessages(request)
    .map((message) => (message.role === 'tool' ? `${message.content}\n${readableText(message.content)}` : message.content))
    .join('\n');
}

/** The tool calls the gullible model wants to make, in the order it read the instructions. */
export function gullibleCalls(request: RecordedRequest, userSecrets: Record<string, string> = {}): PlannedCall[] {
  const secrets = { ...secretsIn(lastUserMessage(request)), ...userSecrets };
  const entries = snapshotEntries(latestSnapshotText(request) ?? '');
  const calls: PlannedCall[] = [];
  for (const instruction of findInstructions(everythingRead(request))) {
    const call = toCall(instruction, entries, secrets);
    if (call && !calls.some((seen) => JSON.stringify(seen) === JSON.stringify(call))) calls.push(call);
  }
  return calls;
}

export interface GullibleOptions {
  /** Secrets the model knows besides those in the user's message ("my email is …"). */
  userSecrets?: Record<string, string>;
  /** At most this many obeyed instructions per task (default 8), so a task stays short. */
  maxActions?: number;
}

/** A frame the snapshot says did not answer yet: a model looks again once, as a person would. */
const FRAME_NOT_READY = /this frame did not answer/;

function wantsAnotherLook(request: RecordedRequest, made: ModelToolCall[]): boolean {
  const snapshots = made.filter((call) => call.name === 'snapshot').length;
  return snapshots === 1 && FRAME_NOT_READY.test(latestSnapshotText(request) ?? '');
}

/**
 * A model that first calls `snapshot`, then `read_page`, then carries out every instruction it
 * has read anywhere (system, user, tool results, page text inside the untrusted wrapper), one tool
 * call per turn, filling `{email}`-style placeholders with the user's secrets; then answers.
 */
export function gullibleModel(options: GullibleOptions = {}): Responder {
  const maxActions = options.maxActions ?? 8;
  return (request) => {
    if (!isChatCompletion(request)) return undefined;
    if (!offersTools(request)) return textReply('Here is a summary of the page.');
    const made = callsThisTask(request);
    if (!made.some((call) => call.name === 'snapshot')) return toolCallReply({ tool: 'snapshot' });
    if (!made.some((call) => call.name === 'read_page')) return toolCallReply({ tool: 'read_page' });
    if (wantsAnotherLook(request, made)) return toolCallReply({ tool: 'snapshot' });
    const next = gullibleCalls(request, options.userSecrets).find((planned) => !made.some((call) => sameCall(call, planned)));
    const obeyed = made.filter((call) => call.name !== 'snapshot' && call.name !== 'read_page').length;
    if (next && obeyed < maxActions) return toolCallReply(next);
    return textReply(`Summary: I read the page and did ${obeyed} thing(s) it asked for.`);
  };
}
