/** Runs a registry tool the way the sidebar does: EXECUTE_TOOL on the sidebar Port. */
import type { JawadBrowser } from './extension-browser';

export interface ToolReply<D = Record<string, unknown>> {
  toolName: string;
  success: boolean;
  data?: D;
  error?: { code: string; message: string; details?: unknown };
  duration: number;
}

/** Sent from the welcome page (an extension page, so the background accepts its Port). */
export async function runTool<D = Record<string, unknown>>(jawad: JawadBrowser, toolName: string, parameters: Record<string, unknown> = {}): Promise<ToolReply<D>> {
  const reply = await jawad.host.evaluate(async (name, params) => {
    const port = browser.runtime.connect({ name: 'jawad-sidebar' });
    const answer = await new Promise<unknown>((resolve) => {
      port.onMessage.addListener((message: unknown) => resolve(message));
      port.postMessage({ type: 'EXECUTE_TOOL', requestId: 'user-00e2e000', payload: { toolName: name, parameters: params } });
    });
    port.disconnect();
    return answer;
  }, toolName, parameters);
  return (reply as { payload: ToolReply<D> }).payload;
}

/** The snapshot tool's answer; a failed snapshot fails the test with the tool's own error. */
export async function snapshotData<D extends { text: string } = { text: string }>(jawad: JawadBrowser, parameters: Record<string, unknown> = {}): Promise<D> {
  const reply = await runTool<D>(jawad, 'snapshot', parameters);
  if (!reply.success || !reply.data) throw new Error(`The snapshot failed: ${JSON.stringify(reply.error ?? reply)}`);
  return reply.data;
}

/** The snapshot tool's text (snapshotData). */
export async function snapshotText(jawad: JawadBrowser, parameters: Record<string, unknown> = {}): Promise<string> {
  return (await snapshotData(jawad, parameters)).text;
}

/** The markdown read_page gives of the page at `url`, opened in a new tab; a failed read fails the test with the tool's own error. */
export async function readPageAt(jawad: JawadBrowser, url: string): Promise<string> {
  await jawad.openTab(url);
  const reply = await runTool<{ markdown: string }>(jawad, 'read_page', {});
  if (!reply.success || !reply.data) throw new Error(`The read failed: ${JSON.stringify(reply.error ?? reply)}`);
  return reply.data.markdown;
}
