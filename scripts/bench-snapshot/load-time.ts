/**
 * What having Jawad installed costs a page load: the same URL loaded in a fresh tab of the browser
 * with the extension and of a plain Chromium (same binary, same flags, no extension), comparing the
 * page's own `load` time (navigation entry's loadEventEnd, ms from navigation start).
 *
 * Loads alternate between the two browsers (interleave.ts), so a slow patch of the machine slows both
 * sides alike instead of skewing the ratio.
 */
import puppeteer, { type Browser } from 'puppeteer-core';
import { sleep } from '../../test/e2e/support/extension-browser';
import { evalIn } from '../bench/pages';
import { summarize, type Summary } from '../bench/stats';
import { CHROMIUM, CHROMIUM_FLAGS, VIEWPORT } from './anchor';
import { interleave, type Sampler } from './interleave';

export interface LoadMeasurement {
  withExtension: Summary;
  without: Summary;
  /** Median with / median without. */
  ratio: number;
  samples: { withExtension: number[]; without: number[] };
}

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

/** Page code: the load event's end, once the browser has filled it in (0 until then). */
function loadEventEnd(): number {
  const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.loadEventEnd ?? 0;
}

async function loadOnce(browser: Browser, url: string): Promise<number> {
  const page = await browser.newPage();
  try {
    await page.bringToFront(); // both browsers load in a visible tab, so neither is throttled
    await page.goto(url, { waitUntil: 'load' });
    // goto resolves on the load event; loadEventEnd is set just after the handlers ran.
    for (let i = 0; i < 40; i++) {
      const end = await evalIn(page, loadEventEnd, null);
      if (end > 0) return end;
      await sleep(25);
    }
    throw new Error(`${url} reported no loadEventEnd`);
  } finally {
    await page.close();
  }
}

export async function measureLoads(withExtension: Browser, plain: Browser, url: string, runs: number, log: (line: string) => void): Promise<LoadMeasurement> {
  // One untimed load each: the first pays for the renderer process and compiling the page's script.
  await loadOnce(withExtension, url);
  await loadOnce(plain, url);
  const samples = { withExtension: [] as number[], without: [] as number[] };
  const sides: Sampler[] = [
    { label: 'load with Jawad', sample: async () => void samples.withExtension.push(await loadOnce(withExtension, url)) },
    { label: 'load without Jawad', sample: async () => void samples.without.push(await loadOnce(plain, url)) },
  ];
  await interleave(sides, runs);
  const failure = sides.find((side) => side.failure !== undefined)?.failure;
  if (failure) throw new Error(failure);
  const result = { withExtension: summarize(samples.withExtension), without: summarize(samples.without), samples };
  log(`  load with Jawad: ${samples.withExtension.map((ms) => ms.toFixed(1)).join(', ')} ms; without: ${samples.without.map((ms) => ms.toFixed(1)).join(', ')} ms`);
  return { ...result, ratio: result.withExtension.p50 / result.without.p50 };
}
