/** The command line of `jawad`: parsed with node:util parseArgs, checked, and explained. */
import { parseArgs } from 'node:util';
import { PROVIDER_IDS, PROVIDER_PRESETS, type Decision, type ProviderId, type ProviderSettings } from '../src/protocol';
import type { BrowserName } from './launch';

export const APPROVALS = ['deny', 'allow-once', 'allow-site', 'allow-session'] as const satisfies readonly Decision[];
export type Approval = (typeof APPROVALS)[number];
const BROWSERS = ['chromium', 'firefox'] as const satisfies readonly BrowserName[];
const DEFAULT_TIMEOUT_SECONDS = 120;

export const USAGE = `Usage: jawad run [options] "task"

Runs one agent task with Jawad in a real browser and prints the action log as JSON lines.

Options:
  --url PAGE             the page to open and act on (required)
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
The build comes from dist/ (or $JAWAD_DIST); when it is missing, jawad builds it first.`;

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

export type Command = { kind: 'help' } | { kind: 'run'; options: RunOptions };

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
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Parses argv (without node and the script); env supplies JAWAD_API_KEY. */
export function parseCommand(argv: string[], env: NodeJS.ProcessEnv = {}): Command {
  const { values, positionals } = parseStrictly(argv);
  if (values.help) return { kind: 'help' };
  const [command, ...words] = positionals;
  if (command === undefined) throw new UsageError('Say what to do: jawad run …');
  if (command !== 'run') throw new UsageError(`Unknown command "${command}"; the only one is "run".`);
  const task = words.join(' ').trim();
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
