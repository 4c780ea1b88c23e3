/**
 * What having Jawad installed costs a page load: the same URL loaded in the browser with the
 * extension and in a plain Chromium (same binary, same flags, no extension), comparing the page's
 * own `load` time (navigation entry's loadEventEnd, ms from navigation start).
 *
 * A 2 % difference is finer than this two-core, shared machine's noise on one load, so:
 *  - many loads (--load-runs, 41 by default), in pairs: one with, one without, back to back, the
 *    order alternating (interleave.ts), so a slow patch of the machine slows both halves of a pair;
 *  - each pair gives a ratio; the figure is the median of those ratios, with the interval that
 *    holds the true median with 95 % confidence. The target counts as met only when that whole
 *    interval is under it: a median under 1.02 with an interval reaching past it is noise, not proof;
 *  - one tab per browser, navigated again for each load: a new tab per load would add the start of
 *    a renderer process to some loads and not others.
 */
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { sleep } from '../../test/e2e/support/extension-browser';
import { evalIn } from '../bench/pages';
import { median, percentile, summarize, type Summary } from '../bench/stats';
import { CHROMIUM, CHROMIUM_FLAGS, VIEWPORT } from './anchor';
import { interleave, type Sampler } from './interleave';

/** The middle half of the values: where a typical run falls. */
export interface Spread {
  p25: number;
  p50: number;
  p75: number;
}

/** A median with the range that holds the true median with about 95 % confidence. */
export interface MedianEstimate extends Spread {
  low95: number;
  high95: number;
}

/** Page loads (`loadEventEnd`, ms) in pairs: `samples` and `pairRatio` are the loads'. */
export interface LoadMeasurement extends PairedSamples {
  withExtension: Summary;
  without: Summary;
  /** Median with / median without. */
  ratio: number;
  /**
   * One request's round trip from the page (mean of each round's fetches, ms), with and without
   * Jawad installed: what a page load spreads over its requests, measured where it is not drowned
   * in the load's own noise (Chromium sends every request through its web-request proxy once an
   * extension holds webRequest or declarativeNetRequest; README, Performance › Page snapshot).
   */
  requests: PairedSamples;
}

/** A figure taken in both browsers, in pairs back to back. */
export interface PairedSamples {
  samples: { withExtension: number[]; without: number[] };
  /** with / without of each pair. */
  pairRatio: MedianEstimate;
}

/** Rounds of fetches per page, and fetches per round: a round's mean smooths one request's jitter. */
const REQUEST_ROUNDS = 21;
const FETCHES_PER_ROUND = 50;

/** Untimed loads first: the first ones pay for starting the renderer and compiling the page's script. */
const WARM_UP_LOADS = 2;

/** launchJawad's switches (test/e2e/support/extension-browser.ts) without the two that load the extension. */
export function launchPlainChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    pipe: true,
    defaultViewport: VIEWPORT,
    args: ['--headless=new', ...CHROMIUM_FLAGS, '--disable-quic'],
  });
}

export function spreadOf(values: readonly number[]): Spread {
  return { p25: percentile(values, 25), p50: median(values), p75: percentile(values, 75) };
}

/**
 * The median's 95 % confidence interval from order statistics (no assumption about the noise's
 * shape): the values ranked n/2 ∓ 0.98·√n, the normal approximation of the binomial ranks.
 */
export function medianEstimate(values: readonly number[]): MedianEstimate {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const reach = 0.98 * Math.sqrt(n);
  const lowRank = Math.max(1, Math.floor(n / 2 - reach));
  const highRank = Math.min(n, Math.ceil(n / 2 + 1 + reach));
  return { ...spreadOf(values), low95: sorted[lowRank - 1] ?? Number.NaN, high95: sorted[highRank - 1] ?? Number.NaN };
}

/** Page code: the load event's end, once the browser has filled it in (0 until then). */
function loadEventEnd(): number {
  const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.loadEventEnd ?? 0;
}

async function loadOnce(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'load' });
  // goto resolves on the load event; loadEventEnd is set just after the handlers ran.
  for (let i = 0; i < 40; i++) {
    const end = await evalIn(page, loadEventEnd, null);
    if (end > 0) return end;
    await sleep(25);
  }
  throw new Error(`${url} reported no loadEventEnd`);
}

/**
 * Page code: the mean round trip of `count` sequential fetches of the page's origin's robots.txt,
 * a small answer (or a small 404) the cache may not serve.
 */
async function meanRoundTrip(count: number): Promise<number> {
  const url = new URL('/robots.txt', location.origin).href;
  const start = performance.now();
  for (let i = 0; i < count; i++) await (await fetch(`${url}?round-trip=${i}`, { cache: 'no-store' })).arrayBuffer();
  return (performance.now() - start) / count;
}

type Tabs = { withExtension: Page; without: Page };

/**
 * `sample` taken in both tabs `runs` times, alternating (interleave.ts): each side's figures, and
 * the median of the pairs' with / without ratios.
 */
async function pairedSamples(what: string, tabs: Tabs, runs: number, sample: (tab: Page) => Promise<number>): Promise<PairedSamples> {
  const samples = { withExtension: [] as number[], without: [] as number[] };
  const sides: Sampler[] = [
    { label: `${what} with Jawad`, sample: async () => void samples.withExtension.push(await sample(tabs.withExtension)) },
    { label: `${what} without Jawad`, sample: async () => void samples.without.push(await sample(tabs.without)) },
  ];
  await interleave(sides, runs);
  const failure = sides.find((side) => side.failure !== undefined)?.failure;
  if (failure) throw new Error(failure);
  return { samples, pairRatio: medianEstimate(samples.withExtension.map((ms, i) => ms / samples.without[i]!)) };
}

/** A tab in the foreground (so neither browser throttles it) that every load of this page reuses. */
async function loadingTab(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  await page.bringToFront();
  return page;
}

export async function measureLoads(withExtension: Browser, plain: Browser, url: string, runs: number, log: (line: string) => void): Promise<LoadMeasurement> {
  const tabs: Tabs = { withExtension: await loadingTab(withExtension), without: await loadingTab(plain) };
  try {
    for (let i = 0; i < WARM_UP_LOADS; i++) {
      await loadOnce(tabs.withExtension, url);
      await loadOnce(tabs.without, url);
    }
    const { samples, pairRatio } = await pairedSamples('load', tabs, runs, (tab) => loadOnce(tab, url));
    const withSummary = summarize(samples.withExtension);
    const withoutSummary = summarize(samples.without);
    const list = (values: number[]) => values.map((ms) => ms.toFixed(1)).join(', ');
    log(`  load with Jawad: ${list(samples.withExtension)} ms\n  without: ${list(samples.without)} ms`);
    log(`  with / without per pair: median ${pairRatio.p50.toFixed(3)}× (95 % interval ${pairRatio.low95.toFixed(3)}–${pairRatio.high95.toFixed(3)}×), middle half ${pairRatio.p25.toFixed(3)}–${pairRatio.p75.toFixed(3)}×`);
    const requests = await pairedSamples('requests', tabs, REQUEST_ROUNDS, (tab) => evalIn(tab, meanRoundTrip, FETCHES_PER_ROUND));
    log(`  request round trip with Jawad: ${list(requests.samples.withExtension)} ms\n  without: ${list(requests.samples.without)} ms`);
    return { withExtension: withSummary, without: withoutSummary, ratio: withSummary.p50 / withoutSummary.p50, pairRatio, samples, requests };
  } finally {
    await tabs.withExtension.close().catch(() => undefined);
    await tabs.without.close().catch(() => undefined);
  }
}
