import browser from 'webextension-polyfill';
import type * as z from 'zod/mini';
import { JawadError, parseContentReply, validationDetails, type ContentRequest } from '../protocol';

const ANSWER_TIMEOUT_MS = 15_000;
const SCRIPTABLE_URL = /^(https?|file):/i;

export interface TargetTab {
  id: number;
  url: string;
}

export async function activeTab(windowId: number | undefined): Promise<TargetTab> {
  const query = windowId === undefined ? { active: true, lastFocusedWindow: true } : { active: true, windowId };
  const [tab] = await browser.tabs.query(query);
  if (!tab?.id) throw new JawadError('PAGE_UNREADABLE', 'No page is open in this window.');
  return { id: tab.id, url: tab.url ?? '' };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new JawadError('TIMEOUT', message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Injects one of Jawad's on-demand page scripts (only now: pages the user never asks about run
 * none of Jawad's code), sends it a request, and validates the answer against `schema`.
 */
export async function askPageScript<S extends z.ZodMiniType>(tab: TargetTab, file: string, request: ContentRequest, schema: S): Promise<z.infer<S>> {
  if (tab.url && !SCRIPTABLE_URL.test(tab.url)) {
    throw new JawadError('PAGE_UNREADABLE', `Jawad can’t read browser pages such as ${tab.url.split('/')[0]}// — open a web page and try again.`);
  }
  try {
    await browser.scripting.executeScript({ target: { tabId: tab.id }, files: [file] });
  } catch (error) {
    throw new JawadError('PAGE_UNREADABLE', 'The browser does not let extensions read this page (store pages and some built-in pages are protected).', String(error));
  }
  const raw = await withTimeout(browser.tabs.sendMessage(tab.id, request), ANSWER_TIMEOUT_MS, 'The page took too long to answer.');
  const reply = parseContentReply(raw);
  if (!reply.ok) throw new JawadError(reply.error.code, reply.error.message, reply.error.details);
  const data = schema.safeParse(reply.data);
  if (!data.success) throw new JawadError('VALIDATION_ERROR', 'The page script sent a malformed answer.', validationDetails(data.error));
  return data.data;
}
