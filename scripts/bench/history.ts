/**
 * History at scale, in the real extension: import a 100k-message, 20k-step archive, then time
 * opening a conversation (last 50 messages), a search, a memory recall and an export, each as the
 * round trip of its protocol message from a sidebar document (what the sidebar waits for, minus
 * rendering). The import is timed from its first part to the background's answer.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sidebar } from '../../test/e2e/support/extension-browser';
import { BENCH_SIZE, benchArchive, type HistorySize } from './history-data';
import { summarize, type Summary } from './stats';

export interface HistoryResult {
  size: HistorySize;
  archiveMB: number;
  importMs: number;
  openMs: Summary;
  firstSearchMs: number;
  searchMs: Summary;
  recallMs: Summary;
  exportMs: number;
  hitsFound: number;
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

interface InPage {
  importMs: number;
  open: number[];
  firstSearch: number;
  search: number[];
  recall: number[];
  exportMs: number;
  hits: number;
}

interface PortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(fn: (event: never) => void): void; removeListener(fn: (event: never) => void): void };
}
type ExtensionGlobals = { browser?: { runtime: { connect(info: { name: string }): PortLike } }; chrome?: { runtime: { connect(info: { name: string }): PortLike } } };

/** Runs in the sidebar document: its own Port to the background, one message at a time. */
async function measureInSidebar(win: Window & typeof globalThis, arg: { url: string; chunk: number; queries: string[]; conversations: string[] }): Promise<InPage> {
  // tsx names inner functions with an `__name` helper that the page does not have (see NAME_SHIM in
  // pages.ts); this code may run in another extension page than `win`, so the shim goes on its own global.
  (globalThis as unknown as { __name?: unknown }).__name ??= (fn: unknown) => fn;
  const globals = win as unknown as ExtensionGlobals;
  const runtime = (globals.browser ?? globals.chrome)!.runtime;
  const port = runtime.connect({ name: 'jawad-sidebar' });
  let n = 0;
  const call = (message: { type: string; payload: unknown }, done: (event: { type: string; payload: { index?: number; count?: number } }) => boolean) =>
    new Promise<number>((resolve, reject) => {
      const requestId = `bench-${(++n).toString(16).padStart(8, '0')}`;
      const started = performance.now();
      const listener = (event: { type: string; requestId: string; payload: { index?: number; count?: number; message?: string } }) => {
        if (event.requestId !== requestId) return;
        if (event.type === 'ERROR') {
          port.onMessage.removeListener(listener);
          reject(new Error(event.payload.message));
        } else if (done(event)) {
          port.onMessage.removeListener(listener);
          resolve(performance.now() - started);
        }
      };
      port.onMessage.addListener(listener);
      port.postMessage({ ...message, requestId });
    });
  const text = await (await fetch(arg.url)).text();
  const count = Math.ceil(text.length / arg.chunk);
  // All parts go out under one requestId, so the answer to the last one ends the timing.
  const importStarted = performance.now();
  await new Promise<void>((resolve, reject) => {
    const requestId = 'bench-import00';
    const listener = (event: { type: string; requestId: string; payload: { message?: string } }) => {
      if (event.requestId !== requestId) return;
      port.onMessage.removeListener(listener);
      if (event.type === 'IMPORT_RESULT') resolve();
      else reject(new Error(event.payload.message));
    };
    port.onMessage.addListener(listener);
    for (let index = 0; index < count; index++) {
      port.postMessage({ type: 'IMPORT_PART', requestId, payload: { transferId: 'bench-import', index, count, text: text.slice(index * arg.chunk, (index + 1) * arg.chunk), apply: true } });
    }
  });
  const importMs = performance.now() - importStarted;
  const open: number[] = [];
  for (const conversationId of arg.conversations) open.push(await call({ type: 'OPEN_CONVERSATION', payload: { conversationId } }, (e) => e.type === 'CONVERSATION'));
  let hits = 0;
  const firstSearch = await call({ type: 'SEARCH_HISTORY', payload: { query: arg.queries[0] } }, (e) => e.type === 'SEARCH_RESULTS');
  const search: number[] = [];
  for (const query of arg.queries) {
    search.push(await call({ type: 'SEARCH_HISTORY', payload: { query } }, (e) => {
      if (e.type === 'SEARCH_RESULTS') hits += (e.payload as unknown as { hits: unknown[] }).hits.length;
      return e.type === 'SEARCH_RESULTS';
    }));
  }
  const recall: number[] = [];
  for (const query of arg.queries) recall.push(await call({ type: 'PREVIEW_RECALL', payload: { question: `${query} and what else?` } }, (e) => e.type === 'RECALL'));
  const exportMs = await call({ type: 'EXPORT_ARCHIVE', payload: { transferId: 'bench-export' } }, (e) => e.type === 'ARCHIVE_PART' && e.payload.index === e.payload.count! - 1);
  port.disconnect();
  return { importMs, open, firstSearch, search, recall, exportMs, hits };
}

export async function measureHistory(sidebar: Sidebar, chunk: number, log: (line: string) => void, size = BENCH_SIZE): Promise<HistoryResult> {
  const { archive, words } = benchArchive(size);
  const text = JSON.stringify(archive);
  log(`  history: ${archive.messages.length.toLocaleString('en')} messages, ${archive.steps.length.toLocaleString('en')} steps, ${(text.length / 1e6).toFixed(1)} MB archive…`);
  const server = await serve(text);
  try {
    // Common, middling and rare words, alone, in pairs, and a prefix being typed.
    const queries = [words[3]!, words[40]!, words[900]!, words[15_000]!, `${words[5]} ${words[60]}`, `${words[200]} ${words[7]}`, words[120]!.slice(0, 3), `${words[2]} ${words[11]} ${words[30]}`];
    const conversations = ['bench-c0', ...Array.from({ length: 19 }, (_, i) => `bench-c${1 + Math.floor((i * (size.conversations - 2)) / 19)}`)];
    const result = await sidebar.eval(measureInSidebar, { url: server.url, chunk, queries, conversations });
    return {
      size,
      archiveMB: text.length / 1e6,
      importMs: result.importMs,
      openMs: summarize(result.open),
      firstSearchMs: result.firstSearch,
      searchMs: summarize(result.search),
      recallMs: summarize(result.recall),
      exportMs: result.exportMs,
      hitsFound: result.hits,
    };
  } finally {
    await server.close();
  }
}
