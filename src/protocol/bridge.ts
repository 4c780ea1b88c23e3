/**
 * The external agent bridge's wire protocol (seed 004), shared by the extension's background, the
 * sidebar/popup and the Node companion (`jawad bridge`, `jawad mcp`).
 *
 * Three parties: an agent (a coding assistant, an MCP server) connects to the relay; the extension
 * also connects to the relay (the extension is a WebSocket client, as seed 004 has it). The relay
 * tags every agent's frames with a `client` connection id before passing them to the extension,
 * so one extension connection serves several agents, each its own principal.
 */
import * as z from 'zod/mini';
import { AgentStep } from './agent';
import { DialogText } from './dialogs';
import { DEFAULT_WAIT_SECONDS, SnapshotWaitParams } from './wait';

/** A frame bigger than this is refused unread (a snapshot answer can be large; a command never is). */
export const MAX_COMMAND_FRAME_CHARS = 256_000;
export const MAX_RESPONSE_FRAME_CHARS = 8_000_000;
export const DEFAULT_BRIDGE_URL = 'ws://localhost:8080';
/** The bridge popup page, in both builds. */
export const POPUP_PAGE = 'src/popup/index.html';

const Ref = z.string().check(z.maxLength(40));
const WebUrl = z.string().check(z.maxLength(8_000));
const Text = z.string().check(z.maxLength(100_000));

/** Seed 004's command set, each with its parameters (what the MCP tools advertise as JSON Schema). */
export const BRIDGE_COMMANDS = {
  snapshot: z.object({ page: z.optional(z.int().check(z.minimum(1))), ...SnapshotWaitParams }),
  click: z.object({ ref: Ref, acceptDialog: z.optional(z.boolean()), dialogText: z.optional(DialogText) }),
  dblclick: z.object({ ref: Ref }),
  fill: z.object({ ref: Ref, value: Text }),
  type: z.object({ ref: Ref, text: Text, delay: z.optional(z.number()) }),
  press: z.object({ key: z.string().check(z.minLength(1), z.maxLength(50)), ref: z.optional(Ref) }),
  hover: z.object({ ref: Ref }),
  focus: z.object({ ref: Ref }),
  check: z.object({ ref: Ref }),
  uncheck: z.object({ ref: Ref }),
  select: z.object({ ref: Ref, value: z.string().check(z.minLength(1), z.maxLength(500)) }),
  tab: z.object({
    action: z.enum(['new', 'list', 'close', 'switch']),
    url: z.optional(WebUrl),
    id: z.optional(z.int()),
  }),
  open: z.object({ url: WebUrl }),
  get: z.object({ what: z.enum(['text', 'value', 'attribute', 'html', 'url', 'title']), ref: z.optional(Ref), name: z.optional(z.string().check(z.maxLength(100))) }),
  is: z.object({ what: z.enum(['visible', 'enabled', 'checked', 'editable']), ref: Ref }),
} as const;

export type BridgeCommandType = keyof typeof BRIDGE_COMMANDS;
export const BRIDGE_COMMAND_TYPES = Object.keys(BRIDGE_COMMANDS) as BridgeCommandType[];

/** What each command does, for MCP tool descriptions and `jawad bridge --help`. */
export const BRIDGE_COMMAND_DESCRIPTIONS: Record<BridgeCommandType, string> = {
  snapshot:
    `List what a user can act on in the page (links, buttons, fields), each with a ref (e1, e2, …) for the other commands. Later commands act on the tab of the last snapshot. waitForText / waitForTextGone: take it once the page shows / no longer shows that text (up to waitSeconds, ${DEFAULT_WAIT_SECONDS} unless given); waitSeconds alone pauses first.`,
  click: 'Click the element with this ref. A confirmation or prompt box the page shows is answered Cancel unless acceptDialog is true (the user is asked first); dialogText, with acceptDialog, is what a prompt box is answered with.',
  dblclick: 'Double-click the element with this ref.',
  fill: 'Replace the text of a field with value.',
  type: 'Type text after what the field holds, key by key.',
  press: 'Press a key or shortcut (Enter, Escape, Control+a) on the element, or on whatever has focus.',
  hover: 'Move the pointer over the element.',
  focus: 'Focus the element.',
  check: 'Tick a checkbox, radio button or switch.',
  uncheck: 'Untick a checkbox or switch.',
  select: 'Choose an option (by value or visible text) in a drop-down list.',
  tab: 'Tabs of this client: new (url), list, close (id), switch (id). Another client’s tabs are never listed or touched.',
  open: 'Open a web address in the current tab of this client.',
  get: 'Read text, value, an attribute (name), HTML of an element, or the page url/title.',
  is: 'Check whether an element is visible, enabled, checked or editable.',
};

/** One command as an agent sends it. */
export const AgentCommand = z.object({
  id: z.union([z.string().check(z.maxLength(100)), z.number()]),
  type: z.string().check(z.maxLength(40)),
  params: z.optional(z.record(z.string(), z.unknown())),
});
export type AgentCommand = z.infer<typeof AgentCommand>;

/** `id` is null only when the frame had no readable id (it was not a command at all). */
export type AgentResponse =
  /** `duration`: the tool's own time in ms (the rest of the round trip is the bridge's and Harbor's). */
  | { id: string | number; success: true; data: unknown; duration?: number }
  | { id: string | number | null; success: false; error: string; code?: string }
  /** The command waits on the user (a permission prompt): not a failure, and no timeout runs. */
  | { id: string | number; pending: true; message: string };

/** An agent's first frame: who it is; `token` when it was paired before. */
export const AgentHello = z.object({
  type: z.literal('hello'),
  name: z.string().check(z.minLength(1), z.maxLength(60)),
  /** A short code the agent prints, so the user can tell it is the one asking. */
  code: z.string().check(z.regex(/^[A-Z0-9]{4,8}$/)),
  token: z.optional(z.string().check(z.maxLength(200))),
});
export type AgentHello = z.infer<typeof AgentHello>;

/** Relay → extension. */
export const RelayFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('client.hello'), client: z.string(), name: AgentHello.shape.name, code: AgentHello.shape.code, token: z.optional(z.string()) }),
  z.object({ type: z.literal('client.bye'), client: z.string() }),
  z.object({ type: z.literal('command'), client: z.string(), command: z.unknown() }),
  z.object({ type: z.literal('pong'), t: z.number() }),
  /** The relay could not read what an agent sent; the extension has nothing to do but log it. */
  z.object({ type: z.literal('relay.error'), client: z.optional(z.string()), error: z.string() }),
]);
export type RelayFrame = z.infer<typeof RelayFrame>;

/** Extension → relay. */
export type ExtensionFrame =
  | { type: 'extension.hello'; browser: string }
  | { type: 'ping'; t: number }
  | { type: 'pairing'; client: string; state: 'pending' }
  | { type: 'paired'; client: string; token?: string; clientId: string }
  | { type: 'refused'; client: string; reason: string }
  | { type: 'response'; client: string; response: AgentResponse };

/** Relay → agent, besides the responses. */
export type RelayToAgent =
  | { type: 'pairing'; state: 'pending'; message: string }
  | { type: 'paired'; token?: string }
  | { type: 'refused'; reason: string }
  | { type: 'status'; extension: 'connected' | 'disconnected' };

export const BridgeStatusState = z.enum(['off', 'disconnected', 'connecting', 'connected', 'paired', 'error']);
export type BridgeStatusState = z.infer<typeof BridgeStatusState>;

export const BridgeClientInfo = z.object({
  id: z.string(),
  name: z.string(),
  connected: z.boolean(),
  pairedAt: z.number(),
});
export type BridgeClientInfo = z.infer<typeof BridgeClientInfo>;

export const PairingRequest = z.object({ client: z.string(), name: z.string(), code: z.string(), at: z.number() });
export type PairingRequest = z.infer<typeof PairingRequest>;

export const ActivityEntry = z.object({
  at: z.number(),
  clientName: z.string(),
  command: z.string(),
  /** Harbor's verdict or the user's answer (auto-approve, allow-once, deny, policy-deny, refused…). */
  decision: z.string(),
  outcome: z.enum(['ok', 'failed', 'denied', 'pending', 'refused']),
  detail: z.string(),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;

export const BridgeStatus = z.object({
  enabled: z.boolean(),
  url: z.string(),
  state: BridgeStatusState,
  /** Why the state is error or disconnected, in words for the user. */
  reason: z.optional(z.string()),
  clients: z.array(BridgeClientInfo),
  pairing: z.array(PairingRequest),
  /** Client steps waiting on the user: the sidebar and popup show each as a permission prompt. */
  prompts: z.array(AgentStep),
  activity: z.array(ActivityEntry),
});
export type BridgeStatus = z.infer<typeof BridgeStatus>;

/** ws:// or wss:// to a loopback host only: the bridge never reaches out to the network. */
export function isLoopbackBridgeUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return (parsed.protocol === 'ws:' || parsed.protocol === 'wss:') && ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
}
