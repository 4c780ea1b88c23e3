/**
 * Jawad's page-snapshot benchmark: `npm run bench:snapshot -- --out DIR [--runs 7] [--load-runs 41] [--build] [URL…]`.
 * It measures the build in dist/, or in $JAWAD_DIST when that is set (as `npm run build` writes it).
 * Without URLs it serves test/fixtures itself and measures users-table.html (a 2,000-row admin
 * table) and snapshot-shop.html (a product page).
 *
 * For each page, in one run:
 *  1. Jawad (the built extension in Chromium, scripts/bench-snapshot/ours.ts): the `snapshot` tool
 *     once to warm up, then N timed runs; the figure is the median of the registry's `duration` —
 *     the whole read path as the model's tool call pays it: injection, the walk, messaging.
 *  2. The anchor (scripts/bench-snapshot/anchor.ts): Playwright's page.ariaSnapshot({ mode: 'ai' })
 *     of the same page in the same Chromium, headless, 1280×800; warm-up, then N timed runs, median.
 *     Once both pages are open, the timed runs wait for the machine to go quiet (the other
 *     browser's after-load work must not land on one side's samples: scripts/bench-snapshot/quiet.ts),
 *     then those of 1 and 2 alternate (scripts/bench-snapshot/interleave.ts), so the shared,
 *     two-core machine's slow patches hit both sides of the ratio alike.
 *  3. Both texts' size in o200k_base tokens (GPT-4o's tokenizer; a fair proxy for any model).
 *  4. Ground truth where the page carries data-expect marks: recall of the marked controls, and
 *     hidden elements that were given a ref anyway (scripts/bench-snapshot/truth.ts).
 *  5. Page load with and without the extension installed, in many back-to-back pairs, the figure
 *     being the median of the pairs' ratios (scripts/bench-snapshot/load-time.ts); then one
 *     request's round trip from the page, with and without, where what the extension adds to each
 *     request shows above the noise of whole loads.
 * Prints a table per page with targets and PASS/FAIL, and writes DIR/<n>.json per page (n from 1, in
 * the order of the URLs). It is a measurement, not a test: it exits 0 when a target is missed, 1 only
 * when something could not be measured.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, platform, release } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { Browser as PlaywrightBrowser } from 'playwright-core';
import type { Browser as PuppeteerBrowser } from 'puppeteer-core';
import { launchJawad, newProfileDir, sleep, type JawadBrowser } from '../test/e2e/support/extension-browser';
import { startFixtureServer } from '../test/support/fixture-server';
import { launchAnchorBrowser, openAnchorSession, type AnchorMeasurement, type AnchorSession } from './bench-snapshot/anchor';
import { parseArgs, UsageError } from './bench-snapshot/args';
import { distStamp, ensureBuild } from './bench/build';
import { launchPlainChromium, measureLoads, spreadOf, type LoadMeasurement } from './bench-snapshot/load-time';
import { QUIET_LIMIT_MS, untilQuiet } from './bench-snapshot/quiet';
import { interleave, type Sampler } from './bench-snapshot/interleave';
import { openJawadSession, type JawadMeasurement, type JawadSession } from './bench-snapshot/ours';
import { renderTable, verdict, type Cell, type Row } from './bench-snapshot/report';
import { scoreRefs, type TruthScore } from './bench-snapshot/truth';
import { attempt, failed, type Outcome } from './bench/outcome';
import { median } from './bench/stats';
import { corpusPaths, keptShare, renderCorpus, wordCount, words, type CorpusRow } from './bench-snapshot/corpus';
import { ensureBrowsers } from './ensure-browsers.mjs';

const ROOT = resolve(import.meta.dirname, '..');
/** The build launchJawad loads: JAWAD_DIST's, like `npm run build` and the E2E tests. */
const DIST = join(resolve(ROOT, process.env.JAWAD_DIST ?? 'dist'), 'chrome');
const DEFAULT_FIXTURES = ['users-table.html', 'snapshot-shop.html'];

/**
 * Targets by kind of page. A long table is where a snapshot that summarises repeated rows should
 * win big; a product page has little repetition, so the margin asked for is smaller. Pages the
 * bench does not know get no time/token target: their figures are for information.
 */
const PAGE_TARGETS: Record<string, { time: number; tokens: number }> = {
  'users-table.html': { time: 0.25, tokens: 0.3 },
  'snapshot-shop.html': { time: 0.5, tokens: 0.6 },
};
const LOAD_RATIO_MAX = 1.02;


interface PageResult {
  url: string;
  ours: Outcome<JawadMeasurement>;
  anchor: Outcome<AnchorMeasurement>;
  load: Outcome<LoadMeasurement>;
}

const log = (line: string) => console.log(line);



/** Closes a browser this bench launched; kills its process if it does not close in time. */
async function closeQuietly(close: () => Promise<void>, kill: () => void): Promise<void> {
  const timeout = sleep(15_000).then(() => 'timeout' as const);
  const closed = close().then(() => 'closed' as const, () => 'failed' as const);
  if ((await Promise.race([closed, timeout])) !== 'closed') kill();
}

const tokens = (text: string): number => encode(text).length;

const pageName = (url: string): string => basename(new URL(url).pathname) || new URL(url).host;

/** A session's figures: why it never opened, why a timed sample failed, or what finish() makes of its samples. */
async function settle<S extends Sampler, M>(session: Outcome<S>, finish: (session: S) => Promise<M>): Promise<Outcome<M>> {
  if (failed(session)) return session;
  if (session.failure !== undefined) {
    log(`  ✗ ${session.failure}`);
    return { error: session.failure };
  }
  return attempt(session.label, () => finish(session));
}

/** Snapshots of one page by Jawad and by Playwright, their timed runs interleaved (interleave.ts). */
async function measureSnapshots(result: PageResult, jawad: Outcome<JawadBrowser>, anchor: Outcome<PlaywrightBrowser>, runs: number): Promise<void> {
  log(`\n${result.url}`);
  const ours = failed(jawad) ? jawad : await attempt('Jawad snapshot', () => openJawadSession(jawad, result.url, log));
  const base = failed(anchor) ? anchor : await attempt('Playwright ariaSnapshot', () => openAnchorSession(anchor, result.url, log));
  const opened = [ours, base].filter((side): side is JawadSession | AnchorSession => !failed(side));
  try {
    if (!(await untilQuiet())) log(`  (the machine did not go quiet within ${QUIET_LIMIT_MS / 1000} s: sampling anyway)`);
    await interleave(opened, runs);
    result.ours = await settle(ours, (session) => session.finish());
    result.anchor = await settle(base, async (session) => session.finish());
  } finally {
    for (const session of opened) await session.close();
  }
}

/** Closes what launched, killing a browser that does not close in time. */
async function closeAll(browsers: { jawad?: Outcome<JawadBrowser>; anchor?: Outcome<PlaywrightBrowser>; plain?: Outcome<PuppeteerBrowser> }): Promise<void> {
  const { jawad, anchor, plain } = browsers;
  if (plain && !failed(plain)) await closeQuietly(() => plain.close(), () => plain.process()?.kill('SIGKILL'));
  if (anchor && !failed(anchor)) await closeQuietly(() => anchor.close(), () => undefined); // Playwright kills its own on close
  if (jawad && !failed(jawad)) await closeQuietly(() => jawad.close(), () => jawad.browser.process()?.kill('SIGKILL'));
}

/**
 * Three browsers, one each for all pages (launching is not what is measured): Chromium with Jawad,
 * Chromium for Playwright's snapshots, and from the load phase on a plain Chromium. Idle ones cost
 * next to nothing; keeping the first two up at once lets their snapshots alternate.
 */
/**
 * Captured pages name dozens of hosts; the server points them at a dead loopback port, and this
 * makes any name built by a script fail at once too, instead of holding the page for seconds.
 */
const DEAD_HOSTS = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'];

async function measureAll(results: PageResult[], runs: number, loadRuns: number, corpus: boolean): Promise<void> {
  const stamp = distStamp(DIST);
  // Our own fresh profile, so it can be removed afterwards (launchJawad's default one stays in /tmp).
  const profileDir = newProfileDir();
  const browsers: Parameters<typeof closeAll>[0] = {};
  try {
    log(`\nLaunching Chromium with Jawad (${DIST}) and Chromium for Playwright…`);
    const extraArgs = corpus ? DEAD_HOSTS : [];
    const jawad = (browsers.jawad = await attempt('launching Chromium with Jawad', () => launchJawad('chromium', { profileDir, chromiumArgs: extraArgs })));
    const anchor = (browsers.anchor = await attempt('launching Chromium for Playwright', () => launchAnchorBrowser(extraArgs)));
    if (!failed(jawad)) log(`  with Jawad: ${await jawad.browser.version()}`);
    if (!failed(anchor)) log(`  for Playwright: Chromium ${anchor.version()}`);
    for (const result of results) await measureSnapshots(result, jawad, anchor, runs);
    if (distStamp(DIST) !== stamp) {
      // The page agent is injected from dist/ on every snapshot: a rebuild mid-run (others work in
      // this checkout) mixes two builds in the figures. Only the snapshots depend on it.
      const error = { error: `${DIST} was rebuilt during the snapshots (a concurrent npm run build?): run the bench again` };
      log(`  ✗ ${error.error}`);
      for (const result of results) result.ours = error;
    }
    if (corpus) return; // the corpus compares snapshots; page loads are measured on the fixtures

    log(`\nPage loads, with and without Jawad, ${loadRuns} pairs per page (plain Chromium: launching…)`);
    const plain = (browsers.plain = failed(jawad) ? jawad : await attempt('launching plain Chromium', launchPlainChromium));
    for (const result of results) {
      if (failed(jawad)) result.load = jawad;
      else if (failed(plain)) result.load = plain;
      else result.load = await attempt('page loads', () => measureLoads(jawad.browser, plain, result.url, loadRuns, log));
    }
  } finally {
    await closeAll(browsers);
    rmSync(profileDir, { recursive: true, force: true });
  }
}

/** A figure from an outcome, or the outcome's error for the table. */
function cell<T extends object>(outcome: Outcome<T>, pick: (value: T) => number): Cell {
  return failed(outcome) ? outcome : pick(outcome);
}

function truthOf(result: PageResult): TruthScore | undefined {
  return failed(result.ours) ? undefined : scoreRefs(result.ours.marks, result.ours.snapshot.refs);
}

function truthRows(result: PageResult): Row[] {
  if (failed(result.ours)) {
    return [
      { metric: 'ground-truth recall (%)', ours: result.ours, on: 'ours', min: 100, unit: '%' },
      { metric: 'hidden elements given a ref', ours: result.ours, on: 'ours', max: 0, digits: 0 },
    ];
  }
  const score = truthOf(result);
  if (!score) {
    const note = 'the page carries no data-expect marks';
    return [{ metric: 'ground-truth recall (%)', ours: undefined, note }, { metric: 'hidden elements given a ref', ours: undefined, note }];
  }
  const missing = score.missing.length ? `; missing: ${score.missing.slice(0, 6).join(', ')}${score.missing.length > 6 ? ', …' : ''}` : '';
  return [
    { metric: 'ground-truth recall (%)', ours: score.recall, on: 'ours', min: 100, unit: '%', note: `${score.found}/${score.expected} marked data-expect=ref${missing}` },
    { metric: 'hidden elements given a ref', ours: score.leaks.length, on: 'ours', max: 0, digits: 0, note: `of ${score.hiddenMarked} marked data-expect=none${score.leaks.length ? `: ${score.leaks.slice(0, 4).join(', ')}` : ''}` },
  ];
}

function pageRows(result: PageResult, runs: number, loadRuns: number): Row[] {
  const targets = PAGE_TARGETS[pageName(result.url)];
  const { ours, anchor, load } = result;
  const snap = failed(ours) ? undefined : ours.snapshot;
  return [
    {
      metric: `snapshot time, median of ${runs} (ms)`, ours: cell(ours, (o) => o.ms), baseline: cell(anchor, (a) => a.ms),
      on: 'ratio', max: targets?.time, unit: '×', note: 'Jawad: registry duration; Playwright: page.ariaSnapshot({ mode: "ai" }) from Node',
    },
    {
      metric: 'snapshot tokens (o200k_base)', ours: cell(ours, (o) => tokens(o.snapshot.text)), baseline: cell(anchor, (a) => tokens(a.text)),
      on: 'ratio', max: targets?.tokens, unit: '×', digits: 0,
    },
    { metric: 'snapshot chars', ours: cell(ours, (o) => o.snapshot.text.length), baseline: cell(anchor, (a) => a.text.length), digits: 0 },
    { metric: 'refs', ours: cell(ours, (o) => o.snapshot.refs.length), digits: 0, note: snap ? `${snap.elementCount} elements walked${snap.partial ? '; PARTIAL: a budget ran out' : ''}` : '' },
    { metric: 'snapshot over the sidebar Port, median (ms)', ours: cell(ours, (o) => o.portMs), note: 'registry duration + the Port hops, timed in the welcome page' },
    { metric: 'read_page markdown (chars)', ours: cell(ours, (o) => o.markdownChars), digits: 0, note: failed(ours) ? '' : `read_page maxChars 200000${ours.markdownTruncated ? ', truncated' : ''}` },
    ...truthRows(result),
    {
      metric: `page load, median of ${loadRuns} (ms)`, ours: cell(load, (l) => l.withExtension.p50), baseline: cell(load, (l) => l.without.p50),
      note: failed(load) ? '' : `loadEventEnd; middle half with Jawad ${range(load.samples.withExtension)}, without ${range(load.samples.without)}; baseline: Chromium without the extension`,
    },
    {
      metric: `page load with / without, median of ${loadRuns} pairs`, ours: cell(load, (l) => l.pairRatio.p50), on: 'ours', max: LOAD_RATIO_MAX, unit: '×', digits: 3,
      ...(failed(load) ? {} : { interval: { low: load.pairRatio.low95, high: load.pairRatio.high95 } }),
      note: failed(load) ? '' : `each pair loaded back to back; 95 % interval of the median ${load.pairRatio.low95.toFixed(3)}–${load.pairRatio.high95.toFixed(3)}×, middle half of the pairs ${load.pairRatio.p25.toFixed(3)}–${load.pairRatio.p75.toFixed(3)}×`,
    },
    {
      metric: 'request round trip from the page, median (ms)', ours: cell(load, (l) => median(l.requests.samples.withExtension)), baseline: cell(load, (l) => median(l.requests.samples.without)), digits: 2,
      note: failed(load) ? '' : `${load.requests.samples.withExtension.length} rounds of sequential fetches of /robots.txt, alternating; the cost is Chromium's web-request proxy (README, Performance)`,
    },
    {
      metric: 'request round trip with / without, median of pairs', ours: cell(load, (l) => l.requests.pairRatio.p50), unit: '×', digits: 3,
      note: failed(load) ? '' : `95 % interval of the median ${load.requests.pairRatio.low95.toFixed(3)}–${load.requests.pairRatio.high95.toFixed(3)}×`,
    },
  ];
}

/** The middle half of some timings, as printed: "41.2–44.0 ms". */
function range(values: readonly number[]): string {
  const { p25, p75 } = spreadOf(values);
  return `${p25.toFixed(1)}–${p75.toFixed(1)} ms`;
}

const errorOf = (outcome: Outcome<object>): string | null => (failed(outcome) ? outcome.error : null);

/** DIR/<n>.json: the fields the snapshot work tracks, then everything else this run measured. */
function pageFile(result: PageResult, rows: readonly Row[]): object {
  const { ours, anchor, load } = result;
  const jawad = failed(ours) ? undefined : ours;
  return {
    url: result.url,
    ms: jawad?.ms ?? null,
    text: jawad?.snapshot.text ?? null,
    refs: jawad?.snapshot.refs.map((r) => ({ ref: r.ref, role: r.role, name: r.name, tag: r.tag, id: r.id ?? null, testid: r.testid ?? null })) ?? null,
    markdownChars: jawad?.markdownChars ?? null,
    product: jawad?.product ?? null,
    anchor: failed(anchor) ? null : { ms: anchor.ms, chars: anchor.text.length, tokens: tokens(anchor.text) },
    ours: jawad ? { ms: jawad.ms, chars: jawad.snapshot.text.length, tokens: tokens(jawad.snapshot.text) } : null,
    details: {
      samplesMs: { ours: jawad?.samples ?? null, anchor: failed(anchor) ? null : anchor.samples },
      portMs: jawad?.portMs ?? null,
      elementCount: jawad?.snapshot.elementCount ?? null,
      partial: jawad?.snapshot.partial ?? null,
      markdownTruncated: jawad?.markdownTruncated ?? null,
      truth: truthOf(result) ?? null,
      load: failed(load) ? null : load,
      verdicts: rows.map((row) => ({ metric: row.metric, verdict: verdict(row) })),
      errors: { ours: errorOf(ours), anchor: errorOf(anchor), load: errorOf(load) },
    },
  };
}

/** The corpus table: time, tokens and the share of the page's visible words each snapshot kept. */
function corpusRows(results: readonly PageResult[]): CorpusRow[] {
  return results.map(({ url, ours, anchor }) => {
    const page = pageName(url).replace(/\.html$/, '');
    if (failed(ours) || failed(anchor)) return { page, visibleWords: 0, error: [ours, anchor].filter(failed).map((o) => o.error).join('; ') };
    const visible = words(anchor.visibleText);
    return {
      page,
      visibleWords: wordCount(visible),
      ours: { ms: ours.ms, tokens: tokens(ours.snapshot.text), kept: keptShare(visible, ours.snapshot.text) },
      anchor: { ms: anchor.ms, tokens: tokens(anchor.text), kept: keptShare(visible, anchor.text) },
    };
  });
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  ensureBrowsers();
  ensureBuild(ROOT, DIST, options.build, log);
  // The default pages and the corpus are fixtures: serve them for the length of the run.
  const fixtures = options.urls.length === 0 ? await startFixtureServer() : undefined;
  try {
    const paths = options.corpus ? corpusPaths() : DEFAULT_FIXTURES.map((file) => `/${file}`);
    const urls = fixtures ? paths.map((path) => `${fixtures.url}${path}`) : options.urls;
    const pending = { error: 'not measured' };
    const results: PageResult[] = urls.map((url) => ({ url, ours: pending, anchor: pending, load: pending }));
    await measureAll(results, options.runs, options.loadRuns, options.corpus);
    if (options.corpus) {
      reportCorpus(results, resolve(ROOT, options.outDir));
      return;
    }

    const outDir = resolve(ROOT, options.outDir);
    mkdirSync(outDir, { recursive: true });
    log(`\nJawad snapshot benchmark — ${new Date().toISOString()} — ${cpus().length}× ${cpus()[0]?.model ?? 'unknown CPU'}, ${platform()} ${release()}, Node ${process.version}`);
    let unmeasured = false;
    for (const [index, result] of results.entries()) {
      const rows = pageRows(result, options.runs, options.loadRuns);
      log(`\n${pageName(result.url)} — ${result.url}\n`);
      log(renderTable(rows, { ours: 'Jawad', baseline: 'baseline' }));
      const file = join(outDir, `${index + 1}.json`);
      writeFileSync(file, `${JSON.stringify(pageFile(result, rows), null, 2)}\n`);
      log(`\nRaw figures: ${file}`);
      unmeasured ||= rows.some((row) => verdict(row) === 'ERROR');
    }
    log('\nBaselines: Playwright page.ariaSnapshot({ mode: "ai" }) for the snapshot rows, the same Chromium without the extension for page load.');
    log('Jawad\'s time is the registry\'s (background, excluding the sidebar\'s Port hop); Playwright\'s is Node-side wall time (including its CDP hop).');
    if (unmeasured) process.exitCode = 1;
  } finally {
    await fixtures?.close();
  }
}

function reportCorpus(results: readonly PageResult[], outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  const rows = corpusRows(results);
  log(`\nJawad snapshot benchmark, real-site corpus — ${new Date().toISOString()} — ${cpus().length}× ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);
  log('Times: medians (Jawad: registry duration; Playwright: page.ariaSnapshot({ mode: "ai" }) from Node). Tokens: o200k_base. Kept: share of body.innerText words in the snapshot.\n');
  log(renderCorpus(rows));
  const file = join(outDir, 'corpus.json');
  writeFileSync(file, `${JSON.stringify({ rows, texts: results.map((r) => ({ url: r.url, ours: failed(r.ours) ? null : r.ours.snapshot.text, anchor: failed(r.anchor) ? null : r.anchor.text })) }, null, 2)}\n`);
  log(`\nRaw figures and both snapshots of every page: ${file}`);
  if (rows.some((row) => row.error)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : error);
  process.exitCode = 1;
});
