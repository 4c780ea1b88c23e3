import browser, { type Tabs } from 'webextension-polyfill';
import type * as z from 'zod/mini';
import pageAgentFile from '../content/page-agent.iife.ts?script';
import { PAGE_AGENT_INSTALLED, READER_INSTALLED } from '../content/installed-flags';
import readerFile from '../content/reader.iife.ts?script';
import maskFile from '../content/mask.iife.ts?script';
import dialogOpeningFile from '../content/dialog-opening.iife.ts?script';
import { MASK_INSTALLED } from '../content/mask-tag';
import { installDialogShim } from '../content/dialog-shim';
import { DIALOG_CHANNEL, JawadError, parseContentReply, validationDetails, type ContentRequest } from '../protocol';

const ANSWER_TIMEOUT_MS = 15_000;
const SCRIPTABLE_URL = /^(https?|file):/i;
/** `chrome://`, `about:`: how the model is told which kind of page it met. */
const BROWSER_PAGE_SCHEME = /^[a-z][\w+.-]*:(\/\/)?/i;

export interface TargetTab {
  id: number;
  url: string;
}

/** The active tab of the sidebar's window (or of the last focused window). */
export async function queryActiveTab(windowId: number | undefined): Promise<Tabs.Tab | undefined> {
  const [tab] = await browser.tabs.query(windowId === undefined ? { active: true, lastFocusedWindow: true } : { active: true, windowId });
  return tab;
}

/** A tab as a task knows it: where it is, and which tab opened it. */
export interface TaskTab extends TargetTab {
  windowId: number;
  /** The tab this one was opened from (a link with target=_blank), when the browser knows. */
  openerTabId?: number;
}

export function taskTabOf(tab: Pick<Tabs.Tab, 'id' | 'url' | 'windowId' | 'openerTabId'> | undefined): TaskTab | undefined {
  if (tab?.id === undefined) return undefined;
  return { id: tab.id, url: tab.url ?? '', windowId: tab.windowId ?? -1, ...(tab.openerTabId === undefined ? {} : { openerTabId: tab.openerTabId }) };
}

export async function activeTab(windowId: number | undefined): Promise<TaskTab> {
  const found = await queryActiveTab(windowId);
  const tab = taskTabOf(found && (await withAddress(found)));
  if (!tab) throw new JawadError('PAGE_UNREADABLE', 'No page is open in this window.');
  return tab;
}

/** How long a tab a page opened blank is given to get its address. */
const ADDRESS_WAIT_MS = 10_000;
const isBlank = (url: string | undefined) => !url || url === 'about:blank';

/**
 * A tab a page's script opened blank and sends to its address a moment later, once its own server
 * answers (Jupyter's New notebook: `window.open()`, then `location = …` after the notebook is made),
 * as it is once it has that address: the step waits for it as a person waits for the page to come,
 * up to 10 s. A blank tab the user opened is taken as it is.
 */
async function withAddress(tab: Tabs.Tab): Promise<Tabs.Tab> {
  const { id } = tab;
  if (id === undefined || tab.openerTabId === undefined || !isBlank(tab.url)) return tab;
  // A page wrote into it (a print view, a report): that is its page.
  if (await hasWrittenPage(id)) return tab;
  let listener: ((tabId: number, change: Tabs.OnUpdatedChangeInfoType) => void) | undefined;
  const addressed = new Promise<void>((resolve) => {
    listener = (tabId, change) => {
      if (tabId === id && !isBlank(change.url)) resolve();
    };
    browser.tabs.onUpdated.addListener(listener);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // Read again once listening: the address may have come in between.
    const now = await browser.tabs.get(id).catch(() => undefined);
    if (!now || !isBlank(now.url)) return now ?? tab;
    await Promise.race([addressed, new Promise((resolve) => (timer = setTimeout(resolve, ADDRESS_WAIT_MS)))]);
    return await browser.tabs.get(id).catch(() => tab);
  } finally {
    clearTimeout(timer);
    browser.tabs.onUpdated.removeListener(listener!);
  }
}

/**
 * A blank tab's document holds a page its opener wrote into it (`window.open()` then
 * `document.write`: a print view, a receipt). Such a document has its opener's origin, and both
 * browsers let an extension that may read that origin read it.
 */
async function hasWrittenPage(tabId: number): Promise<boolean> {
  const probe = readInDocument(tabId, () => Boolean(document.body && (document.body.childElementCount > 0 || /\S/.test(document.body.textContent ?? ''))));
  // Chromium never runs a script in a tab's first blank document, which nothing has written into.
  return withTimeout(probe, WRITTEN_PAGE_PROBE_MS, '').then((written) => written === true, () => false);
}

/**
 * What a small self-contained script reads in a frame's document (its type, its readyState);
 * undefined where no script of Jawad's may run, or the frame is gone.
 */
export async function readInDocument<T>(tabId: number, read: () => T, frameId = 0): Promise<T | undefined> {
  try {
    const [answer] = await browser.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, func: read, injectImmediately: true });
    return answer?.result as T | undefined;
  } catch {
    return undefined;
  }
}

/** How long a blank tab's document has to say whether a page was written into it. */
const WRITTEN_PAGE_PROBE_MS = 1_000;

/**
 * The tab a tool acts on: the one its step was judged in (bound by the step gate), else the active
 * tab of the sidebar's window (the tools panel).
 */
export async function contextTab(context: { tabId?: number; tabUrl?: string; windowId?: number }): Promise<TargetTab> {
  if (context.tabId === undefined) return activeTab(context.windowId);
  // Just read by the step gate: a tab closed since then fails the request itself (tabClosed).
  if (context.tabUrl !== undefined) return { id: context.tabId, url: context.tabUrl };
  const tab = await browser.tabs.get(context.tabId).catch(() => undefined);
  if (!tab?.id) throw tabClosed();
  return { id: tab.id, url: tab.url ?? '' };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new JawadError('TIMEOUT', message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface Injection {
  /** Every frame of the tab (the page and its iframes), or these frames only; default: the page. */
  allFrames?: boolean;
  frameIds?: number[];
}

/** An on-demand page script: its built file, and the global it sets once installed. */
export interface PageScript {
  file: string;
  installedFlag: string;
  /** Put in the page's own world of each frame the script goes into, beside it (what only the page's world can do). */
  pageWorld?: { install: (...args: never[]) => void; args: string[] };
}

/** Readability + Turndown: the page as markdown. */
export const READER: PageScript = { file: readerFile, installedFlag: READER_INSTALLED };
/** Snapshot and actions by ref. */
export const PAGE_AGENT: PageScript = { file: pageAgentFile, installedFlag: PAGE_AGENT_INSTALLED, pageWorld: { install: installDialogShim, args: [DIALOG_CHANNEL] } };
/** The overlay over a tab a research step drives. */
export const MASK: PageScript = { file: maskFile, installedFlag: MASK_INSTALLED };
/** Not injected but registered, to run as pages open: the dialog shim for a page an action opens (tools/opened-pages.ts). */
export const DIALOG_SHIM_AS_PAGES_OPEN = dialogOpeningFile;

/**
 * Injects one of Jawad's on-demand page scripts (only now: pages the user never asks about run
 * none of Jawad's code, but for the dialog shim on the sites an action is on, tools/opened-pages.ts),
 * into the frames that do not have it yet — a tiny probe first, so a repeated snapshot does not
 * parse the whole script again. Resolves with the frames it runs in.
 */
export async function injectPageScript(tab: TargetTab, script: PageScript, where: Injection = {}): Promise<number[]> {
  // No address yet is blank too: Chromium reports a new tab's address only once its blank page has come.
  if (isBlank(tab.url)) {
    if (!(await hasWrittenPage(tab.id))) throw new JawadError('PAGE_UNREADABLE', 'This tab is blank (about:blank): there is no page in it to read. Open a web page in it, or switch to the tab you meant.');
  } else if (tab.url && !SCRIPTABLE_URL.test(tab.url)) {
    throw new JawadError('PAGE_UNREADABLE', `Jawad can’t read browser pages such as ${BROWSER_PAGE_SCHEME.exec(tab.url)?.[0] ?? tab.url} — open a web page and try again.`);
  }
  try {
    const target = { tabId: tab.id, ...(where.allFrames ? { allFrames: true } : {}), ...(where.frameIds ? { frameIds: where.frameIds } : {}) };
    // injectImmediately: otherwise the browser waits for every frame to finish loading first, and a
    // frame that never does (a request held open) would hold the tool until its time runs out.
    const probes = await browser.scripting.executeScript({ target, func: (name: string) => name in globalThis, args: [script.installedFlag], injectImmediately: true });
    const missing = probes.filter((probe) => probe.result !== true).map((probe) => probe.frameId);
    if (missing.length > 0) {
      const frames = { tabId: tab.id, frameIds: missing };
      await Promise.all([
        browser.scripting.executeScript({ target: frames, files: [script.file], injectImmediately: true }),
        // Without it the page's own dialog boxes hold the page as before; the script itself still runs.
        script.pageWorld ? inPageWorld(frames, script.pageWorld).catch(() => undefined) : undefined,
      ]);
    }
    return probes.map((probe) => probe.frameId);
  } catch (error) {
    if (isTabGone(error)) throw tabClosed();
    throw new JawadError('PAGE_UNREADABLE', SHOWS_ERROR_PAGE.test(String(error)) ? ERROR_PAGE : PROTECTED_PAGE, String(error));
  }
}

/** The polyfill's types predate `world`; both browsers take it (Firefox since 128). */
function inPageWorld(target: { tabId: number; frameIds: number[] }, { install, args }: NonNullable<PageScript['pageWorld']>): Promise<unknown> {
  const injection = { target, func: install, args, world: 'MAIN', injectImmediately: true } as Parameters<typeof browser.scripting.executeScript>[0];
  return browser.scripting.executeScript(injection);
}

/** What Chromium's executeScript says of a tab showing its error page (Firefox says only that it lacks the permission). */
const SHOWS_ERROR_PAGE = /showing error page/i;
const ERROR_PAGE = 'This tab shows the browser’s error page: its page could not be loaded (no server answered, or no site has that name). Open it again, or another address.';
const PROTECTED_PAGE = 'The browser does not let extensions read this page: a protected page (a store page, a built-in page), the browser’s own error page for an address that could not be loaded, or its PDF viewer (read_page reads a PDF’s text).';

const tabClosed = () => new JawadError('NOT_FOUND', 'The tab this step was judged in has been closed: the step was not run.');
/** What executeScript says of a closed tab — Chromium: "No tab with id: 12."; Firefox: "Invalid tab ID: 12". (sendMessage says only that nothing received it.) */
const isTabGone = (error: unknown) => error instanceof Error && /no tab with id|invalid tab id/i.test(error.message);

/**
 * No script of Jawad's in the frame took the request: none is there (the browser says the receiving
 * end does not exist), or only others are (the mask, the reader), which leave it unanswered. Either
 * way nothing ran, so a request that changes nothing may be sent again once the agent is there.
 */
class Undelivered extends Error {
  constructor() {
    super('Jawad’s page script is not running in that frame.');
  }
}

export function isUndelivered(error: unknown): boolean {
  return error instanceof Undelivered;
}

/** Sends a request to the page script in one frame and validates the answer against `schema`. */
export async function askFrame<S extends z.ZodMiniType>(tab: TargetTab, frameId: number, request: ContentRequest, schema: S, timeoutMs = ANSWER_TIMEOUT_MS): Promise<z.infer<S>> {
  const sent = browser.tabs.sendMessage(tab.id, request, { frameId }).catch((error: unknown) => {
    throw error instanceof Error && /Receiving end does not exist/i.test(error.message) ? new Undelivered() : error;
  });
  const raw = await withTimeout(sent, timeoutMs, 'The page took too long to answer (busy, or held by a dialog box of its own).');
  // What no listener answered comes back undefined (webextension-polyfill makes Chrome do as Firefox does).
  if (raw === undefined) throw new Undelivered();
  const reply = parseContentReply(raw);
  if (!reply.ok) throw new JawadError(reply.error.code, reply.error.message, reply.error.details);
  const data = schema.safeParse(reply.data);
  if (!data.success) throw new JawadError('VALIDATION_ERROR', 'The page script sent a malformed answer.', validationDetails(data.error));
  return data.data;
}

/**
 * Asks the page agent in one frame, putting it there (`inject`, by default into that frame) only
 * when the frame has none. Only for requests that may be sent twice (they change nothing): most go
 * to a frame whose agent answered before, where probing first would cost a round trip each time.
 */
export async function askPageAgent<S extends z.ZodMiniType>(
  tab: TargetTab,
  frameId: number,
  request: ContentRequest,
  schema: S,
  inject: () => Promise<unknown> = () => injectPageScript(tab, PAGE_AGENT, { frameIds: [frameId] }),
): Promise<z.infer<S>> {
  try {
    return await askFrame(tab, frameId, request, schema);
  } catch (error) {
    if (!isUndelivered(error)) throw error;
  }
  await inject();
  return askFrame(tab, frameId, request, schema);
}

/** A frame that has not answered by then (never loaded, hung) is left out, not waited on. */
export const FRAME_TIMEOUT_MS = 3_000;

/**
 * Asks one frame of a tab-wide request (snapshot, highlight). The page itself must answer; a frame
 * that fails or hangs is left out (undefined), so one broken iframe cannot sink the whole call.
 */
export function askFrameOrSkip<S extends z.ZodMiniType>(tab: TargetTab, frameId: number, request: ContentRequest, schema: S): Promise<z.infer<S> | undefined> {
  if (frameId === 0) return askFrame(tab, 0, request, schema);
  return askFrame(tab, frameId, request, schema, FRAME_TIMEOUT_MS).catch(() => undefined);
}

/** Injects into the top frame and asks it: the common case. */
export async function askPageScript<S extends z.ZodMiniType>(tab: TargetTab, script: PageScript, request: ContentRequest, schema: S): Promise<z.infer<S>> {
  await injectPageScript(tab, script);
  return askFrame(tab, 0, request, schema);
}
