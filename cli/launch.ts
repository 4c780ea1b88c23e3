/**
 * Launches real Chromium or real Firefox with the built extension, opens the real side panel /
 * sidebar from the welcome page (a genuine click, as the APIs require a user gesture), and gives
 * a handle to drive the sidebar document. Used by the headless runner and by the E2E tests.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer-core';
import type { Browser as ExtensionApi } from 'webextension-polyfill';

export type BrowserName = 'chromium' | 'firefox';

/** The checkout: the build folders and the npm scripts that make them live here. */
export const PROJECT_ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/lib/firefox-esr/firefox-esr';
const GECKO_ID = 'jawad@jawad.dev';
const FIREFOX_UUID = '5a1d0c3e-7a2b-4c1d-9e8f-00000000a7d0';

/** Which browsers to run: JAWAD_BROWSERS=chromium,firefox (default both). */
export function browsersUnderTest(): BrowserName[] {
  const wanted = (process.env.JAWAD_BROWSERS ?? 'chromium,firefox').split(',').map((s) => s.trim());
  return (['chromium', 'firefox'] as const).filter((name) => wanted.includes(name));
}

/**
 * Chromium's sandbox cannot start as root, so root (containers, CI) gets --no-sandbox; every other
 * user keeps the sandbox. Where there are no uids (Windows) process.getuid is undefined: no flag.
 */
export function sandboxFlags(uid: number | undefined = process.getuid?.()): string[] {
  return uid === 0 ? ['--no-sandbox'] : [];
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A window plus the page globals a test function may touch. */
export type SidebarWindow = Window & typeof globalThis;

/**
 * The sidebar document. Test functions are sent as source text and run inside the sidebar, so they
 * must be self-contained (no closures over test variables — pass what they need as `arg`).
 */
export class Sidebar {
  constructor(private readonly run: (source: string) => Promise<unknown>) {}

  eval<A, T>(fn: (win: SidebarWindow, arg: A) => T, arg: A): Promise<Awaited<T>> {
    // A DOM node does not survive serialisation (BiDi turns it into undefined): report it as true.
    const call = `(${fn.toString()})(__SIDEBAR__, ${JSON.stringify(arg ?? null)})`;
    return this.run(`((value) => (value && typeof value === 'object' && 'nodeType' in value ? true : value))(${call})`) as Promise<Awaited<T>>;
  }

  /** Polls until fn returns something truthy; fails with the last value seen. */
  async waitFor<A, T>(fn: (win: SidebarWindow, arg: A) => T, arg: A, what: string, timeoutMs = 10_000): Promise<Awaited<T>> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    for (;;) {
      try {
        last = await this.eval(fn, arg);
        if (last) return last as Awaited<T>;
      } catch (error) {
        last = error;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last: ${String(last instanceof Error ? last.message : JSON.stringify(last))}`);
      await sleep(50);
    }
  }

  text(selector: string): Promise<string> {
    return this.eval((win, sel) => Array.from(win.document.querySelectorAll(sel)).map((e) => (e as HTMLElement).innerText).join('\n'), selector);
  }

  /** Clicks the element matching selector (and containing text, if given). */
  async click(selector: string, text?: string): Promise<void> {
    const clicked = await this.eval((win, { sel, txt }) => {
      const element = Array.from(win.document.querySelectorAll<HTMLElement>(sel)).find((e) => !txt || e.innerText.includes(txt));
      element?.click();
      return Boolean(element);
    }, { sel: selector, txt: text ?? '' });
    if (!clicked) throw new Error(`No element ${selector}${text ? ` with text "${text}"` : ''} in the sidebar`);
  }

  /** Sets a field's value the way typing does (input + change events), so Preact state follows. */
  async fill(selector: string, value: string): Promise<void> {
    const found = await this.eval((win, { sel, val }) => {
      const field = win.document.querySelector(sel) as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null;
      if (!field) return false;
      field.focus();
      field.value = val;
      field.dispatchEvent(new win.Event('input', { bubbles: true }));
      field.dispatchEvent(new win.Event('change', { bubbles: true }));
      return true;
    }, { sel: selector, val: value });
    if (!found) throw new Error(`No field ${selector} in the sidebar`);
  }

  async pressEnter(selector: string): Promise<void> {
    await this.eval((win, sel) => {
      win.document.querySelector(sel)?.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    }, selector);
  }
}

export interface JawadBrowser {
  name: BrowserName;
  browser: Browser;
  /** The extension's base URL, ending in '/'. */
  baseUrl: string;
  /** The id other extensions and web pages would address it by (runtime.sendMessage(id, …)). */
  extensionId: string;
  /** The welcome page tab: an extension page the tests use as a foothold. */
  host: Page;
  sidebar: Sidebar;
  /** Opens a web page in a new tab and makes it the active tab. */
  openTab(url: string): Promise<Page>;
  /** Stops the background as the browser does when idle; the next event starts a fresh one. */
  stopBackground(): Promise<void>;
  /** The profile folder the browser runs on: the one it was given, else one made for this launch and removed by close. */
  profileDir: string;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** Firefox: unload the idle event page after this many ms (default: Firefox's 30 s). */
  firefoxIdleTimeoutMs?: number;
  /** Reuse a profile (to test persistence across browser restarts). */
  profileDir?: string;
  /** Extra Chromium command-line switches (fake microphone, …). */
  chromiumArgs?: string[];
  /** Extra Firefox preferences (fake media, permission defaults, …). */
  firefoxPrefs?: Record<string, unknown>;
  /** Show the browser window (default: headless). */
  headed?: boolean;
  /** The build folder holding chrome/ and firefox/ (default: JAWAD_DIST, else dist). */
  distRoot?: string;
}

export function newProfileDir(): string {
  return mkdtempSync(join(tmpdir(), 'jawad-profile-'));
}

/** JAWAD_DIST: the folder `npm run build` wrote to when it was given one (see vite.config.ts). */
export function buildRoot(): string {
  return resolve(PROJECT_ROOT, process.env.JAWAD_DIST ?? 'dist');
}

/** Where one browser's build of the extension lives. */
export function buildDirFor(name: BrowserName, distRoot = buildRoot()): string {
  return resolve(distRoot, name === 'chromium' ? 'chrome' : 'firefox');
}

export function hasBuild(name: BrowserName, distRoot = buildRoot()): boolean {
  return existsSync(join(buildDirFor(name, distRoot), 'manifest.json'));
}

/** Builds the extension for this browser when its build folder is empty (the runner, the demo). */
export async function ensureBuild(browser: BrowserName, progress: (line: string) => void): Promise<void> {
  if (hasBuild(browser)) return;
  const script = browser === 'chromium' ? 'build:chrome' : 'build:firefox';
  progress(`No build at ${buildDirFor(browser)}: running npm run ${script} (once)…`);
  const code = await new Promise<number | null>((done, fail) => {
    // The build's own output goes to stderr: stdout stays the caller's (the runner's JSON lines).
    const child = spawn('npm', ['run', script], { cwd: PROJECT_ROOT, stdio: ['ignore', 2, 2], env: process.env });
    child.on('error', fail);
    child.on('exit', done);
  });
  if (code !== 0 || !hasBuild(browser)) {
    throw new Error(`Building the extension failed. Build it yourself with \`npm run ${script}\` in ${PROJECT_ROOT} (JAWAD_DIST=folder to build elsewhere), then try again.`);
  }
}

export async function launchJawad(name: BrowserName, options: LaunchOptions = {}): Promise<JawadBrowser> {
  const dist = buildDirFor(name, options.distRoot);
  if (!hasBuild(name, options.distRoot)) throw new Error(`No build at ${dist}: run npm run build first`);
  return name === 'chromium' ? launchChromium(dist, options) : launchFirefox(dist, options);
}

async function openTab(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  try {
    await page.goto(url, { waitUntil: 'load' });
  } catch (error) {
    if (!(await loadedAnyway(page, url))) throw error;
  }
  await page.bringToFront();
  return page;
}

const LOADED_ANYWAY_MS = 5_000;
/** How long a launch waits for the welcome tab Jawad opens on install (in Firefox, every launch). */
const WELCOME_TAB_MS = 30_000;

/**
 * Firefox's WebDriver BiDi fails a navigation when something the page does while loading is refused
 * ("Address rejected": a frame or a script sent to a port browsers bar), though the page itself
 * loads. The tab counts as opened when, within a few seconds, it shows the very page asked for,
 * loaded, and not an error page (Firefox's is the browser's document under the page's address,
 * which never finishes loading; Chromium's has an address of its own): one is answered at once.
 */
async function loadedAnyway(page: Page, url: string): Promise<boolean> {
  const expected = new URL(url).href;
  const shown = await page
    .waitForFunction(
      (asked: string) => {
        const errorPage = location.protocol === 'chrome-error:' || document.documentURI !== location.href;
        return errorPage || (location.href === asked && document.readyState === 'complete') ? document.documentURI : '';
      },
      { timeout: LOADED_ANYWAY_MS },
      expected,
    )
    .then(async (handle): Promise<string> => handle.jsonValue())
    .catch(() => undefined);
  return shown === expected;
}

interface WorkerVersion {
  versionId: string;
  runningStatus: string;
  scriptURL: string;
}

/** Set on a running Firefox background page's window, to see it go. */
const BACKGROUND_MARK = '__jawadStopMark';

/** Polls `condition` until it holds; throws `failure` after `timeoutMs`. */
async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, failure: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(failure);
    await sleep(50);
  }
}

export async function retry<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (error) {
      // Firefox BiDi can fail an evaluate while a tab switches process; it passes on a retry.
      if (i >= attempts) throw error;
      await sleep(100);
    }
  }
}

/** Chromium's id for an unpacked extension: SHA-256 of its absolute path, hex digits mapped to a–p. */
function unpackedExtensionId(path: string): string {
  const hex = createHash('sha256').update(path).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + parseInt(digit, 16))).join('');
}

/**
 * A profile made for one launch goes with it: every test, bench and `jawad run` left one in the
 * temp folder (~6 MB each for Chromium). `fresh`: one Jawad was never installed in (an empty
 * folder), where it opens its welcome tab as it starts.
 */
function profileFor(options: LaunchOptions): { dir: string; fresh: boolean; removeOnClose: () => void } {
  if (options.profileDir) return { dir: options.profileDir, fresh: readdirSync(options.profileDir).length === 0, removeOnClose: () => undefined };
  const dir = newProfileDir();
  return { dir, fresh: true, removeOnClose: () => rmSync(dir, { recursive: true, force: true }) };
}

async function launchChromium(dist: string, options: LaunchOptions): Promise<JawadBrowser> {
  const profile = profileFor(options);
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    // Puppeteer pauses every target it attaches to until it resumes it, and does not resume a
    // service worker that restarts under the same target id: the restarted background would hang
    // in "starting". Tests never need the worker as a target, so puppeteer leaves it alone.
    targetFilter: (target) => target.type() !== 'service_worker',
    headless: !options.headed,
    pipe: true,
    ignoreDefaultArgs: ['--disable-extensions'],
    userDataDir: profile.dir,
    defaultViewport: { width: 1280, height: 800 },
    args: [
      ...(options.headed ? [] : ['--headless=new']), ...sandboxFlags(), '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic',
      `--load-extension=${dist}`, `--disable-extensions-except=${dist}`,
      ...(options.chromiumArgs ?? []),
    ],
  });
  const extensionId = unpackedExtensionId(dist);
  const baseUrl = `chrome-extension://${extensionId}/`;
  const welcomeUrl = `${baseUrl}src/welcome/index.html`;
  // A fresh profile gets the welcome tab from onInstalled; a reused one does not, and a tab that
  // puppeteer navigates to an extension page loses its target when Chromium swaps its process.
  // So wait for the extension's own tab (however late it comes on a fresh profile: opened after the
  // test's first page, it would be the active tab the tools act on), else have a tab of ours open it.
  const opened = await browser.waitForTarget((t) => t.url() === welcomeUrl, { timeout: profile.fresh ? WELCOME_TAB_MS : 3_000 }).catch(() => undefined);
  if (!opened) {
    const page = await browser.newPage();
    await page.goto(welcomeUrl).catch(() => undefined);
  }
  const host = (await (await browser.waitForTarget((t) => t.url() === welcomeUrl)).asPage())!;
  await host.waitForSelector('#open-panel');
  await host.click('#open-panel');
  const panelTarget = await browser.waitForTarget((t) => t.url() === `${baseUrl}src/sidebar/index.html`, { timeout: 10_000 });
  const panel = await panelTarget.asPage();
  await panel.waitForSelector('.app');
  const sidebar = new Sidebar((source) => panel.evaluate(source.replace('__SIDEBAR__', 'window')));
  let cdp: CDPSession | undefined;

  return {
    name: 'chromium',
    browser,
    baseUrl,
    extensionId,
    host,
    sidebar,
    openTab: (url) => openTab(browser, url),
    async stopBackground() {
      cdp ??= await host.createCDPSession();
      const versions = new Map<string, WorkerVersion>();
      // The sidebar may wake a stopped worker at once, under the same version id: a 'stopped'
      // report after our command is what tells the stop happened, not the latest status.
      const stoppedAfterCommand = new Set<string>();
      let commanded = false;
      const onUpdate = (event: { versions: WorkerVersion[] }) => {
        for (const version of event.versions) {
          versions.set(version.versionId, version);
          if (commanded && version.runningStatus === 'stopped') stoppedAfterCommand.add(version.versionId);
        }
      };
      const running = () => [...versions.values()].filter((v) => v.runningStatus === 'running' && v.scriptURL.startsWith(baseUrl)).map((v) => v.versionId);
      cdp.on('ServiceWorker.workerVersionUpdated', onUpdate);
      try {
        await cdp.send('ServiceWorker.enable');
        await until(() => running().length > 0, 5_000, 'No running Jawad service worker to stop');
        const stopping = running();
        commanded = true;
        for (const versionId of stopping) await cdp.send('ServiceWorker.stopWorker', { versionId });
        await until(() => stopping.every((id) => stoppedAfterCommand.has(id)), 10_000, 'Chromium did not stop the Jawad service worker');
      } finally {
        cdp.off('ServiceWorker.workerVersionUpdated', onUpdate);
        await cdp.send('ServiceWorker.disable');
      }
    },
    profileDir: profile.dir,
    close: async () => {
      await browser.close();
      profile.removeOnClose();
    },
  };
}

async function launchFirefox(dist: string, options: LaunchOptions): Promise<JawadBrowser> {
  const profile = profileFor(options);
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: !options.headed,
    args: ['--remote-allow-system-access'],
    userDataDir: profile.dir,
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: FIREFOX_UUID }),
      ...(options.firefoxIdleTimeoutMs ? { 'extensions.background.idle.timeout': options.firefoxIdleTimeoutMs } : {}),
      ...options.firefoxPrefs,
    },
  });
  await browser.installExtension(dist);
  const baseUrl = `moz-extension://${FIREFOX_UUID}/`;
  const welcomeUrl = `${baseUrl}src/welcome/index.html`;
  // The add-on is installed for this session only, so every launch is an install, and Jawad opens
  // its welcome tab: the launch waits for it and drives it (opened after the test's first page, it
  // would be the active tab the tools act on). BiDi reports that tab as about:blank, so each tab is
  // asked where it is.
  const installTab = async () => {
    for (const page of await browser.pages()) {
      if ((await page.evaluate(() => location.href).catch(() => '')) === welcomeUrl) return page;
    }
    return undefined;
  };
  let found: Page | undefined;
  await until(async () => (found = await installTab()) !== undefined, WELCOME_TAB_MS, 'Firefox did not open the welcome tab Jawad opens on install');
  const host = found!;
  const welcomeShown = () => host.evaluate(() => Boolean(document.querySelector('#open-panel'))).catch(() => false);
  await until(welcomeShown, 15_000, 'The welcome page did not load in Firefox');
  await host.click('#open-panel');
  const sidebarWindow = 'browser.extension.getViews({ type: "sidebar" })[0]';
  const sidebar = new Sidebar((source) =>
    retry(() => host.evaluate(`(() => { const __SIDEBAR__ = ${sidebarWindow}; if (!__SIDEBAR__) throw new Error('sidebar closed'); return ${source}; })()`)),
  );
  await sidebar.waitFor((win) => win.document.querySelector('.app'), null, 'the Firefox sidebar');

  return {
    name: 'firefox',
    browser,
    baseUrl,
    extensionId: GECKO_ID,
    host,
    sidebar,
    openTab: (url) => openTab(browser, url),
    async stopBackground() {
      // Firefox has no remote command to stop an event page; the idle timeout does it for real. A
      // mark left in the running background's window tells when that window is gone: once the
      // background page is absent, or a fresh one without the mark, the old one was unloaded.
      const idleMs = options.firefoxIdleTimeoutMs;
      if (!idleMs) throw new Error('Launch Firefox with firefoxIdleTimeoutMs to stop its background');
      const marked = await retry(() => host.evaluate((mark) => {
        const api = (globalThis as unknown as { browser: ExtensionApi }).browser;
        const background = api.extension.getBackgroundPage() as (Window & { [key: string]: unknown }) | null;
        if (background) background[mark] = true;
        return Boolean(background);
      }, BACKGROUND_MARK));
      if (!marked) throw new Error('No running Jawad background page to stop');
      const markGone = () =>
        retry(() => host.evaluate((mark) => {
          const api = (globalThis as unknown as { browser: ExtensionApi }).browser;
          return !(api.extension.getBackgroundPage() as (Window & { [key: string]: unknown }) | null)?.[mark];
        }, BACKGROUND_MARK));
      await until(markGone, idleMs + 15_000, `Firefox did not unload Jawad's idle background within ${idleMs + 15_000} ms`);
    },
    profileDir: profile.dir,
    close: async () => {
      await browser.close();
      profile.removeOnClose();
    },
  };
}
