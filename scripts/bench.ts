/**
 * Jawad's benchmark: `npm run bench` (tsx scripts/bench.ts [--browsers chromium,firefox] [--runs 20]
 * [--tokens 200] [--delay 15] [--build]).
 *
 * Measures, in one run, against the built extension in real browsers:
 *  1. bundle sizes (gzip -9, per file, summed) of what the sidebar, the background and content
 *     scripts load — scripts/bench/bundle.ts;
 *  2. sidebar cold open → interactive, from the click that opens it — scripts/bench/cold-open.ts;
 *  3. per-token added latency, from the provider's write to the sidebar DOM —
 *     scripts/bench/token-latency.ts;
 *  4. the agent's overhead per step (snapshot + click + settle + Harbor), model time excluded —
 *     scripts/bench/agent-overhead.ts;
 *  5. the agent bridge's overhead per command over the tool's own time, and commands per second for
 *     one client — scripts/bench/bridge-overhead.ts.
 *  6. history at scale (100k messages, 20k steps): import, open a conversation, search, memory
 *     recall, export — scripts/bench/history.ts.
 *  7. research mode: background restart → restored workflow shown, one journal write, and a
 *     three-site workflow one and two pages at a time — scripts/bench/workflow-restore.ts.
 * Prints a table with targets and PASS/FAIL, and writes the raw numbers to bench-out/bench.json.
 * It is a measurement, not a test: it exits 0 when a target is missed, 1 only when something could
 * not be measured.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, platform, release } from 'node:os';
import { join, resolve } from 'node:path';
import { launchJawad, sleep, type BrowserName, type JawadBrowser } from '../test/e2e/support/extension-browser';
import { parseArgs, UsageError, type BenchOptions } from './bench/args';
import { distStamp, ensureBuild } from './bench/build';
import { measureBundles, type BundleReport } from './bench/bundle';
import { measureColdOpens, type ColdOpenResult } from './bench/cold-open';
import { showHost, sidebarViaHost } from './bench/pages';
import { renderTable, verdict, type Cell, type Row } from './bench/report';
import { startBenchProvider } from './bench/sse-provider';
import { round, type Summary } from './bench/stats';
import { measureTokenLatency, prepareChat, type TokenLatencyResult } from './bench/token-latency';
import { attempt, failed, type Outcome } from './bench/outcome';
import { AGENT_PAGE, measureAgentOverhead, type AgentOverheadResult } from './bench/agent-overhead';
import { BRIDGE_PAGE, measureBridgeOverhead, type BridgeOverheadResult } from './bench/bridge-overhead';
import { measureHistory, type HistoryResult } from './bench/history';
import { TRANSFER_CHUNK_CHARS } from '../src/protocol';
import { measureResearchRuns, measureRestores, type WorkflowRestoreResult } from './bench/workflow-restore';
import { ensureBrowsers } from './ensure-browsers.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = process.env.JAWAD_DIST ?? 'dist';
const DIST: Record<BrowserName, string> = { chromium: join(ROOT, OUT, 'chrome'), firefox: join(ROOT, OUT, 'firefox') };

const TARGETS = {
  sidebarGzipKb: 60,
  contentScriptGzipKb: 25,
  coldOpenMs: 150,
  tokenP95Ms: 16,
  agentStepMs: 60,
  bridgeOverheadP50Ms: 5,
  bridgeOverheadP95Ms: 15,
  historyOpenMs: 20,
  historySearchMs: 100,
  historyRecallMs: 30,
  historyExportMs: 3_000,
  historyImportMs: 5_000,
  restoreP95Ms: 300,
  journalWriteP50Ms: 3,
} as const;

/** Commands sent one at a time for the bridge's overhead, then again for its throughput. */
const BRIDGE_COMMANDS = 200;


interface BrowserResult {
  version?: string;
  coldOpen: Outcome<ColdOpenResult>;
  tokenLatency: Outcome<TokenLatencyResult>;
  agentOverhead: Outcome<AgentOverheadResult>;
  bridge: Outcome<BridgeOverheadResult>;
  history: Outcome<HistoryResult>;
  workflowRestore?: Outcome<WorkflowRestoreResult>;
}

const log = (line: string) => console.log(line);



function ensureBuildFor(options: BenchOptions): void {
  const missing = options.browsers.some((b) => !existsSync(join(DIST[b], 'manifest.json')));
  ensureBuild(ROOT, DIST[options.browsers[0]!], options.build || missing, log);
}

/** Closes the browser this bench launched; kills that process if it does not close in time. */
async function closeBrowser(jawad: JawadBrowser): Promise<void> {
  const timeout = sleep(15_000).then(() => 'timeout' as const);
  const closed = jawad.close().then(() => 'closed' as const, () => 'failed' as const);
  if ((await Promise.race([closed, timeout])) !== 'closed') jawad.browser.process()?.kill('SIGKILL');
}

async function benchBrowser(name: BrowserName, options: BenchOptions): Promise<Omit<BrowserResult, 'history'>> {
  log(`\n${name}: launching with ${DIST[name]}`);
  const stamp = distStamp(DIST[name]);
  const provider = await startBenchProvider();
  const launched = await attempt(`launching ${name}`, () => launchJawad(name));
  if (failed(launched)) {
    await provider.close();
    return { coldOpen: launched, tokenLatency: launched, agentOverhead: launched, bridge: launched };
  }
  const jawad = launched;
  try {
    const version = await jawad.browser.version();
    await showHost(jawad.host);
    const sidebar = sidebarViaHost(jawad.host);
    log(`  ${version}; streaming ${options.tokens} tokens, ${options.delayMs} ms apart…`);
    const tokenLatency = await attempt('per-token latency', async () => {
      await prepareChat(sidebar, provider);
      return measureTokenLatency(sidebar, provider, options.tokens, options.delayMs);
    });
    if (!failed(tokenLatency)) {
      const { latency, missing, clock } = tokenLatency;
      log(`  per-token latency: p50 ${latency.p50.toFixed(1)} ms, p95 ${latency.p95.toFixed(1)} ms, max ${latency.max.toFixed(1)} ms, missing ${missing}; clock offset ${clock.offsetMs.toFixed(2)} ± ${clock.uncertaintyMs.toFixed(2)} ms`);
    }
    const coldOpen = await attempt('cold opens', () => measureColdOpens(jawad.host, options.runs, log));
    log(`  agent: ${options.agentSteps} steps of snapshot + click on ${AGENT_PAGE}…`);
    const agentOverhead = await attempt('agent overhead', () => measureAgentOverhead(jawad, options.agentSteps));
    if (!failed(agentOverhead)) log(`  agent step: p50 ${agentOverhead.perStep.p50.toFixed(1)} ms, p95 ${agentOverhead.perStep.p95.toFixed(1)} ms (tools alone p50 ${agentOverhead.toolsPerStep.p50.toFixed(1)} ms); prompts ${agentOverhead.prompts}`);
    log(`  bridge: ${BRIDGE_COMMANDS} commands (snapshot / get title) on ${BRIDGE_PAGE}…`);
    const bridge = await attempt('bridge overhead', () => measureBridgeOverhead(jawad, BRIDGE_COMMANDS));
    if (!failed(bridge)) log(`  bridge overhead: p50 ${bridge.overhead.p50.toFixed(1)} ms, p95 ${bridge.overhead.p95.toFixed(1)} ms over tools p50 ${bridge.toolMs.p50.toFixed(1)} ms; ${bridge.commandsPerSecond.toFixed(0)} commands/s`);
    // Last: research mode leaves tabs and state behind that the other figures must not carry.
    const workflowRestore = await attempt('research mode', async () => {
      const runs = await measureResearchRuns(jawad, sidebar, options.runs);
      const restore = name === 'chromium' ? await measureRestores(jawad, sidebar, options.runs) : await restoresInOwnFirefox(options.runs);
      return { ...runs, restore };
    });
    if (!failed(workflowRestore)) log(`  workflow restore: p50 ${workflowRestore.restore.p50.toFixed(1)} ms, p95 ${workflowRestore.restore.p95.toFixed(1)} ms; journal write p50 ${workflowRestore.journalWrite.p50.toFixed(2)} ms; 3 sites 1 tab p50 ${workflowRestore.wallTime.one.p50.toFixed(0)} ms, 2 tabs p50 ${workflowRestore.wallTime.two.p50.toFixed(0)} ms`);
    if (distStamp(DIST[name]) !== stamp) {
      // The browser loads files lazily from dist/: a rebuild mid-run (other work in this checkout)
      // mixes two builds or breaks the extension outright. Such figures are worthless.
      const error = { error: `${DIST[name]} was rebuilt during the measurement (a concurrent npm run build?): run the bench again` };
      log(`  ✗ ${error.error}`);
      return { version, coldOpen: error, tokenLatency: error, agentOverhead: error, bridge: error };
    }
    return { version, coldOpen, tokenLatency, agentOverhead, bridge, workflowRestore };
  } finally {
    await closeBrowser(jawad);
    await provider.close();
  }
}

/** Firefox unloads its event page only when idle: a browser of its own, with a short idle timeout. */
async function restoresInOwnFirefox(runs: number): Promise<Summary> {
  const jawad = await launchJawad('firefox', { firefoxIdleTimeoutMs: 2_000 });
  try {
    await showHost(jawad.host);
    return await measureRestores(jawad, sidebarViaHost(jawad.host), runs);
  } finally {
    await closeBrowser(jawad);
  }
}

/** History at scale in a browser of its own: a fresh profile whose database holds only the benchmark's data. */
async function benchHistory(name: BrowserName): Promise<Outcome<HistoryResult>> {
  // Firefox unloads its event page only by idle timeout; stopBackground needs to know how long that is.
  const launched = await attempt(`launching ${name} for history`, () => launchJawad(name, { firefoxIdleTimeoutMs: 30_000 }));
  if (failed(launched)) return launched;
  try {
    const history = await attempt('history at scale', () => measureHistory(launched, TRANSFER_CHUNK_CHARS, log));
    if (!failed(history)) {
      log(`  history: import ${history.importMs.toFixed(0)} ms (rows unpacked ${history.unpackMs.toFixed(0)} ms later), open p50 ${history.openMs.p50.toFixed(1)} ms, search p50 ${history.searchMs.p50.toFixed(1)} ms (first ${history.firstSearchMs.toFixed(0)} ms, first in the sidebar with the background asleep p50 ${history.searchAsleepMs.p50.toFixed(0)} ms, p95 ${history.searchAsleepMs.p95.toFixed(0)} ms, first of a restarted background p50 ${history.searchAfterRestartMs.p50.toFixed(0)} ms, p95 ${history.searchAfterRestartMs.p95.toFixed(0)} ms), recall p50 ${history.recallMs.p50.toFixed(1)} ms, export ${history.exportMs.toFixed(0)} ms`);
    }
    return history;
  } finally {
    await closeBrowser(launched);
  }
}

const kb = (bytes: number) => round(bytes / 1000, 1);

function bundleRows(bundles: Partial<Record<BrowserName, BundleReport>>): Row[] {
  const per = (pick: (b: BundleReport) => number): Row['values'] =>
    Object.fromEntries(Object.entries(bundles).map(([name, report]) => [name, kb(pick(report))]));
  const contentNote = Object.values(bundles).find((b) => b.contentScripts.note)?.contentScripts.note;
  return [
    { metric: 'sidebar JS+CSS (gz kB)', values: per((b) => b.sidebar.gzip), max: TARGETS.sidebarGzipKb },
    { metric: 'background graph (gz kB)', values: per((b) => b.background.gzip) },
    { metric: 'content script, every page (gz kB)', values: per((b) => b.contentScripts.gzip), max: TARGETS.contentScriptGzipKb, ...(contentNote ? { note: contentNote } : {}) },
    { metric: 'reader, on demand (gz kB)', values: per((b) => b.reader.gzip), note: 'injected only when a page is read' },
  ];
}

function cell<T extends object>(outcome: Outcome<T>, pick: (value: T) => number): Cell {
  return failed(outcome) ? outcome : round(pick(outcome), 1);
}

function perBrowser(results: Partial<Record<BrowserName, BrowserResult>>) {
  return (pick: (r: BrowserResult) => Cell): Row['values'] => Object.fromEntries(Object.entries(results).map(([name, result]) => [name, pick(result)]));
}

function browserRows(results: Partial<Record<BrowserName, BrowserResult>>, runs: number): Row[] {
  const per = perBrowser(results);
  const methods = Object.entries(results)
    .map(([name, r]) => (failed(r.coldOpen) ? '' : `${name}: ${Object.entries(r.coldOpen.methods).map(([m, n]) => `${n}× ${m}`).join(', ')}`))
    .filter(Boolean)
    .join('; ');
  return [
    { metric: 'sidebar cold open → interactive p50 (ms)', values: per((r) => cell(r.coldOpen, (c) => c.interactive.p50)), max: TARGETS.coldOpenMs, note: methods },
    { metric: 'sidebar cold open → interactive p95 (ms)', values: per((r) => cell(r.coldOpen, (c) => c.interactive.p95)), max: TARGETS.coldOpenMs, note: `nearest rank over ${runs} runs${runs < 20 ? ' (= the slowest)' : ''}` },
    { metric: 'sidebar cold open → first paint p50 (ms)', values: per((r) => cell(r.coldOpen, (c) => c.firstPaint.p50)), note: 'as the browser reports it; for information' },
    { metric: 'per-token latency p50 (ms)', values: per((r) => cell(r.tokenLatency, (t) => t.latency.p50)) },
    { metric: 'per-token latency p95 (ms)', values: per((r) => cell(r.tokenLatency, (t) => t.latency.p95)), max: TARGETS.tokenP95Ms, note: 'provider write → text in sidebar DOM' },
    { metric: 'per-token latency max (ms)', values: per((r) => cell(r.tokenLatency, (t) => t.latency.max)) },
    { metric: 'agent overhead per step p50 (ms)', values: per((r) => cell(r.agentOverhead, (a) => a.perStep.p50)), max: TARGETS.agentStepMs, note: 'snapshot + click + settle + Harbor; model time excluded' },
    { metric: 'agent overhead per step p95 (ms)', values: per((r) => cell(r.agentOverhead, (a) => a.perStep.p95)) },
    { metric: 'agent tools alone per step p50 (ms)', values: per((r) => cell(r.agentOverhead, (a) => a.toolsPerStep.p50)), note: 'the registry\'s own durations of snapshot + click' },
    { metric: 'permission prompts in the measured task', values: per((r) => cell(r.agentOverhead, (a) => a.prompts)), max: 0, note: 'sanity check: the site was granted first', digits: 0 },
    { metric: 'bridge overhead per command p50 (ms)', values: per((r) => cell(r.bridge, (b) => b.overhead.p50)), max: TARGETS.bridgeOverheadP50Ms, note: 'round trip − the tool\'s own time; snapshot / get title' },
    { metric: 'bridge overhead per command p95 (ms)', values: per((r) => cell(r.bridge, (b) => b.overhead.p95)), max: TARGETS.bridgeOverheadP95Ms },
    { metric: 'bridge commands per second, one client', values: per((r) => cell(r.bridge, (b) => b.commandsPerSecond)), note: `get title, ${32} in flight` },
    { metric: 'research: restart → restored workflow shown p95 (ms)', values: per((r) => (r.workflowRestore ? cell(r.workflowRestore, (w) => w.restore.p95) : { error: 'not measured' })), max: TARGETS.restoreP95Ms, note: 'sidebar clock: connection lost → resume line shown' },
    { metric: 'research: journal write p50 (ms)', values: per((r) => (r.workflowRestore ? cell(r.workflowRestore, (w) => w.journalWrite.p50) : { error: 'not measured' })), max: TARGETS.journalWriteP50Ms, note: 'plan + journal line, one IndexedDB transaction' },
    { metric: 'research: 3-site read workflow, 1 tab at a time p50 (ms)', values: per((r) => (r.workflowRestore ? cell(r.workflowRestore, (w) => w.wallTime.one.p50) : { error: 'not measured' })), note: 'approval → report; model answers at once' },
    { metric: 'research: 3-site read workflow, 2 tabs at a time p50 (ms)', values: per((r) => (r.workflowRestore ? cell(r.workflowRestore, (w) => w.wallTime.two.p50) : { error: 'not measured' })) },
    { metric: 'tokens missing from the DOM', values: per((r) => cell(r.tokenLatency, (t) => t.missing)), max: 0, note: 'sanity check', digits: 0 },
    ...historyRows(per),
  ];
}

/** History at scale: 100k messages and 20k steps in the database (scripts/bench/history.ts). */
function historyRows(per: (pick: (r: BrowserResult) => Cell) => Row['values']): Row[] {
  const h = (pick: (value: HistoryResult) => number) => per((r) => cell(r.history, pick));
  return [
    { metric: 'history: import 100k messages + 20k steps (ms)', values: h((x) => x.importMs), max: TARGETS.historyImportMs, note: 'first part sent → written (parse, compare, write)' },
    { metric: 'history: import → every row unpacked (ms)', values: h((x) => x.unpackMs), note: 'after the answer, in the background; a conversation opened meanwhile is unpacked first' },
    { metric: 'history: open a conversation, last 50 p50 (ms)', values: h((x) => x.openMs.p50), max: TARGETS.historyOpenMs, note: 'OPEN_CONVERSATION round trip, 20 conversations' },
    { metric: 'history: open a conversation p95 (ms)', values: h((x) => x.openMs.p95) },
    { metric: 'history: search p50 (ms)', values: h((x) => x.searchMs.p50), max: TARGETS.historySearchMs, note: '8 queries: rare to very common words, pairs, a prefix' },
    { metric: 'history: search p95 (ms)', values: h((x) => x.searchMs.p95) },
    { metric: 'history: first search after the import (ms)', values: h((x) => x.firstSearchMs), note: 'the index followed the import as it was unpacked' },
    { metric: 'history: first search after the background stopped p50 (ms)', values: h((x) => x.searchAsleepMs.p50), max: TARGETS.historySearchMs, note: 'typed in the History view, from the pause; the sidebar reads the saved index; 7 stops' },
    { metric: 'history: first search after the background stopped p95 (ms)', values: h((x) => x.searchAsleepMs.p95), max: TARGETS.historySearchMs, note: 'the slowest of the 7' },
    { metric: 'history: first search of a restarted background p50 (ms)', values: h((x) => x.searchAfterRestartMs.p50), note: 'what a chat\'s memory recall waits for: background start + saved index' },
    { metric: 'history: first search of a restarted background p95 (ms)', values: h((x) => x.searchAfterRestartMs.p95), note: 'the slowest restarts' },
    { metric: 'history: memory recall p50 (ms)', values: h((x) => x.recallMs.p50), max: TARGETS.historyRecallMs, note: 'PREVIEW_RECALL round trip' },
    { metric: 'history: memory recall p95 (ms)', values: h((x) => x.recallMs.p95) },
    { metric: 'history: export everything (ms)', values: h((x) => x.exportMs), max: TARGETS.historyExportMs, note: '"Export everything" clicked → file handed to the browser (sidebar clock)' },
  ];
}

/** How the timings were taken, printed under the table so the figures are read correctly. */
function methodNotes(results: Partial<Record<BrowserName, BrowserResult>>): string[] {
  const clocks = Object.entries(results)
    .map(([name, r]) => (failed(r.tokenLatency) ? '' : `${name} ${r.tokenLatency.clock.offsetMs.toFixed(2)} ± ${r.tokenLatency.clock.uncertaintyMs.toFixed(2)} ms`))
    .filter(Boolean);
  return [
    'Cold open: real click on the welcome page\'s "Open Jawad" → #composer-input and .connection[data-state=connected] in the',
    '  new panel document (MutationObserver, in the browser, one clock). The panel is closed and its document destroyed',
    '  between runs; the browser and the background stay running.',
    'Per-token: the bench\'s OpenAI-format SSE server timestamps each chunk as it is sent; a MutationObserver in the sidebar',
    '  timestamps the token\'s first appearance in the answer\'s DOM (before paint). Node and the browser share the machine clock',
    `  (measured browser − Node offset: ${clocks.join(', ') || 'n/a'}).`,
    'Firefox rounds its pages\' clocks to 1 ms (reduced timer precision): its figures carry ±1 ms.',
    'Agent overhead: the test provider answers each model request at once with [snapshot, click]; the time from one request to',
    '  the next (Node\'s clock, when the request body arrived) is everything Jawad does for the step.',
  ];
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  ensureBuildFor(options);
  ensureBrowsers();

  const bundles: Partial<Record<BrowserName, BundleReport>> = {};
  for (const name of options.browsers) bundles[name] = measureBundles(DIST[name]);

  const results: Partial<Record<BrowserName, BrowserResult>> = {};
  const skipped = { error: 'not measured (--only history)' };
  for (const name of options.browsers) {
    const rest = options.historyOnly ? { coldOpen: skipped, tokenLatency: skipped, agentOverhead: skipped, bridge: skipped } : await benchBrowser(name, options);
    results[name] = { ...rest, history: await benchHistory(name) };
  }

  const rows = [...bundleRows(bundles), ...(options.historyOnly ? historyRows(perBrowser(results)) : browserRows(results, options.runs))];
  log(`\nJawad benchmark — ${new Date().toISOString()} — ${cpus().length}× ${cpus()[0]?.model ?? 'unknown CPU'}, ${platform()} ${release()}, Node ${process.version}`);
  log(`${options.runs} cold opens and ${options.tokens} tokens (${options.delayMs} ms apart) per browser; sizes: gzip -9 per file, kB = 1000 B\n`);
  log(renderTable(rows, options.browsers));
  log(`\n${methodNotes(results).join('\n')}`);

  const outDir = resolve(ROOT, options.outDir);
  mkdirSync(outDir, { recursive: true });
  const summary = rows.map((row) => ({ ...row, verdict: verdict(row, options.browsers) }));
  const versions = Object.fromEntries(Object.entries(results).map(([name, r]) => [name, r.version]));
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, platform: platform(), release: release(), node: process.version },
    versions,
    options,
    targets: TARGETS,
    bundles,
    browsers: results,
    summary,
  };
  writeFileSync(join(outDir, 'bench.json'), `${JSON.stringify(report, null, 2)}\n`);
  log(`\nRaw numbers: ${join(options.outDir, 'bench.json')}`);
  if (summary.some((row) => row.verdict === 'ERROR')) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : error);
  process.exitCode = 1;
});
