/**
 * `jawad mcp`: an MCP server over stdio (the official SDK) in front of the bridge relay. Each
 * seed 004 command is an MCP tool with its JSON Schema; a call becomes one bridge command, which
 * Jawad runs through its step gate like any of its own agent's steps. stdout is the MCP channel:
 * everything for a person goes to stderr.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import { BRIDGE_COMMAND_DESCRIPTIONS, BRIDGE_COMMANDS, BRIDGE_COMMAND_TYPES, type BridgeCommandType } from '../../src/protocol/bridge';
import type { PageSnapshot } from '../../src/protocol/messages';
import { dialogNotes, snapshotNotes } from '../../src/protocol/result-notes';
import type { McpOptions } from '../args';
import { ensureBuild, launchJawad, type JawadBrowser } from '../launch';
import type { Output } from '../run';
import { BridgeAgent, type CommandResult } from './agent-client';
import { answerPrompt, approvePairing, openPopup, turnBridgeOn } from './popup-driver';
import { Relay } from './relay';
import { readToken, saveToken } from './token-file';

const CHECK_EXTENSION_MS = 10_000;
const CHECK_PAIRING_MS = 60_000;
const LAUNCH_PAIRING_MS = 90_000;
/**
 * While a call waits on the user, its progress notification is repeated this often: an MCP
 * client that resets its request timeout on progress (the SDK's `resetTimeoutOnProgress`, default
 * timeout 60 s) then waits as long as the user takes, and never times out on a prompt.
 */
export const PENDING_REPEAT_MS = 15_000;

/** The MCP tool list: one tool per bridge command, its parameters as JSON Schema. */
export function mcpTools() {
  return BRIDGE_COMMAND_TYPES.map((type) => {
    const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(BRIDGE_COMMANDS[type], { io: 'input' }) as Record<string, unknown>;
    return { name: type, description: BRIDGE_COMMAND_DESCRIPTIONS[type], inputSchema: inputSchema as { type: 'object'; [key: string]: unknown } };
  });
}

function toCallResult(result: CommandResult): CallToolResult {
  if (!result.success) return { isError: true, content: [{ type: 'text', text: `${result.code ?? 'ERROR'}: ${result.error}` }] };
  const data = result.data as (Partial<PageSnapshot> & { text?: unknown }) | undefined;
  // A snapshot's outline is what a model reads, under what it must know of it (cut short, still
  // loading, how a wait went); the rest of its data (documents, counts) is bookkeeping.
  // An action's data as JSON, under a sentence on any confirmation box Jawad cancelled.
  const text = typeof data?.text === 'string' ? [...snapshotNotes(data), data.text].join('\n') : [JSON.stringify(result.data ?? null, null, 2), ...dialogNotes(result.data)].join('\n');
  return { content: [{ type: 'text', text }] };
}

function isCommand(name: string): name is BridgeCommandType {
  return (BRIDGE_COMMAND_TYPES as string[]).includes(name);
}

export async function runMcp(options: McpOptions, output: Output, env: NodeJS.ProcessEnv, stopped: Promise<void>): Promise<number> {
  const relay = new Relay({ port: options.port, log: output.progress });
  let jawad: JawadBrowser | undefined;
  try {
    await relay.start();
    if (options.check) return await check(relay, options, output, env);
    const agent = new BridgeAgent({ url: relay.url, name: options.name, token: await readToken(options.name, env), onPending: (message) => output.progress(message) });
    await serveMcp(agent, options, output, new StdioServerTransport());
    await agent.connect();
    if (options.launch) {
      jawad = await launchAndPair(relay, agent, options, output);
    } else {
      output.progress(`MCP server ready; bridge relay on ${relay.url}. In Jawad, open Bridge (sidebar) or the popup, Connect to this URL, and approve "${options.name}" with code ${agent.code}.`);
      void agent.whenPaired(24 * 3600_000).then(() => output.progress('Paired with Jawad.'), () => undefined);
    }
    // A launched profile is thrown away: its token must not replace the one of the user's own browser.
    if (!options.launch) void agent.whenPaired(24 * 3600_000).then(() => (agent.token ? saveToken(options.name, agent.token, env) : undefined), () => undefined);
    await Promise.race([stopped, new Promise((done) => process.stdin.once('close', done))]);
    agent.close();
    return 0;
  } catch (error) {
    output.progress(`jawad mcp: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await jawad?.close().catch(() => undefined);
    await relay.close();
  }
}

/** Serves the bridge's commands as MCP tools on `transport` (stdio; in-memory in the unit tests). */
export async function serveMcp(agent: BridgeAgent, options: Pick<McpOptions, 'name' | 'launch'>, output: Output, transport: Transport, repeatMs = PENDING_REPEAT_MS): Promise<Server> {
  const server = new Server({ name: 'jawad', version: '0.1.0' }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: mcpTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    if (!isCommand(name)) return { isError: true, content: [{ type: 'text', text: `Unknown tool "${name}".` }] };
    // With --launch the pairing is on its way (the launcher approves it): wait for it.
    if (!agent.isPaired && options.launch) await agent.whenPaired(LAUNCH_PAIRING_MS).catch(() => undefined);
    if (!agent.isPaired) return { isError: true, content: [{ type: 'text', text: `NOT_PAIRED: approve "${options.name}" (code ${agent.code}) in Jawad's Bridge view or popup first.` }] };
    output.progress(`→ ${name} ${JSON.stringify(args)}`);
    const pending = new PendingNotices(server, extra.sendNotification, request.params._meta?.progressToken, repeatMs);
    try {
      return toCallResult(await agent.command(name, args, (message) => pending.notice(message)));
    } finally {
      pending.stop();
    }
  });
  await server.connect(transport);
  return server;
}

/**
 * A call waiting on a Harbor prompt says so through MCP: a logging message (for any client) and,
 * when the client asked for progress, a progress notification repeated until the answer comes.
 */
class PendingNotices {
  private count = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly server: Server,
    private readonly send: (notification: ServerNotification) => Promise<void>,
    private readonly progressToken: string | number | undefined,
    private readonly repeatMs: number,
  ) {}

  notice(message: string): void {
    // A client gone mid-call must not turn the command's answer into an error.
    void this.server.sendLoggingMessage({ level: 'notice', logger: 'jawad', data: message }).catch(() => undefined);
    this.progress(message);
    clearInterval(this.timer);
    this.timer = setInterval(() => this.progress(message), this.repeatMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private progress(message: string): void {
    if (this.progressToken === undefined) return;
    void this.send({ method: 'notifications/progress', params: { progressToken: this.progressToken, progress: ++this.count, message } }).catch(() => undefined);
  }
}

/** A fresh profile with Jawad: the launcher turns the bridge on and approves in the real popup. */
async function launchAndPair(relay: Relay, agent: BridgeAgent, options: McpOptions, output: Output): Promise<JawadBrowser> {
  const name = options.launch!;
  await ensureBuild(name, output.progress);
  output.progress(`Starting ${name}${options.headed ? '' : ' (headless)'} with Jawad…`);
  const jawad = await launchJawad(name, { headed: options.headed });
  const ui = await openPopup(jawad);
  await turnBridgeOn(ui, relay.url);
  await approvePairing(ui, agent.code);
  await agent.whenPaired(30_000);
  output.progress(`Paired "${options.name}" (code ${agent.code}); prompts are answered ${options.approve}, critical steps denied.`);
  void answerPromptsForever(ui, options, output);
  return jawad;
}

/** As `jawad run --approve`: every prompt gets the chosen answer, except critical steps, which are denied. */
async function answerPromptsForever(ui: Awaited<ReturnType<typeof openPopup>>, options: McpOptions, output: Output): Promise<void> {
  for (;;) {
    try {
      const seen = await answerPrompt(ui, (prompt) => (prompt.critical ? 'deny' : options.approve), 60_000);
      output.progress(`Prompt for ${seen.tool}${seen.critical ? ' (critical)' : ''} → ${seen.critical ? 'deny' : options.approve}`);
    } catch (error) {
      // No prompt within the wait is normal; a closed browser ends the loop.
      if (error instanceof Error && !error.message.startsWith('Timed out')) return;
    }
  }
}

/** `--check`: walks the chain relay → Jawad → pairing → one command, and says which link is broken. */
async function check(relay: Relay, options: McpOptions, output: Output, env: NodeJS.ProcessEnv): Promise<number> {
  const say = (ok: boolean, text: string) => output.line(`${ok ? '✓' : '✗'} ${text}`);
  say(true, `relay listening on ${relay.url}`);
  if (!(await relay.waitForExtension(CHECK_EXTENSION_MS))) {
    say(false, `Jawad did not connect within ${CHECK_EXTENSION_MS / 1000} s: in Jawad open Bridge (sidebar) or the popup, set the URL to ${relay.url} and press Connect.`);
    return 1;
  }
  say(true, 'Jawad connected');
  const agent = new BridgeAgent({ url: relay.url, name: options.name, token: await readToken(options.name, env) });
  try {
    await agent.connect();
    if (!agent.token) output.progress(`Approve "${options.name}" with code ${agent.code} in Jawad…`);
    await agent.whenPaired(CHECK_PAIRING_MS);
    if (agent.token) await saveToken(options.name, agent.token, env);
    say(true, `paired as "${options.name}"`);
    const tabs = await agent.command('tab', { action: 'list' });
    say(tabs.success, tabs.success ? 'a command ran (tab list)' : `the command failed: ${tabs.error}`);
    return tabs.success ? 0 : 1;
  } catch (error) {
    say(false, error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    agent.close();
  }
}
