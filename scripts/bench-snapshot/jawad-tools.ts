/**
 * Runs one of Jawad's registry tools the way the sidebar does: an EXECUTE_TOOL message on a
 * `jawad-sidebar` Port, sent from the welcome page (an extension page the harness keeps open).
 * The reply's `duration` is the registry's own measure of the tool (validation, injection of the
 * page script, the work in the page, messaging back), taken in the background.
 */
import type { Page } from 'puppeteer-core';
import { evalIn } from '../bench/pages';

export interface ToolReply<T = unknown> {
  success: boolean;
  data?: T;
  error?: { code?: string; message?: string };
  /** Registry time, whole ms (the registry rounds it). */
  duration?: number;
  /** Post on the Port → TOOL_RESULT back, in the welcome page: the registry time plus the Port hops. */
  portMs: number;
}

interface ToolCall {
  /** The tab to act on is the active tab showing this URL; its window goes in the request. */
  url: string;
  requestId: string;
  toolName: string;
  parameters: Record<string, unknown>;
  timeoutMs: number;
}

/** The slice of Chromium's extension API the welcome page uses here. */
interface HostGlobals {
  chrome: {
    tabs: { query(query: { active: boolean }): Promise<Array<{ url?: string; windowId: number }>> };
    runtime: {
      connect(info: { name: string }): {
        postMessage(message: unknown): void;
        onMessage: { addListener(listener: (message: unknown) => void): void };
        disconnect(): void;
      };
    };
  };
}

/** Page code (welcome page). Self-contained: it is sent as source text. */
async function callTool(call: ToolCall): Promise<ToolReply> {
  const { chrome } = globalThis as unknown as HostGlobals;
  const tab = (await chrome.tabs.query({ active: true })).find((t) => t.url === call.url);
  if (!tab) return { success: false, error: { message: `no active tab shows ${call.url}` }, portMs: Number.NaN };
  const port = chrome.runtime.connect({ name: 'jawad-sidebar' });
  try {
    return await new Promise<ToolReply>((resolve) => {
      setTimeout(() => resolve({ success: false, error: { message: `no TOOL_RESULT within ${call.timeoutMs} ms` }, portMs: Number.NaN }), call.timeoutMs);
      let sentAt = 0;
      port.onMessage.addListener((raw) => {
        const message = raw as { type?: string; requestId?: string; payload?: unknown } | null;
        if (message?.requestId !== call.requestId) return;
        const portMs = performance.now() - sentAt;
        if (message.type === 'TOOL_RESULT') resolve({ ...(message.payload as Omit<ToolReply, 'portMs'>), portMs });
        else resolve({ success: false, error: message.payload as ToolReply['error'], portMs });
      });
      sentAt = performance.now();
      port.postMessage({ type: 'EXECUTE_TOOL', requestId: call.requestId, payload: { toolName: call.toolName, parameters: call.parameters, windowId: tab.windowId } });
    });
  } finally {
    port.disconnect();
  }
}

let calls = 0;

/** Runs a tool against the tab showing `url`; throws when the tool fails (no figure to take). */
export async function runTool<T>(host: Page, url: string, toolName: string, parameters: Record<string, unknown> = {}): Promise<ToolReply<T> & { data: T; duration: number }> {
  // Request ids must be request-id chains (protocol/request-id.ts): lowercase link, digits, hyphens.
  const requestId = `user-bench-${++calls}`;
  const reply = await evalIn(host, callTool, { url, requestId, toolName, parameters, timeoutMs: 25_000 });
  if (!reply.success || reply.data === undefined || typeof reply.duration !== 'number') {
    throw new Error(`${toolName} failed: ${reply.error?.code ?? ''} ${reply.error?.message ?? JSON.stringify(reply)}`.trim());
  }
  return reply as ToolReply<T> & { data: T; duration: number };
}
