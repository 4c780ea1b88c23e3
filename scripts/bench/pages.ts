/**
 * Running benchmark code inside extension pages.
 *
 * Everything runs from the welcome page (the "host", an extension page that stays open): the
 * sidebar / side panel is same-origin with it and reachable through `extension.getViews()` in both
 * browsers, so one code path follows the panel across close/reopen, where a puppeteer Page bound to
 * one panel document would go stale.
 */
import type { Page } from 'puppeteer-core';
import { Sidebar, sleep } from '../../test/e2e/support/extension-browser';

/**
 * tsx compiles with esbuild's keepNames, which wraps named inner functions in `__name(...)`; a
 * function sent to a page as source text would then throw "__name is not defined". This identity
 * shim, local to each evaluation, keeps the source runnable.
 */
const NAME_SHIM = 'const __name = (fn) => fn;';

/** The extension APIs a page needs here; `browser` in Firefox, `chrome` in Chromium. */
export interface ExtensionPageGlobals {
  browser?: {
    extension: { getViews(filter?: { type?: string }): Window[] };
    sidebarAction?: { close(): Promise<void> };
  };
  chrome?: {
    extension: { getViews(filter?: { type?: string }): Window[] };
    windows: { getCurrent(): Promise<{ id: number }> };
    sidePanel: { close(options: { windowId: number }): Promise<void> };
  };
}

export const SIDEBAR_PATH = '/src/sidebar/index.html';

/**
 * Source of an expression (for the host page) giving the newest open sidebar window, or undefined.
 * Kept as text because it is spliced into other page-side sources.
 */
const FIND_SIDEBAR = `((globalThis.browser && globalThis.browser.extension) || globalThis.chrome.extension)
  .getViews().filter((w) => w.location.pathname === ${JSON.stringify(SIDEBAR_PATH)}).at(-1)`;

/** Longest a single evaluation may take; puppeteer's own limit (3 min) would stall a run for long. */
const EVAL_TIMEOUT_MS = 30_000;

class EvalTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EvalTimeout(`${what} did not return within ${EVAL_TIMEOUT_MS / 1000} s`)), EVAL_TIMEOUT_MS);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Evaluates source text in a page, retrying transient failures but not a hung page. */
async function evaluate(page: Page, source: string, attempts = 5): Promise<unknown> {
  for (let i = 1; ; i++) {
    try {
      return await withTimeout(page.evaluate(source), 'A page evaluation');
    } catch (error) {
      // Firefox BiDi can fail an evaluate while a tab switches process; it passes on a retry.
      if (i >= attempts || error instanceof EvalTimeout) throw error;
      await sleep(100);
    }
  }
}

/** page.evaluate for a self-contained function with one JSON argument (see NAME_SHIM). */
export function evalIn<A, T>(page: Page, fn: (arg: A) => T, arg: A): Promise<Awaited<T>> {
  const source = `(() => { ${NAME_SHIM} return (${fn.toString()})(${JSON.stringify(arg ?? null)}); })()`;
  return evaluate(page, source) as Promise<Awaited<T>>;
}

/** A test-support Sidebar (so the e2e flows work as they are) that reaches the panel through the host. */
export function sidebarViaHost(host: Page): Sidebar {
  return new Sidebar((source) =>
    evaluate(
      host,
      `(() => { ${NAME_SHIM}
        const __SIDEBAR__ = ${FIND_SIDEBAR};
        if (!__SIDEBAR__) throw new Error('sidebar closed');
        return ${source};
      })()`,
    ),
  );
}

/**
 * Makes the host tab the visible one. In Firefox the extension's own welcome tab (opened on
 * install) ends up in front of the harness's; a hidden page's timers are throttled to 1 s, which
 * would blind the cold-open probe.
 */
export async function showHost(host: Page): Promise<void> {
  if ((await evalIn(host, () => document.visibilityState, null)) === 'visible') return;
  await host.bringToFront();
  for (let i = 0; i < 40 && (await evalIn(host, () => document.visibilityState, null)) !== 'visible'; i++) await sleep(50);
}

/** Whether any sidebar document is alive (a closed panel can linger a moment before it is destroyed). */
export function sidebarIsOpen(host: Page): Promise<boolean> {
  return evaluate(host, `(() => Boolean(${FIND_SIDEBAR}))()`) as Promise<boolean>;
}
