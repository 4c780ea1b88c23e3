/** Command-line options of `npm run bench:snapshot`. */

export interface SnapshotBenchOptions {
  /** Where the per-page JSON files go (required: the figures are meant to be kept). */
  outDir: string;
  /** Timed snapshots per tool, after one warm-up each. */
  runs: number;
  /** Pairs of page loads (one with Jawad, one without) per page, after two warm-up loads each. */
  loadRuns: number;
  /** Rebuild dist/ before measuring (it is always built when missing). */
  build: boolean;
  /** Pages to measure; none means the two fixtures, served by the bench itself. */
  urls: string[];
  /** Measure the real-site corpus (test/fixtures/real-sites) instead: snapshots only, no page loads. */
  corpus: boolean;
}

/** A bad command line: print the message and the usage, not a stack. */
export class UsageError extends Error {}

export const USAGE = 'Usage: npm run bench:snapshot -- --out DIR [--runs 7] [--load-runs 41] [--build] [--corpus | URL…]  (no URL: users-table.html and snapshot-shop.html from test/fixtures; --corpus: the real-site captures in test/fixtures/real-sites, snapshots only; JAWAD_DIST=folder measures that build)';

function runsValue(flag: string, raw: string | undefined): number {
  const value = Number(raw);
  // Five is the least that makes a median worth printing; the cap keeps a typo from running all night.
  if (!Number.isInteger(value) || value < 5 || value > 200) throw new UsageError(`${flag} wants an integer in 5…200, got "${raw ?? ''}"\n${USAGE}`);
  return value;
}

function pageUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`Not a URL: "${raw}"\n${USAGE}`);
  }
  // The extension only reads web pages (page-scripts.ts refuses the rest), so nothing else is comparable.
  if (!/^(https?|file):$/.test(url.protocol)) throw new UsageError(`Only http(s) and file URLs can be read by Jawad, got "${raw}"`);
  return url.href;
}

export function parseArgs(argv: readonly string[]): SnapshotBenchOptions {
  const options: SnapshotBenchOptions = { outDir: '', runs: 7, loadRuns: 41, build: false, urls: [], corpus: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split('=', 2) as [string, string | undefined];
    // Flags take their value as `--flag value` or `--flag=value`.
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--out': options.outDir = value() ?? ''; break;
      case '--runs': options.runs = runsValue(flag, value()); break;
      case '--load-runs': options.loadRuns = runsValue(flag, value()); break;
      case '--build': options.build = true; break;
      case '--corpus': options.corpus = true; break;
      case '--help': case '-h': console.log(USAGE); process.exit(0); break;
      default:
        if (flag.startsWith('-')) throw new UsageError(`Unknown option ${flag}\n${USAGE}`);
        options.urls.push(pageUrl(argv[i]!));
    }
  }
  if (!options.outDir) throw new UsageError(`--out DIR is required\n${USAGE}`);
  if (options.corpus && options.urls.length > 0) throw new UsageError(`--corpus measures its own pages: give no URLs with it\n${USAGE}`);
  return options;
}
