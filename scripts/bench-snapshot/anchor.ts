/**
 * The anchor: Playwright's AI-mode ARIA snapshot of the same page, in the same Chromium, headless,
 * same viewport, no extension. It is what an agent built on Playwright (e.g. its MCP server) hands
 * a model, so it is the figure Jawad's snapshot is compared with.
 */
import { chromium, type Browser } from 'playwright-core';
import { sandboxFlags } from '../../cli/launch';
import { median } from '../bench/stats';
import type { Sampler } from './interleave';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
export const VIEWPORT = { width: 1280, height: 800 };

/** The flags of the extension browser (test/e2e/support/extension-browser.ts), minus the extension. */
export const CHROMIUM_FLAGS = [...sandboxFlags(), '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface AnchorMeasurement {
  /** Wall time of each timed page.ariaSnapshot call from Node, ms (includes the CDP round trip). */
  samples: number[];
  ms: number;
  text: string;
  /** The page's visible text (body.innerText), what a snapshot's kept-words share is measured against. */
  visibleText: string;
}

export interface AnchorSession extends Sampler {
  finish(): AnchorMeasurement;
  close(): Promise<void>;
}

/** A big table can take seconds; Playwright's default 30 s would fail a slow but valid run. */
const SNAPSHOT_TIMEOUT_MS = 120_000;

export function launchAnchorBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  // Playwright adds --no-sandbox itself unless told to keep the sandbox: only root goes without.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: sandboxFlags().length === 0, args: [...CHROMIUM_FLAGS, ...extraArgs] });
}

/** Opens the page in a fresh context and takes one untimed snapshot. */
export async function openAnchorSession(browser: Browser, url: string, log: (line: string) => void): Promise<AnchorSession> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const close = () => context.close().catch(() => undefined);
  const samples: number[] = [];
  let text = '';
  let visibleText = '';
  const page = await context.newPage();
  // playwright-core 1.65 has Page.ariaSnapshot, so no locator is needed; mode 'ai' is the output
  // with [ref=…] markers that Playwright's agents give models.
  const snapshot = () => page.ariaSnapshot({ mode: 'ai', timeout: SNAPSHOT_TIMEOUT_MS });
  try {
    await page.goto(url, { waitUntil: 'load' });
    await snapshot(); // warm-up, not timed
    visibleText = await page.evaluate(() => document.body?.innerText ?? '');
  } catch (error) {
    await close();
    throw error;
  }
  return {
    label: 'Playwright ariaSnapshot',
    async sample() {
      const started = performance.now();
      text = await snapshot();
      samples.push(performance.now() - started);
    },
    finish() {
      if (samples.length === 0) throw new Error('no snapshot was taken');
      log(`  Playwright ariaSnapshot: ${samples.map((ms) => ms.toFixed(1)).join(', ')} ms; ${text.length} chars`);
      return { samples, ms: median(samples), text, visibleText };
    },
    close,
  };
}
