/**
 * Sidebar cold open → interactive.
 *
 * Method (the same in both browsers, all in-browser, one clock):
 *  - Between runs the panel is closed (chrome.sidePanel.close / browser.sidebarAction.close, from a
 *    real click on a button the bench adds to the welcome page) and the bench waits until its
 *    document is destroyed, so every open loads a new document. The browser process, the extension's
 *    background and the HTTP cache stay warm: this is "the user opens the panel", not a browser start.
 *  - t0: a capturing click listener in the welcome page, which runs just before the page's own
 *    handler calls sidePanel.open / sidebarAction.open. The click is a real puppeteer click (a user
 *    gesture, which both open calls require).
 *  - The same listener then looks for the new panel document through extension.getViews() (the panel
 *    is same-origin with the welcome page), checking every timer tick. As soon as it has the
 *    document, and provided the UI is not there yet, it puts a MutationObserver on it; the first
 *    mutation after which `#composer-input` and `.connection[data-state="connected"]` both exist
 *    gives t1 ("observed"). MutationObserver callbacks run right after the DOM change, so t1 is
 *    when the UI was in the DOM, before it is painted.
 *  - If the UI was already there when the document was first reached (the moment was missed), t1
 *    is that moment: an upper bound ("found-ready"). Paint timing is no fallback: the panel can
 *    paint before it is connected (the background answers its Port a little later), and Firefox
 *    reported first-contentful-paint before the composer existed in some runs. Each run records
 *    its method; the summary prints how many runs were observed.
 *  - Both ends are `performance.timeOrigin + performance.now()`-style epoch times taken in the same
 *    browser process, so no cross-process clock is involved.
 */
import type { Page } from 'puppeteer-core';
import { sleep } from '../../test/e2e/support/extension-browser';
import { evalIn, SIDEBAR_PATH, sidebarIsOpen, type ExtensionPageGlobals } from './pages';
import { summarize, type Summary } from './stats';

export type ColdOpenMethod = 'observed' | 'found-ready';

export interface ColdOpenRun {
  /** Click → composer and connected state in the DOM (see the method). */
  interactiveMs: number;
  method: ColdOpenMethod;
  /** Click → the panel document's navigation start (its performance.timeOrigin). */
  navigationStartMs: number;
  /** Click → the probe first reached the panel document. */
  reachedMs: number;
  domContentLoadedMs?: number;
  loadMs?: number;
  firstContentfulPaintMs?: number;
  /** How long the click event waited before the page handled it (event.timeStamp → listener). */
  inputDelayMs: number;
}

export interface ColdOpenResult {
  runs: ColdOpenRun[];
  interactive: Summary;
  /** Click → the panel's first-contentful-paint, where the browser reports it. */
  firstPaint: Summary;
  methods: Partial<Record<ColdOpenMethod, number>>;
}

/** What the probe in the welcome page reports; all times are epoch ms. */
interface ProbeReport {
  error?: string;
  clickAt: number;
  eventDelay: number;
  reachedAt: number;
  readyAt?: number;
  navigationStart: number;
}

/** The panel document's own timings, read once it has settled; epoch ms. */
interface PanelTimings {
  timeOrigin: number;
  domContentLoaded?: number;
  load?: number;
  firstContentfulPaint?: number;
}

type ProbeWindow = Window & ExtensionPageGlobals & { __benchColdOpen?: Promise<ProbeReport> };

const OPEN_TIMEOUT_MS = 10_000;

/** Adds a "close the panel" button to the welcome page (via the DOM: the page's CSP forbids inline script). */
function addCloseButton(host: Page): Promise<void> {
  return evalIn(host, () => {
    const page = window as ProbeWindow;
    if (document.getElementById('bench-close-panel')) return;
    const button = document.createElement('button');
    button.id = 'bench-close-panel';
    button.type = 'button';
    button.textContent = 'Close panel (bench)';
    button.addEventListener('click', () => {
      // Firefox wants a user gesture and no await before the call; Chromium needs the window id.
      if (page.browser?.sidebarAction) void page.browser.sidebarAction.close();
      else void page.chrome!.windows.getCurrent().then((w) => page.chrome!.sidePanel.close({ windowId: w.id }));
    });
    document.body.append(button);
  }, null);
}

/** How long a panel may stay after "close" before the close is asked for again. */
const CLOSE_AGAIN_MS = 2_000;

async function closePanel(host: Page): Promise<void> {
  if (!(await sidebarIsOpen(host))) return;
  await host.click('#bench-close-panel');
  const deadline = Date.now() + OPEN_TIMEOUT_MS;
  let askAgainAt = Date.now() + CLOSE_AGAIN_MS;
  // A closed Chromium side panel keeps its document for a moment; reopening then would reuse it.
  // Once, on a slow machine, a close was not carried out at all: it is asked for again.
  while (await sidebarIsOpen(host)) {
    if (Date.now() > deadline) throw new Error('The panel document outlived its close by 10 s: cold opens are impossible');
    if (Date.now() > askAgainAt) {
      await host.click('#bench-close-panel');
      askAgainAt = Date.now() + CLOSE_AGAIN_MS;
    }
    await sleep(50);
  }
}

/** Runs in the welcome page: arms the click listener and the panel watcher (see the file comment). */
function armProbe(arg: { path: string; timeoutMs: number }): void {
  const page = window as ProbeWindow;
  const views = (page.browser ?? page.chrome!).extension;
  const epoch = () => performance.timeOrigin + performance.now();
  const stop = new AbortController();
  page.__benchColdOpen = new Promise<ProbeReport>((resolve) => {
    const onClick = (event: MouseEvent) => {
      if (!(event.target instanceof Element) || event.target.id !== 'open-panel') return;
      stop.abort();
      const clickAt = epoch();
      const eventDelay = performance.now() - event.timeStamp;
      // A promise settles once: this only reports a panel that never got ready.
      setTimeout(() => resolve({ error: 'the panel did not become interactive', clickAt, eventDelay, reachedAt: epoch(), navigationStart: 0 }), arg.timeoutMs);
      const look = () => {
        const view = views.getViews().find((w) => w.location.pathname === arg.path);
        if (!view) {
          if (epoch() - clickAt < arg.timeoutMs) setTimeout(look, 0);
          return;
        }
        const reachedAt = epoch();
        const report = { clickAt, eventDelay, reachedAt, navigationStart: view.performance.timeOrigin };
        const doc = view.document;
        const ready = () => doc.querySelector('#composer-input') !== null && doc.querySelector('.connection[data-state="connected"]') !== null;
        if (ready()) {
          resolve(report); // the moment was missed: reachedAt is an upper bound
          return;
        }
        // The observer belongs to the panel's realm, so it lives and dies with that document.
        const observer = new (view as Window & typeof globalThis).MutationObserver(() => {
          if (!ready()) return;
          const readyAt = epoch();
          observer.disconnect();
          resolve({ ...report, readyAt });
        });
        observer.observe(doc, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-state'] });
      };
      look();
    };
    window.addEventListener('click', onClick, { capture: true, signal: stop.signal });
  });
}

/** Runs in the welcome page: the panel's navigation and paint timings, as epoch ms. */
function readPanelTimings(path: string): PanelTimings | undefined {
  const page = window as ProbeWindow;
  const view = (page.browser ?? page.chrome!).extension.getViews().find((w) => w.location.pathname === path);
  if (!view) return undefined;
  const origin = view.performance.timeOrigin;
  const nav = view.performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const fcp = view.performance.getEntriesByName('first-contentful-paint')[0];
  const at = (ms: number | undefined) => (ms ? origin + ms : undefined);
  return { timeOrigin: origin, domContentLoaded: at(nav?.domContentLoadedEventEnd), load: at(nav?.loadEventEnd), firstContentfulPaint: at(fcp?.startTime) };
}

/** Waits (briefly) for the first paint entry, which only exists once a frame was presented. */
async function settledTimings(host: Page): Promise<PanelTimings | undefined> {
  let timings: PanelTimings | undefined;
  for (let i = 0; i < 40; i++) {
    timings = await evalIn(host, readPanelTimings, SIDEBAR_PATH);
    if (timings?.firstContentfulPaint && timings.load) break;
    await sleep(50);
  }
  return timings;
}

function toRun(probe: ProbeReport, timings: PanelTimings | undefined): ColdOpenRun {
  const since = (at: number | undefined) => (at === undefined ? undefined : at - probe.clickAt);
  const fcp = timings?.firstContentfulPaint;
  const [method, interactiveAt]: [ColdOpenMethod, number] = probe.readyAt !== undefined ? ['observed', probe.readyAt] : ['found-ready', probe.reachedAt];
  return {
    interactiveMs: interactiveAt - probe.clickAt,
    method,
    navigationStartMs: probe.navigationStart - probe.clickAt,
    reachedMs: probe.reachedAt - probe.clickAt,
    domContentLoadedMs: since(timings?.domContentLoaded),
    loadMs: since(timings?.load),
    firstContentfulPaintMs: since(fcp),
    inputDelayMs: probe.eventDelay,
  };
}

async function coldOpenOnce(host: Page): Promise<ColdOpenRun> {
  await closePanel(host);
  await sleep(300); // let the close finish its work, so it does not overlap the next open
  await evalIn(host, armProbe, { path: SIDEBAR_PATH, timeoutMs: OPEN_TIMEOUT_MS });
  await host.click('#open-panel');
  const probe = await evalIn(host, () => (window as ProbeWindow).__benchColdOpen!, null);
  if (probe.error) throw new Error(`Cold open failed: ${probe.error}`);
  return toRun(probe, await settledTimings(host));
}

export async function measureColdOpens(host: Page, runs: number, log: (line: string) => void): Promise<ColdOpenResult> {
  await addCloseButton(host);
  const results: ColdOpenRun[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await coldOpenOnce(host);
    log(`  cold open ${i + 1}/${runs}: ${run.interactiveMs.toFixed(1)} ms (${run.method}; navigation start +${run.navigationStartMs.toFixed(1)}, first paint +${run.firstContentfulPaintMs?.toFixed(1) ?? '?'})`);
    results.push(run);
  }
  const methods: ColdOpenResult['methods'] = {};
  for (const run of results) methods[run.method] = (methods[run.method] ?? 0) + 1;
  const firstPaints = results.flatMap((r) => (r.firstContentfulPaintMs === undefined ? [] : [r.firstContentfulPaintMs]));
  return { runs: results, interactive: summarize(results.map((r) => r.interactiveMs)), firstPaint: summarize(firstPaints), methods };
}
