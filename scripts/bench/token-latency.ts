/**
 * Per-token added latency: from the provider's write of a chunk to that chunk's text in the
 * sidebar's DOM.
 *
 * The bench's own OpenAI-format SSE server (sse-provider.ts) streams N chunks, each one unique
 * token (" t0042"), and timestamps each write. In the sidebar a MutationObserver on the message list
 * records, per token, the first moment its text is in the last assistant `.markdown`. Both are
 * `performance.timeOrigin + performance.now()` epoch times: Node and the browser share the
 * machine's clock, so their difference is the latency through the whole path (fetch stream in the
 * background → SSE parsing → Port message → sidebar state → Preact/markdown render). A round-trip
 * calibration of the two clocks is recorded next to the figures, to show how far that assumption
 * holds. DOM time is not paint time: a frame (≤ 16.7 ms at 60 Hz) can still follow.
 */
import type { Sidebar, SidebarWindow } from '../../test/e2e/support/extension-browser';
import { backToChat, configureProvider, messages, sendMessage, waitForAnswer } from '../../test/e2e/support/flows';
import { BENCH_MODEL, type BenchProvider } from './sse-provider';
import { summarize, type Summary } from './stats';

export interface ClockCalibration {
  /** Browser epoch clock minus Node's, from the tightest round trip (positive: browser ahead). */
  offsetMs: number;
  /** Half that round trip: the offset is known to ± this. */
  uncertaintyMs: number;
}

export interface TokenLatencyResult {
  tokens: number;
  delayMs: number;
  /** Latency of every token seen, in stream order (ms). */
  samples: number[];
  /** Tokens never seen in the DOM (should be 0). */
  missing: number;
  latency: Summary;
  clock: ClockCalibration;
}

type TokenWindow = Window & { __benchTokens?: { seen: Array<number | null>; stop(): void } };

/** Four digits keep every marker the same width, so no marker is a prefix of another. */
const marker = (i: number): string => `t${String(i).padStart(4, '0')}`;

/** Configures the provider like a user would (the e2e flow) and sends a warm-up message. */
export async function prepareChat(sidebar: Sidebar, provider: BenchProvider): Promise<void> {
  await configureProvider(sidebar, { provider: 'custom', baseUrl: `${provider.url}/v1`, model: BENCH_MODEL });
  await backToChat(sidebar);
  // The first answer pays for one-off work (the fetch connection, lazy code): keep it out of the figures.
  await sendMessage(sidebar, 'warm-up');
  await waitForAnswer(sidebar);
}

/**
 * Page code (evaluated from the welcome page with the sidebar's window as `win`): records, by the
 * sidebar's clock, when each token's text first appears in the last answer.
 */
function observeTokens(win: SidebarWindow, count: number): void {
  const page = win as TokenWindow;
  const seen: Array<number | null> = new Array<number | null>(count).fill(null);
  let next = 0;
  const observer = new win.MutationObserver(() => {
    const answers = win.document.querySelectorAll('article.message.assistant .markdown');
    const text = answers[answers.length - 1]?.textContent ?? '';
    const now = win.performance.timeOrigin + win.performance.now();
    // Tokens arrive in order; several can land in one render. (Same text as marker(): page code
    // cannot call the bench's functions.)
    while (next < count && text.includes(`t${String(next).padStart(4, '0')}`)) seen[next++] = now;
  });
  observer.observe(win.document.querySelector('.messages')!, { childList: true, subtree: true, characterData: true });
  page.__benchTokens = { seen, stop: () => observer.disconnect() };
}

/** What the sidebar shows, to explain a failed run. */
async function describeChat(sidebar: Sidebar): Promise<string> {
  try {
    const shown = await messages(sidebar);
    const banner = await sidebar.text('.banner, .connection');
    const lines = shown.map((m) => `${m.role}/${m.status}: ${m.text.slice(0, 60)}${m.error ? ` [${m.error}]` : ''}`);
    return JSON.stringify({ messages: lines, banner });
  } catch (error) {
    return `(unreadable: ${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * Estimates the browser clock minus Node's clock from round trips: the browser read is somewhere
 * between Node's before and after reads, so the tightest round trip bounds the offset best.
 */
async function calibrateClock(sidebar: Sidebar, rounds = 15): Promise<ClockCalibration> {
  let best: ClockCalibration = { offsetMs: Number.NaN, uncertaintyMs: Number.POSITIVE_INFINITY };
  for (let i = 0; i < rounds; i++) {
    const before = performance.timeOrigin + performance.now();
    const browserNow = await sidebar.eval((win) => win.performance.timeOrigin + win.performance.now(), null);
    const after = performance.timeOrigin + performance.now();
    const half = (after - before) / 2;
    if (half < best.uncertaintyMs) best = { offsetMs: browserNow - (before + half), uncertaintyMs: half };
  }
  return best;
}

export async function measureTokenLatency(sidebar: Sidebar, provider: BenchProvider, tokens: number, delayMs: number): Promise<TokenLatencyResult> {
  const chunks = Array.from({ length: tokens }, (_, i) => ` ${marker(i)}`);
  const written = provider.script({ chunks, delayMs });
  await sidebar.eval(observeTokens, tokens);
  await sendMessage(sidebar, 'Stream the benchmark tokens');
  const writes = await written;
  await waitForAnswer(sidebar, 30_000 + tokens * delayMs).catch(async (error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; the sidebar shows: ${await describeChat(sidebar)}`);
  });
  const seen = await sidebar.eval((win) => {
    const page = win as TokenWindow;
    page.__benchTokens!.stop();
    return page.__benchTokens!.seen;
  }, null);
  const clock = await calibrateClock(sidebar);

  const samples: number[] = [];
  let missing = 0;
  for (const write of writes) {
    const domAt = seen[write.index];
    if (domAt === null || domAt === undefined) missing++;
    else samples.push(domAt - write.at);
  }
  missing += tokens - writes.length;
  return { tokens, delayMs, samples, missing, latency: summarize(samples), clock };
}
