import browser from 'webextension-polyfill';
import readerScript from '../content/reader.iife.ts?script';
import { childRequestId, JawadError, parseContentReply, type PageContent } from '../protocol';

const READ_TIMEOUT_MS = 15_000;
const READABLE_URL = /^(https?|file):/i;

async function activeTab(windowId: number | undefined) {
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
 * Reads the main content of the active tab as markdown. The reader is injected only now, on
 * demand, so pages the user never asks about run none of Jawad's code.
 */
export async function readActivePage(requestId: string, windowId?: number, maxChars = 60_000): Promise<PageContent> {
  const tab = await activeTab(windowId);
  if (tab.url && !READABLE_URL.test(tab.url)) {
    throw new JawadError('PAGE_UNREADABLE', `Jawad can’t read browser pages such as ${tab.url.split('/')[0]}// — open a web page and try again.`);
  }
  try {
    await browser.scripting.executeScript({ target: { tabId: tab.id }, files: [readerScript] });
  } catch (error) {
    throw new JawadError('PAGE_UNREADABLE', 'The browser does not let extensions read this page (store pages and some built-in pages are protected).', String(error));
  }
  const request = { type: 'READ_PAGE', requestId: childRequestId(requestId, 'read'), payload: { maxChars } };
  const raw = await withTimeout(browser.tabs.sendMessage(tab.id, request), READ_TIMEOUT_MS, 'The page took too long to read.');
  const reply = parseContentReply(raw);
  if (!reply.ok) throw new JawadError(reply.error.code, reply.error.message, reply.error.details);
  return reply.data;
}
