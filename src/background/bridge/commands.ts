/**
 * Seed 004's commands, mapped onto the one tool registry. Pure: the bridge service runs what this
 * returns through the step gate, like any proposal of the built-in agent.
 */
import * as z from 'zod/mini';
import { AgentCommand, BRIDGE_COMMANDS, MAX_COMMAND_FRAME_CHARS, type BridgeCommandType } from '../../protocol/bridge';

/** A command ready for the gate: the tool and its arguments, plus what the bridge must check first. */
export interface ToolCallPlan {
  id: string | number;
  command: BridgeCommandType;
  tool: string;
  args: Record<string, unknown>;
  /** A tab the command names (tab close/switch): it must not be another client's. */
  namedTab?: number;
}

export class CommandError extends Error {
  constructor(
    readonly code: 'BAD_FRAME' | 'UNKNOWN_COMMAND' | 'VALIDATION_ERROR' | 'TOO_LARGE',
    message: string,
    /** The command's id, when the frame had a readable one (the answer must carry it). */
    readonly id?: string | number,
  ) {
    super(message);
  }
}

type Params<T extends BridgeCommandType> = z.infer<(typeof BRIDGE_COMMANDS)[T]>;

/** Each command's tool and arguments; `tab` picks its tool by action. */
const PLANS: { [T in BridgeCommandType]: (params: Params<T>) => { tool: string; args: Record<string, unknown>; namedTab?: number } } = {
  snapshot: ({ page, ...wait }) => ({ tool: 'snapshot', args: { ...(page ? { page } : {}), ...wait } }),
  click: (p) => ({ tool: 'click', args: { ref: p.ref, ...(p.acceptDialog ? { acceptDialog: true } : {}), ...(p.dialogText === undefined ? {} : { dialogText: p.dialogText }) } }),
  dblclick: (p) => ({ tool: 'double_click', args: { ref: p.ref } }),
  fill: (p) => ({ tool: 'fill', args: { ref: p.ref, text: p.value } }),
  type: (p) => ({ tool: 'type_text', args: { ref: p.ref, text: p.text } }),
  press: (p) => ({ tool: 'press_key', args: { keys: p.key, ...(p.ref ? { ref: p.ref } : {}) } }),
  hover: (p) => ({ tool: 'hover', args: { ref: p.ref } }),
  focus: (p) => ({ tool: 'focus', args: { ref: p.ref } }),
  check: (p) => ({ tool: 'check', args: { ref: p.ref } }),
  uncheck: (p) => ({ tool: 'uncheck', args: { ref: p.ref } }),
  select: (p) => ({ tool: 'select_option', args: { ref: p.ref, option: p.value } }),
  tab: (p) => tabPlan(p),
  open: (p) => ({ tool: 'open_url', args: { url: p.url } }),
  get: (p) => ({ tool: 'get', args: { what: p.what, ...(p.ref ? { ref: p.ref } : {}), ...(p.name ? { name: p.name } : {}) } }),
  is: (p) => ({ tool: 'is', args: { what: p.what, ref: p.ref } }),
};

function tabPlan(p: Params<'tab'>): { tool: string; args: Record<string, unknown>; namedTab?: number } {
  if (p.action === 'list') return { tool: 'list_tabs', args: {} };
  if (p.action === 'new') {
    if (!p.url) throw new CommandError('VALIDATION_ERROR', 'tab new needs params.url (an http or https address).');
    return { tool: 'new_tab', args: { url: p.url } };
  }
  if (p.id === undefined) throw new CommandError('VALIDATION_ERROR', `tab ${p.action} needs params.id (a tab id from tab list).`);
  return { tool: p.action === 'close' ? 'close_tab' : 'switch_tab', args: { tabId: p.id }, namedTab: p.id };
}

const isCommand = (type: string): type is BridgeCommandType => Object.hasOwn(BRIDGE_COMMANDS, type);

/** Reads one command frame; every failure says what is wrong, with the command's id when known. */
export function planCommand(raw: unknown): ToolCallPlan {
  const parsed = AgentCommand.safeParse(raw);
  const id = readableId(raw);
  if (!parsed.success) throw new CommandError('BAD_FRAME', 'A command is {"id": …, "type": "snapshot" | "click" | …, "params": {…}}.', id);
  const { type, params = {} } = parsed.data;
  if (!isCommand(type)) throw new CommandError('UNKNOWN_COMMAND', `Unknown command "${type}". Known: ${Object.keys(BRIDGE_COMMANDS).join(', ')}.`, id);
  const checked = BRIDGE_COMMANDS[type].safeParse(params);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => `${issue.path.map(String).join('.') || 'params'}: ${issue.message}`).join('; ');
    throw new CommandError('VALIDATION_ERROR', `Invalid params for ${type}: ${problems}`, parsed.data.id);
  }
  // The table pairs each command with its own parameter type; TypeScript cannot follow the key.
  const plan = (PLANS[type] as (p: unknown) => ReturnType<typeof tabPlan>)(checked.data);
  return { id: parsed.data.id, command: type, ...plan };
}

/** A frame's text, parsed; too large or not JSON is a clear error. */
export function parseFrameText(text: string, limit = MAX_COMMAND_FRAME_CHARS): unknown {
  if (text.length > limit) throw new CommandError('TOO_LARGE', `The frame is ${text.length} characters; the limit is ${limit}.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new CommandError('BAD_FRAME', 'The frame is not JSON.');
  }
}

function readableId(raw: unknown): string | number | undefined {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
