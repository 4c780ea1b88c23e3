/** Command-line options of `npm run bench`. */
import type { BrowserName } from '../../test/e2e/support/extension-browser';

export interface BenchOptions {
  browsers: BrowserName[];
  /** Rebuild dist/ before measuring (it is always built when missing). */
  build: boolean;
  /** Cold opens of the sidebar per browser: at least 7; from 20 on, the nearest-rank p95 is not simply the slowest run. */
  runs: number;
  /** Streamed chunks in the per-token latency test, one unique token each. */
  tokens: number;
  /** Pause between two chunks on the wire, as a real model would. */
  delayMs: number;
  /** Agent steps (snapshot + click each) in the agent-overhead measurement. */
  agentSteps: number;
  outDir: string;
  /** `--only history`: measure history at scale alone (bundle sizes are always printed). */
  historyOnly: boolean;
}

/** A bad command line: print the message and the usage, not a stack. */
export class UsageError extends Error {}

const USAGE = `Usage: tsx scripts/bench.ts [--browsers chromium,firefox] [--runs 20] [--tokens 200] [--delay 15] [--agent-steps 15] [--build] [--out bench-out] [--only history]`;

function positiveInt(name: string, raw: string | undefined, min: number, max = 100_000): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`${name} wants an integer in ${min}…${max}, got "${raw ?? ''}"\n${USAGE}`);
  return value;
}

function browserList(raw: string | undefined): BrowserName[] {
  const wanted = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = wanted.filter((name) => name !== 'chromium' && name !== 'firefox');
  if (wanted.length === 0 || unknown.length > 0) throw new UsageError(`--browsers takes chromium and/or firefox, got "${raw ?? ''}"\n${USAGE}`);
  return (['chromium', 'firefox'] as const).filter((name) => wanted.includes(name));
}

export function parseArgs(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { browsers: ['chromium', 'firefox'], build: false, runs: 20, tokens: 200, delayMs: 15, agentSteps: 15, outDir: 'bench-out', historyOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split('=', 2) as [string, string | undefined];
    // Flags take their value as `--flag value` or `--flag=value`.
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--browsers': options.browsers = browserList(value()); break;
      case '--runs': options.runs = positiveInt('--runs', value(), 7); break;
      case '--tokens': options.tokens = positiveInt('--tokens', value(), 10, 9999); break;
      case '--delay': options.delayMs = positiveInt('--delay', value(), 0); break;
      case '--agent-steps': options.agentSteps = positiveInt('--agent-steps', value(), 3, 200); break;
      case '--out': options.outDir = value() ?? options.outDir; break;
      case '--build': options.build = true; break;
      case '--only':
        if (value() !== 'history') throw new UsageError(`--only takes history\n${USAGE}`);
        options.historyOnly = true;
        break;
      case '--help': case '-h': console.log(USAGE); process.exit(0); break;
      default: throw new UsageError(`Unknown option ${flag}\n${USAGE}`);
    }
  }
  return options;
}
