/**
 * Pages and malformed messages must never reach or crash the privileged background.
 */
import { describe, expect, it } from 'vitest';
import { browsersUnderTest } from './support/extension-browser';
import { backToChat, useReadyJawad, openView, sendMessage, waitForAnswer } from './support/flows';

interface PortProbe {
  replies: Array<{ type: string; requestId: string; payload: { code?: string } }>;
  disconnected: boolean;
}

for (const browserName of browsersUnderTest()) {
  describe(`security in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('ignores everything a web page sends its way, even addressed with its real id', async () => {
      const page = await suite.jawad.openTab(`${suite.fixtures.url}/hostile.html?id=${encodeURIComponent(suite.jawad.extensionId)}`);
      await page.waitForSelector('#result[data-done=true]', { timeout: 10_000 });
      const attempts = JSON.parse((await page.$eval('#result', (el) => el.textContent)) ?? '{}') as Record<string, string>;
      expect(attempts.id).toBe(suite.jawad.extensionId);
      // No API to call at all, or the call turned down: never an answer, never a port left open.
      expect(attempts.sendMessage).toMatch(/^(no-api|refused: )/);
      expect(attempts.connect).toMatch(/^(no-api|refused: )/);
      // Nor did its window messages and events start anything: a chat of the user's own, answered
      // after them, is the only thing that reached the model.
      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['Only you.'] });
      await sendMessage(suite.jawad.sidebar, 'Who is talking to you?');
      expect((await waitForAnswer(suite.jawad.sidebar)).text).toBe('Only you.');
      const sent = suite.provider.requests.map((request) => JSON.stringify(request.json ?? ''));
      expect(sent.some((body) => body.includes('Who is talking to you?'))).toBe(true);
      expect(sent.filter((body) => /exfiltrate|evil\.test/.test(body))).toEqual([]);
      await openView(suite.jawad.sidebar, 'History');
      expect(await suite.jawad.sidebar.text('.history')).not.toContain('exfiltrate');
      await openView(suite.jawad.sidebar, 'Settings');
      expect(await suite.jawad.sidebar.eval((win) => (win.document.querySelector('input[name=baseUrl]') as HTMLInputElement).value, null)).toBe(`${suite.provider.url}/v1`);
      await backToChat(suite.jawad.sidebar);
    });

    it('answers malformed and unknown port messages with structured errors and keeps serving', async () => {
      const probe = await suite.jawad.host.evaluate(async () => {
        const result: PortProbe = { replies: [], disconnected: false };
        const port = browser.runtime.connect({ name: 'jawad-sidebar' });
        port.onMessage.addListener((message: unknown) => result.replies.push(message as PortProbe['replies'][number]));
        port.onDisconnect.addListener(() => (result.disconnected = true));
        const garbage: unknown[] = [
          {},
          'just a string',
          null,
          [1, 2, 3],
          { type: 'DROP_DATABASE', requestId: 'user-00000001', payload: {} },
          { type: 'CHAT_MESSAGE', requestId: 'user-00000002', payload: { content: 42 } },
          { type: 'CHAT_MESSAGE', requestId: 'not a valid id!', payload: { content: 'hi' } },
          { type: 'SAVE_SETTINGS', requestId: 'user-00000003', payload: { provider: 'custom', baseUrl: 'javascript:alert(1)', model: 'x' } },
          { type: 'OPEN_CONVERSATION', requestId: 'user-00000004', payload: { conversationId: 'no-such-conversation' } },
          { type: 'GET_SETTINGS', requestId: 'user-00000005', payload: {} },
        ];
        for (const message of garbage) port.postMessage(message);
        const deadline = Date.now() + 5000;
        while (result.replies.length < garbage.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        port.disconnect();
        return result;
      });
      const codes = probe.replies.filter((r) => r.type === 'ERROR').map((r) => r.payload.code);
      expect(codes.filter((c) => c === 'VALIDATION_ERROR').length).toBe(7);
      expect(codes).toContain('UNKNOWN_MESSAGE_TYPE');
      expect(codes).toContain('NOT_FOUND');
      expect(probe.replies.every((r) => /^[a-z][a-z0-9-]*(:[a-z][a-z0-9-]*)*$/.test(r.requestId))).toBe(true);
      const settings = probe.replies.find((r) => r.type === 'SETTINGS' && r.requestId === 'user-00000005');
      expect(settings, 'the background still answers after the garbage').toBeDefined();
      expect(probe.disconnected).toBe(false);

      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['Still fine.'] });
      await sendMessage(suite.jawad.sidebar, 'Are you ok?');
      expect((await waitForAnswer(suite.jawad.sidebar)).text).toBe('Still fine.');
    });

    it('hangs up on a port that does not present itself as the sidebar', async () => {
      const outcome = await suite.jawad.host.evaluate(async () => {
        const port = browser.runtime.connect({ name: 'something-else' });
        const answers: unknown[] = [];
        let disconnected = false;
        port.onMessage.addListener((m: unknown) => answers.push(m));
        port.onDisconnect.addListener(() => (disconnected = true));
        try {
          port.postMessage({ type: 'GET_SETTINGS', requestId: 'user-00000009', payload: {} });
        } catch {
          // Posting to a port the other side already closed may throw.
        }
        const deadline = Date.now() + 5000;
        while (!disconnected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        return { disconnected, answers: answers.length };
      });
      expect(outcome).toEqual({ disconnected: true, answers: 0 });
    });
  });
}
