/**
 * The agent benchmark: `npm run bench:agent`. Every real-app task of the E2E suite (MediaWiki,
 * DokuWiki, Adminer, WordPress, phpMyAdmin from Debian's packages; test/support/real-apps/) played twice by the same
 * scripted model, which finds its targets by role and name in the text it reads:
 *  1. by Jawad: the built extension in Chromium, driven as the headless runner drives it
 *     (cli/agent-task.ts, the same code as `npx jawad run`), its snapshot tool reading the pages;
 *  2. by a baseline: the same model, system prompt and tool list, on Playwright's AI snapshot and
 *     Playwright's actions (scripts/bench-agent/playwright-agent.ts).
 * Each side gets a fresh copy of each application; each task is checked in the application's own
 * state. Prints, per task and in total: success, steps, and the model's input tokens (o200k_base,
 * everything the model was sent on every turn). A measurement: exits 0 unless nothing could run.
 * BENCH_AGENT_SHOW=1 prints the baseline's last snapshot of each task it failed.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { Browser } from 'playwright-core';
import { saveProviderSettings } from '../cli/agent-task';
import { ensureBuild, launchJawad, type JawadBrowser } from '../cli/launch';
import { startProviderServer, type ProviderServer, type RecordedRequest } from '../test/support/provider-server';
import { isChatCompletion, offersTools } from '../test/support/scripted-model';
import { startAdminer } from '../test/support/real-apps/adminer';
import { ADMINER_TASKS } from '../test/support/real-apps/adminer-tasks';
import type { AppTask, RealApp } from '../test/support/real-apps/app-task';
import { startDjangoAdmin } from '../test/support/real-apps/django-admin';
import { DJANGO_TASKS } from '../test/support/real-apps/django-tasks';
import { startFossil } from '../test/support/real-apps/fossil';
import { FOSSIL_TASKS } from '../test/support/real-apps/fossil-tasks';
import { DOKU_TASKS } from '../test/support/real-apps/doku-tasks';
import { startDokuWiki } from '../test/support/real-apps/dokuwiki';
import { startJupyter } from '../test/support/real-apps/jupyter';
import { JUPYTER_TASKS } from '../test/support/real-apps/jupyter-tasks';
import { startMediaWiki } from '../test/support/real-apps/mediawiki';
import { startPhpMyAdmin } from '../test/support/real-apps/phpmyadmin';
import { PMA_TASKS } from '../test/support/real-apps/pma-tasks';
import { runAppTask } from '../test/support/real-apps/run-app-task';
import { WIKI_TASKS } from '../test/support/real-apps/wiki-tasks';
import { startWordPress } from '../test/support/real-apps/wordpress';
import { WP_TASKS } from '../test/support/real-apps/wp-tasks';
import { startRoundcube } from '../test/support/real-apps/roundcube';
import { ROUNDCUBE_TASKS } from '../test/support/real-apps/roundcube-tasks';
import { launchAnchorBrowser, VIEWPORT } from './bench-snapshot/anchor';
import { runBaselineTask } from './bench-agent/playwright-agent';
import { ensureBrowsers } from './ensure-browsers.mjs';

interface Suite {
  name: string;
  start: () => Promise<RealApp>;
  tasks: readonly AppTask<RealApp>[];
}

const SUITES: Suite[] = [
  { name: 'MediaWiki', start: startMediaWiki, tasks: WIKI_TASKS },
  { name: 'DokuWiki', start: startDokuWiki, tasks: DOKU_TASKS },
  { name: 'Adminer', start: startAdminer, tasks: ADMINER_TASKS },
  { name: 'WordPress', start: startWordPress, tasks: WP_TASKS },
  { name: 'phpMyAdmin', start: startPhpMyAdmin, tasks: PMA_TASKS },
  { name: 'Roundcube', start: startRoundcube, tasks: ROUNDCUBE_TASKS },
  { name: 'Jupyter', start: startJupyter, tasks: JUPYTER_TASKS },
  { name: 'Django admin', start: startDjangoAdmin, tasks: DJANGO_TASKS },
  { name: 'Fossil', start: startFossil, tasks: FOSSIL_TASKS },
];

interface Result {
  ok: boolean;
  steps: number;
  tokens: number;
  why?: string;
}

const tokensOf = (texts: readonly string[]) => texts.reduce((sum, text) => sum + encode(text).length, 0);

/** What the model was sent, per request: the messages and the tools. */
function sentText(request: RecordedRequest): string {
  const body = request.json as { messages?: unknown; tools?: unknown };
  return JSON.stringify({ messages: body.messages, tools: body.tools });
}

async function verdict<App extends RealApp>(task: AppTask<App>, app: App, finalUrl: string, answer: string): Promise<string | undefined> {
  try {
    await task.verify(app, finalUrl, answer);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] : String(error);
  }
}

async function runJawad<App extends RealApp>(jawad: JawadBrowser, provider: ProviderServer, app: App, task: AppTask<App>): Promise<{ result: Result; preamble: { system: unknown[]; tools: unknown } }> {
  provider.reset();
  const { outcome, finalUrl } = await runAppTask(jawad, provider, app, task);
  const turns = provider.requests.filter((request) => isChatCompletion(request) && offersTools(request));
  const first = turns[0]?.json as { messages?: Array<{ role: string }>; tools?: unknown } | undefined;
  const preamble = { system: (first?.messages ?? []).filter((message) => message.role === 'system'), tools: first?.tools };
  const failed = outcome.answer.status !== 'complete' ? `answer ${outcome.answer.status}: ${outcome.answer.error?.message.split('\n')[0] ?? ''}` : await verdict(task, app, finalUrl, outcome.answer.content);
  return { result: { ok: !failed, steps: outcome.steps.length, tokens: tokensOf(turns.map(sentText)), ...(failed ? { why: failed } : {}) }, preamble };
}

async function runBaseline<App extends RealApp>(browser: Browser, app: App, task: AppTask<App>, preamble: { system: unknown[]; tools: unknown }): Promise<Result> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(`${app.url}${task.start}`);
    if (task.ready) await page.waitForSelector(task.ready, { timeout: 30_000 });
    const outcome = await runBaselineTask(page, task.model(app), task.prompt, preamble);
    const failed = outcome.error ?? (await verdict(task, app, page.url(), outcome.answer));
    if (failed && process.env.BENCH_AGENT_SHOW) console.error(`--- ${task.name}: the baseline's last snapshot\n${outcome.lastSnapshot}`);
    return { ok: !failed, steps: outcome.steps, tokens: tokensOf(outcome.requests), ...(failed ? { why: failed } : {}) };
  } finally {
    await context.close();
  }
}

async function withApp<T>(suite: Suite, work: (app: RealApp) => Promise<T>): Promise<T> {
  const app = await suite.start();
  try {
    return await work(app);
  } finally {
    await app.stop();
  }
}

async function sequentially<T, R>(items: readonly T[], run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (const [index, item] of items.entries()) results.push(await run(item, index));
  return results;
}

const pad = (text: string, width: number) => (text.length >= width ? text.slice(0, width) : text + ' '.repeat(width - text.length));
const cell = (result: Result) => `${result.ok ? 'ok  ' : 'FAIL'} ${String(result.steps).padStart(3)} ${String(result.tokens).padStart(8)}`;

async function main(): Promise<void> {
  ensureBrowsers();
  await ensureBuild('chromium', (line) => console.error(line));
  const provider = await startProviderServer();
  const jawad = await launchJawad('chromium');
  const baseline = await launchAnchorBrowser();
  const rows: Array<{ name: string; ours: Result; base: Result }> = [];
  try {
    await saveProviderSettings(jawad.host, { provider: 'custom', baseUrl: `${provider.url}/v1`, model: 'test-model', timeoutSeconds: 30 });
    for (const suite of SUITES) {
      // A fresh copy of the application for each side, one running at a time.
      console.error(`${suite.name}: Jawad…`);
      const jawadRuns = await withApp(suite, (app) => sequentially(suite.tasks, (task) => runJawad(jawad, provider, app, task)));
      console.error(`${suite.name}: Playwright…`);
      const baseRuns = await withApp(suite, (app) => sequentially(suite.tasks, (task, index) => runBaseline(baseline, app, task, jawadRuns[index]!.preamble)));
      suite.tasks.forEach((task, index) => {
        const ours = jawadRuns[index]!.result;
        const base = baseRuns[index]!;
        rows.push({ name: `${suite.name}: ${task.name}`, ours, base });
        console.error(`  ${task.name}: Jawad ${ours.ok ? 'ok' : `FAIL (${ours.why})`}, Playwright ${base.ok ? 'ok' : `FAIL (${base.why})`}`);
      });
    }
  } finally {
    await baseline.close();
    await jawad.close();
    await provider.close();
  }
  console.log(`${pad('task', 58)} ${pad('Jawad: ok steps tokens', 24)}  Playwright AI snapshot: ok steps tokens`);
  for (const row of rows) console.log(`${pad(row.name, 58)} ${pad(cell(row.ours), 24)}  ${cell(row.base)}`);
  const total = (pick: (row: (typeof rows)[number]) => Result) => {
    const results = rows.map(pick);
    return { ok: results.filter((result) => result.ok).length, tokens: results.reduce((sum, result) => sum + result.tokens, 0), steps: results.reduce((sum, result) => sum + result.steps, 0) };
  };
  const [a, b] = [total((row) => row.ours), total((row) => row.base)];
  console.log(`\nsucceeded: Jawad ${a.ok}/${rows.length}, Playwright ${b.ok}/${rows.length}`);
  console.log(`steps: Jawad ${a.steps}, Playwright ${b.steps}`);
  console.log(`model input tokens: Jawad ${a.tokens}, Playwright ${b.tokens} (Jawad/Playwright ${(a.tokens / b.tokens).toFixed(2)}×)`);
  const both = rows.filter((row) => row.ours.ok && row.base.ok);
  if (both.length > 0) {
    const ours = both.reduce((sum, row) => sum + row.ours.tokens, 0);
    const theirs = both.reduce((sum, row) => sum + row.base.tokens, 0);
    console.log(`on the ${both.length} tasks both finished: Jawad ${ours}, Playwright ${theirs} tokens (${(ours / theirs).toFixed(2)}×)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
