/**
 * The baseline agent of `npm run bench:agent`: the same scripted model, the same system prompt and
 * tool list Jawad sent it, but every page is read with Playwright's AI snapshot
 * (`page.ariaSnapshot({ mode: 'ai' })`, what Playwright MCP gives agents) and every action is done
 * by Playwright on its `aria-ref` locators — a minimal Playwright-MCP-style loop in Node.
 */
import type { Dialog, Frame, Locator, Page, Request } from 'playwright-core';
import { DEFAULT_WAIT_SECONDS, dialogNotes, waitNote, type PageDialog } from '../../src/protocol';
import type { RecordedRequest, Reply, Responder } from '../../test/support/provider-server';

export interface BaselineOutcome {
  answer: string;
  steps: number;
  /** Every request the model received (to count its tokens). */
  requests: string[];
  /** The last snapshot the model read (to see why a task failed). */
  lastSnapshot: string;
  error?: string;
}

interface Call {
  id: string;
  name: string;
  arguments: string;
}

const MAX_STEPS = 30;
/**
 * A real model answers a tool result in a second or more, so it never reads a page the moment an
 * action ended. The scripted model answers at once; played as is, the baseline read pages that
 * load their content by script after their load event (Roundcube's message list, right after
 * logging in) before that content came — which failed a different one of its tasks from run to
 * run, and says nothing about its snapshot. Jawad waits for such requests itself
 * (request-watch.ts), so its side is played without the pause.
 */
const MODEL_ANSWER_MS = 1_000;
const ACTION_TIMEOUT_MS = 10_000;

function request(body: unknown): RecordedRequest {
  const text = JSON.stringify(body);
  return { method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, rawBody: Buffer.from(text), json: body, at: Date.now() };
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load', { timeout: ACTION_TIMEOUT_MS }).catch(() => undefined);
}

/** As long as Jawad waits for the requests an action set off (src/background/tools/request-watch.ts). */
const REQUESTS_MS = 5_000;
/** Time for the page's script to show what came back, once the answers are in. */
const AFTER_ANSWERS_MS = 500;

/**
 * Runs an action and waits, as Playwright MCP's tools do, for the requests it set off (XHR,
 * fetch) to finish, then a moment for the page to show them: without it, an app that loads its
 * views by script (phpMyAdmin) would be read at "Loading…", which is the harness's fault, not the
 * snapshot's.
 */
async function withRequests<T>(page: Page, action: () => Promise<T>): Promise<T> {
  const pending = new Set<Request>();
  let seen = false;
  let navigationAsked = false;
  let navigated = false;
  let idle: () => void = () => undefined;
  const onRequest = (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigationAsked = true;
    if (request.resourceType() !== 'fetch' && request.resourceType() !== 'xhr') return;
    pending.add(request);
    seen = true;
  };
  const onDone = (request: Request) => {
    if (pending.delete(request) && pending.size === 0) idle();
  };
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame()) navigated = true;
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  page.on('framenavigated', onNavigated);
  try {
    const result = await action();
    // A page the action opens by script (a dropdown that sends its form) is waited for until it is
    // there, as Playwright MCP's tools wait for the navigation an action started (framenavigated).
    if (navigationAsked && !navigated) await page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: ACTION_TIMEOUT_MS }).catch(() => undefined);
    if (pending.size > 0) {
      await new Promise<void>((done) => {
        idle = done;
        setTimeout(done, REQUESTS_MS);
      });
    }
    if (seen) await page.waitForTimeout(AFTER_ANSWERS_MS);
    return result;
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
    page.off('framenavigated', onNavigated);
  }
}

/**
 * A snapshot told to wait, done as Playwright MCP's browser_wait_for does (getByText, the first
 * match visible or hidden), its outcome told with Jawad's own note so the same scripted model reads
 * both.
 */
async function waitAsPlaywrightMcp(page: Page, args: Record<string, string>): Promise<string> {
  const { waitForText: text, waitForTextGone: gone } = args;
  if (!text && !gone) return '';
  const started = Date.now();
  const timeout = 1000 * Number(args.waitSeconds ?? DEFAULT_WAIT_SECONDS);
  let met = true;
  try {
    if (gone) await page.getByText(gone).first().waitFor({ state: 'hidden', timeout });
    if (text) await page.getByText(text).first().waitFor({ state: 'visible', timeout });
  } catch {
    met = false;
  }
  return `${waitNote({ ...(text ? { text } : {}), ...(gone ? { gone } : {}), met, ms: Date.now() - started })}\n`;
}

/**
 * The page's own dialog boxes on a click, answered as Playwright MCP has a model do with
 * browser_handle_dialog (accept, or dismiss), and told with Jawad's own note so the same scripted
 * model reads both.
 */
async function answeringDialogs(page: Page, accept: boolean, act: () => Promise<void>): Promise<string> {
  const dialogs: PageDialog[] = [];
  const onDialog = (dialog: Dialog) => {
    const kind = dialog.type() === 'alert' || dialog.type() === 'prompt' ? dialog.type() : 'confirm';
    dialogs.push({ kind: kind as PageDialog['kind'], message: dialog.message(), answered: kind === 'alert' ? 'ok' : accept ? 'accept' : 'cancel' });
    void (accept ? dialog.accept() : dialog.dismiss());
  };
  page.on('dialog', onDialog);
  try {
    await act();
  } finally {
    page.off('dialog', onDialog);
  }
  return dialogNotes({ dialogs }).map((note) => `\n${note}`).join('');
}

/** One tool call on the page; the text the model reads back. */
async function runTool(page: Page, call: Call): Promise<string> {
  const args = JSON.parse(call.arguments || '{}') as Record<string, string>;
  const target = (): Locator => page.locator(`aria-ref=${args.ref}`);
  switch (call.name) {
    case 'snapshot': {
      const waited = await waitAsPlaywrightMcp(page, args);
      return `Page: ${await page.title()} (${page.url()})\n${waited}${await page.ariaSnapshot({ mode: 'ai' })}`;
    }
    case 'read_page':
      return page.locator('body').innerText();
    case 'click': {
      const asked = await answeringDialogs(page, Boolean(args.acceptDialog), async () => {
        await withRequests(page, () => target().click({ timeout: ACTION_TIMEOUT_MS }));
        await settle(page);
      });
      return `Clicked ${args.ref}; now at ${page.url()}${asked}`;
    }
    case 'fill':
      await target().fill(args.text ?? '', { timeout: ACTION_TIMEOUT_MS });
      return `Filled ${args.ref}`;
    case 'select_option':
      await withRequests(page, () => target().selectOption({ label: args.option ?? '' }, { timeout: ACTION_TIMEOUT_MS }));
      await settle(page);
      // Like Playwright MCP's tools, which give the page's address after every action.
      return `Selected ${args.option}; now at ${page.url()}`;
    case 'check':
      await target().check({ timeout: ACTION_TIMEOUT_MS });
      return `Checked ${args.ref}`;
    case 'hover':
      await target().hover({ timeout: ACTION_TIMEOUT_MS });
      return `Hovered ${args.ref}`;
    case 'press_key':
      await withRequests(page, () => target().press(args.keys ?? '', { timeout: ACTION_TIMEOUT_MS }));
      await settle(page);
      return `Pressed ${args.keys}; now at ${page.url()}`;
    case 'open_url':
      await page.goto(args.url ?? '');
      return `Opened ${page.url()}`;
    case 'get':
      return JSON.stringify({ result: await target().inputValue({ timeout: ACTION_TIMEOUT_MS }) });
    default:
      throw new Error(`the baseline has no tool ${call.name}`);
  }
}

function replyCalls(reply: Reply | undefined): Call[] | string {
  if (reply?.kind === 'openai-tool-stream') return reply.calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments }));
  if (reply?.kind === 'openai-stream') return reply.chunks.join('');
  throw new Error(`unexpected model reply ${reply?.kind ?? 'none'}`);
}

/**
 * Plays `model` on `page` for `task`, with Jawad's own system prompt and tool list (`preamble`:
 * the messages before the user's, and the tools, from Jawad's first request for this task).
 */
export async function runBaselineTask(start: Page, model: Responder, task: string, preamble: { system: unknown[]; tools: unknown }): Promise<BaselineOutcome> {
  const messages: unknown[] = [...preamble.system, { role: 'user', content: task }];
  // A tab the page opens (a notebook the file tree opens in a tab of its own) is where the
  // browser goes on, as Jawad does: the next step acts in it.
  let page = start;
  const follow = (opened: Page) => (page = opened);
  start.context().on('page', follow);
  const requests: string[] = [];
  let steps = 0;
  let lastSnapshot = '';
  try {
    for (;;) {
      const body = { model: 'test-model', stream: true, messages, tools: preamble.tools };
      requests.push(JSON.stringify({ messages, tools: preamble.tools }));
      const reply = model(request(body));
      const outcome = replyCalls(reply);
      // Before a snapshot, as long as a real model takes to answer (see MODEL_ANSWER_MS).
      const reads = typeof outcome !== 'string' && outcome.some((call) => call.name === 'snapshot');
      if (reads) await new Promise((done) => setTimeout(done, MODEL_ANSWER_MS));
      if (typeof outcome === 'string') return { answer: outcome, steps, requests, lastSnapshot };
      if (++steps > MAX_STEPS) throw new Error('step limit');
      messages.push({ role: 'assistant', content: null, tool_calls: outcome.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) });
      for (const call of outcome) {
        const content = await runTool(page, call).catch((error: unknown) => `Error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
        if (call.name === 'snapshot') lastSnapshot = content;
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      }
    }
  } catch (error) {
    return { answer: '', steps, requests, lastSnapshot, error: error instanceof Error ? error.message.split('\n')[0] : String(error) };
  } finally {
    start.context().off('page', follow);
  }
}
