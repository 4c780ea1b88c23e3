/**
 * History at scale, in the real extension: import a 100k-message, 20k-step archive, wait until the
 * import has unpacked its rows, then time opening a conversation (last 50 messages), a search and a
 * memory recall, each as the round trip of its protocol message from an extension page (what the
 * sidebar waits for, minus rendering), and an export as the user makes it in the sidebar. The
 * import is timed from its first part to the background's answer.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'puppeteer-core';
import { sleep, type JawadBrowser, type Sidebar } from '../../test/e2e/support/extension-browser';
import { captureDownloads, download } from '../../test/e2e/support/downloads';
import { backgroundAsleep, backToChat, connectionState, openView } from '../../test/e2e/support/flows';
import { SEARCH_DELAY_MS } from '../../src/sidebar/history-format';
import { evalIn, sidebarViaHost } from './pages';
import { BENCH_SIZE, benchArchive, type HistorySize } from './history-data';
import { summarize, type Summary } from './stats';

export interface HistoryResult {
  size: HistorySize;
  archiveMB: number;
  importMs: number;
  /** From the import's answer until its packed rows are all rows of their own (src/db/import-queue.ts). */
  unpackMs: number;
  openMs: Summary;
  firstSearchMs: number;
  /**
   * The first search in the sidebar's History view after the browser stopped the background, over
   * RESTARTS stops: from the pause in typing to the hits shown (the sidebar searches the saved index
   * itself, src/sidebar/sleeping-search.ts).
   */
  searchAsleepMs: Summary;
  /** The first search of a background started after the index was saved (what a chat's memory recall waits for), over RESTARTS restarts. */
  searchAfterRestartMs: Summary;
  searchMs: Summary;
  recallMs: Summary;
  exportMs: number;
}

/** Serves the archive once on loopback, so the sidebar can fetch it (no 50 MB through the driver). */
async function serve(text: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(text);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/archive.json`, close: () => new Promise((done) => server.close(() => done())) };
}

interface PortLike {
  postMessage(message: unknown): void;
  onDisconnect: { addListener(fn: () => void): void };
  onMessage: { addListener(fn: (event: never) => void): void; removeListener(fn: (event: never) => void): void };
}

/** What the host page keeps between evaluations: its Port to the background and the job running. */
interface BenchState {
  port: PortLike;
  n: number;
  job?: { done: boolean; value?: number[]; error?: string };
}

interface Job {
  /**
   * import: fetch the archive and send it in parts · call: one protocol message per payload, each
   * timed · settled: wait until a table of the database holds `rows` rows (or more, with atLeast).
   */
  kind: 'import' | 'call' | 'settled';
  table?: string;
  rows?: number;
  atLeast?: boolean;
  url?: string;
  chunk?: number;
  type?: string;
  payloads?: unknown[];
  /** The event type that ends a call. */
  until?: string;
}

/**
 * Starts a job in the host page (an extension page, so the background accepts its Port) and
 * returns at once: Firefox's BiDi cannot await a long evaluation, and an import of 100k messages
 * takes longer than one evaluation may. The times are the page's own clock.
 */
function startJob(job: Job): void {
  const g = globalThis as unknown as { __bench?: BenchState; browser?: { runtime: { connect(i: { name: string }): PortLike } }; chrome?: { runtime: { connect(i: { name: string }): PortLike } } };
  if (!g.__bench) {
    const port = (g.browser ?? g.chrome)!.runtime.connect({ name: 'jawad-sidebar' });
    const created: BenchState = { port, n: 0 };
    // The background went away mid-job (stopped, crashed, out of memory): fail instead of waiting.
    port.onDisconnect.addListener(() => {
      if (created.job && !created.job.done) Object.assign(created.job, { done: true, error: 'the background disconnected' });
      g.__bench = undefined;
    });
    g.__bench = created;
  }
  const bench = g.__bench;
  const state: NonNullable<BenchState['job']> = { done: false };
  bench.job = state;
  const send = (type: string, payload: unknown, until: string, parts: number) =>
    new Promise<number>((resolve, reject) => {
      const requestId = `bench-${(++bench.n).toString(16).padStart(8, '0')}`;
      const started = performance.now();
      const listener = (event: { type: string; requestId: string; payload: { message?: string } }) => {
        if (event.requestId !== requestId) return;
        if (event.type !== 'ERROR' && event.type !== until) return;
        bench.port.onMessage.removeListener(listener as never);
        if (event.type === 'ERROR') reject(new Error(event.payload.message));
        else resolve(performance.now() - started);
      };
      bench.port.onMessage.addListener(listener as never);
      const list = Array.isArray(payload) && parts > 0 ? payload : [payload];
      for (const item of list) bench.port.postMessage({ type, requestId, payload: item });
    });
  /** Reads the extension's own database (this page shares its origin) until a table holds so many rows. */
  const settled = async (table: string, rows: number, atLeast: boolean): Promise<number> => {
    const started = performance.now();
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('jawad');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      for (;;) {
        const count = await new Promise<number>((resolve, reject) => {
          const request = db.transaction(table).objectStore(table).count();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        if (count === rows || (atLeast && count > rows)) return performance.now() - started;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      db.close();
    }
  };
  const run = async (): Promise<number[]> => {
    if (job.kind === 'import') {
      const text = await (await fetch(job.url!)).text();
      const count = Math.ceil(text.length / job.chunk!);
      const parts = Array.from({ length: count }, (_, index) => ({ transferId: 'bench-import', index, count, text: text.slice(index * job.chunk!, (index + 1) * job.chunk!), apply: true }));
      return [await send('IMPORT_PART', parts, 'IMPORT_RESULT', count)];
    }
    if (job.kind === 'settled') return [await settled(job.table!, job.rows!, job.atLeast === true)];
    const times: number[] = [];
    for (const payload of job.payloads!) times.push(await send(job.type!, payload, job.until!, 0));
    return times;
  };
  // Like the sidebar during an import: Chrome stops a worker that gets no event for 30 s, busy or not.
  const keepalive = setInterval(() => bench.port.postMessage({ type: 'PING', requestId: 'bench-ping0000', payload: {} }), 20_000);
  run().then(
    (value) => Object.assign(state, { done: true, value }),
    (error: unknown) => Object.assign(state, { done: true, error: String(error) }),
  ).finally(() => clearInterval(keepalive));
}

function jobState(): BenchState['job'] {
  return (globalThis as unknown as { __bench?: BenchState }).__bench?.job;
}

const JOB_TIMEOUT_MS = 15 * 60_000;
/** Background restarts, each followed by one search: one alone swings by half with the machine's load. */
const RESTARTS = 7;

/** Runs a job in the host page and waits for its times (ms, one per message). */
async function job(host: Page, spec: Job): Promise<number[]> {
  await evalIn(host, startJob, spec);
  const deadline = Date.now() + JOB_TIMEOUT_MS;
  for (;;) {
    const state = await evalIn(host, jobState, null);
    if (state?.done) {
      if (state.error) throw new Error(state.error);
      return state.value!;
    }
    if (Date.now() > deadline) throw new Error(`${spec.kind} ${spec.type ?? ''} did not finish in ${JOB_TIMEOUT_MS / 60_000} minutes`);
    await sleep(250);
  }
}

/**
 * Export as the user does it: "Export everything" in the sidebar's History view → the file handed
 * to the browser (the download link clicked), in the sidebar's clock. The file is then checked to
 * hold every message and step.
 */
async function exportFromSidebar(sidebar: Sidebar, size: HistorySize): Promise<number> {
  await openView(sidebar, 'History');
  await captureDownloads(sidebar);
  const clicked = await sidebar.eval((win) => {
    const button = Array.from(win.document.querySelectorAll<HTMLButtonElement>('.import-export button')).find((b) => b.textContent?.includes('Export everything'))!;
    const at = win.performance.now();
    button.click();
    return at;
  }, null);
  const file = await download(sidebar, /^jawad-archive-/, JOB_TIMEOUT_MS);
  const held = await sidebar.eval(async (_win, href) => {
    const archive = JSON.parse(await (await fetch(href)).text()) as { messages: unknown[]; steps: unknown[] };
    return { messages: archive.messages.length, steps: archive.steps.length };
  }, file.href);
  if (held.messages !== size.messages || held.steps !== size.steps) throw new Error(`The exported file holds ${held.messages} messages and ${held.steps} steps, not ${size.messages} and ${size.steps}`);
  return file.at - clicked;
}

/**
 * One search typed into the History view while the background sleeps, in the sidebar's clock: from
 * the input event to its hits in the page, less the pause the view waits for typing to stop.
 */
async function searchWhileAsleep(sidebar: Sidebar, query: string): Promise<number> {
  return sidebar.eval(async (win, { text, timeoutMs }) => {
    const input = win.document.querySelector<HTMLInputElement>('input.history-search')!;
    const started = win.performance.now();
    input.value = text;
    input.dispatchEvent(new win.Event('input', { bubbles: true }));
    const shown = () => win.document.querySelector('.search-results .search-hit');
    await new Promise<void>((resolve, reject) => {
      if (shown()) return resolve();
      const timer = win.setTimeout(() => (observer.disconnect(), reject(new Error(`no hits for ${text}`))), timeoutMs);
      const observer = new win.MutationObserver(() => {
        if (!shown()) return;
        observer.disconnect();
        win.clearTimeout(timer);
        resolve();
      });
      observer.observe(win.document.body, { childList: true, subtree: true });
    });
    const took = win.performance.now() - started;
    input.value = '';
    input.dispatchEvent(new win.Event('input', { bubbles: true }));
    return took;
  }, { text: query, timeoutMs: 10_000 }).then((took) => took - SEARCH_DELAY_MS);
}

export async function measureHistory({ host, stopBackground }: Pick<JawadBrowser, 'host' | 'stopBackground'>, chunk: number, log: (line: string) => void, size = BENCH_SIZE): Promise<HistoryResult> {
  const { archive, words } = benchArchive(size);
  const text = JSON.stringify(archive);
  log(`  history: ${archive.messages.length.toLocaleString('en')} messages, ${archive.steps.length.toLocaleString('en')} steps, ${(text.length / 1e6).toFixed(1)} MB archive…`);
  const server = await serve(text);
  try {
    // Common, middling and rare words, alone, in pairs, and a prefix being typed.
    const queries = [words[3]!, words[40]!, words[900]!, words[15_000]!, `${words[5]} ${words[60]}`, `${words[200]} ${words[7]}`, words[120]!.slice(0, 3), `${words[2]} ${words[11]} ${words[30]}`];
    const conversations = ['bench-c0', ...Array.from({ length: 19 }, (_, i) => `bench-c${1 + Math.floor((i * (size.conversations - 2)) / 19)}`)];
    const [importMs] = await job(host, { kind: 'import', url: server.url, chunk });
    const [unpackMs] = await job(host, { kind: 'settled', table: 'importQueue', rows: 0 });
    const open = await job(host, { kind: 'call', type: 'OPEN_CONVERSATION', payloads: conversations.map((conversationId) => ({ conversationId })), until: 'CONVERSATION' });
    const [firstSearch, ...search] = await job(host, { kind: 'call', type: 'SEARCH_HISTORY', payloads: [queries[0], ...queries].map((query) => ({ query })), until: 'SEARCH_RESULTS' });
    // Then as after the browser stopped the idle background: the next one reads the saved index
    // (its pieces are written in one transaction: once there is one, there are all).
    await job(host, { kind: 'settled', table: 'searchSnapshot', rows: 1, atLeast: true });
    const asleep: number[] = [];
    const afterRestart: number[] = [];
    const sidebar = sidebarViaHost(host);
    for (let restart = 0; restart < RESTARTS; restart++) {
      const query = queries[1 + (restart % (queries.length - 1))]!;
      // The History view opened (its costs shown: the background answered, and the sidebar let go of
      // what it read while the background last slept) when the browser stops the idle background…
      await backToChat(sidebar);
      await openView(sidebar, 'History');
      await sidebar.waitFor((win) => win.document.querySelector('section.costs') && win.document.querySelector('.connection')?.getAttribute('data-state') === 'connected', null, 'the History view with its costs');
      await stopBackground();
      await backgroundAsleep(sidebar);
      // …then a search typed in it…
      asleep.push(await searchWhileAsleep(sidebar, query));
      const state = await connectionState(sidebar);
      if (state !== 'idle') throw new Error(`The search woke the background (the sidebar is ${state}): not the search of a sleeping background`);
      // …and the first search of the background started again (what a chat's memory recall waits for).
      afterRestart.push(...(await job(host, { kind: 'call', type: 'SEARCH_HISTORY', payloads: [{ query }], until: 'SEARCH_RESULTS' })));
    }
    log(`  history: first searches with the background asleep ${asleep.map((ms) => ms.toFixed(0)).join(' ')} ms; of a restarted background ${afterRestart.map((ms) => ms.toFixed(0)).join(' ')} ms`);
    const recall = await job(host, { kind: 'call', type: 'PREVIEW_RECALL', payloads: queries.map((query) => ({ question: `${query} and what else?` })), until: 'RECALL' });
    const exportMs = await exportFromSidebar(sidebarViaHost(host), size);
    return { size, archiveMB: text.length / 1e6, importMs: importMs!, unpackMs: unpackMs!, openMs: summarize(open), firstSearchMs: firstSearch!, searchAsleepMs: summarize(asleep), searchAfterRestartMs: summarize(afterRestart), searchMs: summarize(search), recallMs: summarize(recall), exportMs: exportMs! };
  } finally {
    await server.close();
  }
}
