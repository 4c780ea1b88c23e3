/** The command line of `jawad`: parsed with node:util parseArgs, checked, and explained. */
import { parseArgs } from 'node:util';
import { PROVIDER_IDS, PROVIDER_PRESETS, type Decision, type ProviderId, type ProviderSettings } from '../src/protocol';
import type { BrowserName } from './launch';

export const APPROVALS = ['deny', 'allow-once', 'allow-site', 'allow-session'] as const satisfies readonly Decision[];
export type Approval = (typeof APPROVALS)[number];
const BROWSERS = ['chromium', 'firefox'] as const satisfies readonly BrowserName[];
const DEFAULT_TIMEOUT_SECONDS = 120;
export const DEFAULT_BRIDGE_PORT = 8080;

export const USAGE = `Usage: jawad run [options] "task"
       jawad bridge [--port N]
       jawad mcp [--port N] [--name NAME] [--launch chromium|firefox] [--approve DECISION] [--check]
       jawad research [options] [--approve-plan] "intent"

run: one agent task with Jawad in a real browser; prints the action log as JSON lines.
research: plans a workflow across sites for the intent and prints the plan (and every change of it)
as {"type":"workflow",...} lines; with --approve-plan it approves the plan as proposed, runs it in
tabs of its own, prints each finished step, and ends with {"type":"report",...}: the report and its
sources. Without --approve-plan it stops after printing the plan (exit 1: no report).

Options:
  --url PAGE             run: the page to open and act on (required)
  --approve-plan         research: approve the proposed plan as it is
  --browser NAME         chromium (default) or firefox
  --provider ID          ${PROVIDER_IDS.join(', ')} (default: openai)
  --llm-url URL          the provider's base URL, e.g. http://localhost:11434/v1 (default: the provider's)
  --model NAME           the model (default: the provider's usual one; required for custom)
  --api-key KEY          the provider's key (or set JAWAD_API_KEY, which ps cannot show)
  --approve DECISION     how to answer every permission prompt: deny (default), allow-once,
                         allow-site, allow-session. Critical steps (buy, pay, delete, send…)
                         are still denied, and recorded as such, unless --approve-critical
  --approve-critical     also allow critical steps, once each (needs an allow-* --approve)
  --timeout SECONDS      give up after this long (default: ${DEFAULT_TIMEOUT_SECONDS})
  --headed               show the browser window (default: headless)
  -h, --help             show this help

Output: one JSON line per finished step on stdout, {"type":"step",...}, then {"type":"answer",...};
progress goes to stderr. Exit code: 0 when the answer completed, 1 when the task ended otherwise
(stopped, error, timeout), 2 for a usage error.
The build comes from dist/ (or $JAWAD_DIST); when it is missing, jawad builds it first.

jawad bridge serves the agent bridge's WebSocket relay on ws://localhost:PORT (default ${DEFAULT_BRIDGE_PORT}) for agents
that speak its JSON protocol; turn the bridge on in Jawad (Bridge view or popup) with that URL.
jawad mcp is an MCP server over stdio that serves the same relay and exposes the bridge's commands as
MCP tools. --check says which link of the chain is broken and exits. --launch starts a fresh browser
profile with Jawad, turns its bridge on and approves the pairing in its popup; its prompts are then
answered with --approve (critical steps are always denied).
  --port N               the relay's port (default ${DEFAULT_BRIDGE_PORT})
  --name NAME            the client name Jawad shows when pairing (default: mcp)`;

export interface RunOptions {
  browser: BrowserName;
  url: string;
  settings: ProviderSettings;
  approve: Approval;
  /** Critical steps are allowed only when this was passed explicitly; otherwise they are denied. */
  approveCritical: boolean;
  timeoutMs: number;
  headed: boolean;
  task: string;
}

export interface BridgeOptions {
  port: number;
}

export interface McpOptions {
  port: number;
  name: string;
  launch?: BrowserName;
  approve: Approval;
  check: boolean;
  headed: boolean;
}

export interface ResearchOptions extends Omit<RunOptions, 'url' | 'task'> {
  intent: string;
  approvePlan: boolean;
}

export type Command = { kind: 'help' } | { kind: 'run'; options: RunOptions } | { kind: 'research'; options: ResearchOptions } | { kind: 'bridge'; options: BridgeOptions } | { kind: 'mcp'; options: McpOptions };

/** A mistake on the command line: the message says what is wrong, the caller adds the usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const OPTIONS = {
  url: { type: 'string' },
  browser: { type: 'string', default: 'chromium' },
  provider: { type: 'string', default: 'openai' },
  'llm-url': { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  approve: { type: 'string', default: 'deny' },
  'approve-critical': { type: 'boolean', default: false },
  timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_SECONDS) },
  headed: { type: 'boolean', default: false },
  port: { type: 'string', default: String(DEFAULT_BRIDGE_PORT) },
  name: { type: 'string', default: 'mcp' },
  launch: { type: 'string' },
  check: { type: 'boolean', default: false },
  'approve-plan': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Parses argv (without node and the script); env supplies JAWAD_API_KEY. */
export function parseCommand(argv: string[], env: NodeJS.ProcessEnv = {}): Command {
  const { values, positionals } = parseStrictly(argv);
  if (values.help) return { kind: 'help' };
  const [command, ...words] = positionals;
  if (command === undefined) throw new UsageError('Say what to do: jawad run …, jawad research …, jawad bridge or jawad mcp');
  if (command === 'bridge') return { kind: 'bridge', options: { port: port(values.port) } };
  if (command === 'mcp') return { kind: 'mcp', options: mcpOptions(values) };
  if (command !== 'run' && command !== 'research') throw new UsageError(`Unknown command "${command}"; the commands are "run", "research", "bridge" and "mcp".`);
  const task = words.join(' ').trim();
  if (command === 'research') return { kind: 'research', options: researchOptions(values, env, task) };
  if (!task) throw new UsageError('Give the task as the last argument, in quotes: jawad run --url PAGE "click Save"');
  const approve = oneOf('--approve', values.approve, APPROVALS);
  if (values['approve-critical'] && approve === 'deny') throw new UsageError('--approve-critical only widens an allow: pass --approve allow-once (or allow-site, allow-session) with it.');
  return {
    kind: 'run',
    options: {
      browser: oneOf('--browser', values.browser, BROWSERS),
      url: pageUrl(values.url),
      settings: providerSettings(values, env),
      approve,
      approveCritical: values['approve-critical'],
      timeoutMs: timeoutMs(values.timeout),
      headed: values.headed,
      task,
    },
  };
}

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65_535) throw new UsageError(`--port is a port number, 0–65535 (got "${value}").`);
  return number;
}

function mcpOptions(values: { port: string; name: string; launch?: string; approve: string; check: boolean; headed: boolean }): McpOptions {
  const name = values.name.trim();
  if (!name || name.length > 60) throw new UsageError('--name is 1–60 characters: the name Jawad shows when pairing.');
  return {
    port: port(values.port),
    name,
    ...(values.launch === undefined ? {} : { launch: oneOf('--launch', values.launch, BROWSERS) }),
    approve: oneOf('--approve', values.approve, APPROVALS),
    check: values.check,
    headed: values.headed,
  };
}

function researchOptions(values: ReturnType<typeof parseStrictly>['values'], env: NodeJS.ProcessEnv, intent: string): ResearchOptions {
  if (!intent) throw new UsageError('Give the intent as the last argument, in quotes: jawad research "compare the price of X on these sites: …"');
  if (values.url !== undefined) throw new UsageError('--url is for jawad run; name the sites in the intent instead.');
  return {
    browser: oneOf('--browser', values.browser, BROWSERS),
    settings: providerSettings(values, env),
    approve: oneOf('--approve', values.approve, APPROVALS),
    approveCritical: values['approve-critical'],
    timeoutMs: timeoutMs(values.timeout),
    headed: values.headed,
    approvePlan: values['approve-plan'],
    intent,
  };
}

function parseStrictly(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs's own wording is clear ("Unknown option '--foo'"); it only needs our error type.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}").`);
}

function pageUrl(value: string | undefined): string {
  if (!value) throw new UsageError('--url is required: the page the task acts on.');
  if (!URL.canParse(value)) throw new UsageError(`--url "${value}" is not a URL; give a full one such as https://example.com/`);
  return value;
}

function timeoutMs(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout is a number of seconds above 0 (got "${value}").`);
  return Math.round(seconds * 1000);
}

function providerSettings(values: { provider: string; 'llm-url'?: string; model?: string; 'api-key'?: string }, env: NodeJS.ProcessEnv): ProviderSettings {
  const provider: ProviderId = oneOf('--provider', values.provider, PROVIDER_IDS);
  const preset = PROVIDER_PRESETS[provider];
  const baseUrl = values['llm-url'] ?? preset.baseUrl;
  if (!/^https?:\/\//i.test(baseUrl) || !URL.canParse(baseUrl)) throw new UsageError(`--llm-url must be a full http(s) URL such as http://localhost:11434/v1 (got "${baseUrl}").`);
  const model = (values.model ?? preset.defaultModel).trim();
  if (!model) throw new UsageError(`--model is required with --provider ${provider}.`);
  const apiKey = values['api-key'] ?? env.JAWAD_API_KEY;
  return { provider, baseUrl, model, timeoutSeconds: 60, ...(apiKey ? { apiKey } : {}) };
}
