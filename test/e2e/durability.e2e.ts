/**
 * Chrome stops an idle service worker; Firefox unloads an idle event page. The sidebar must
 * reconnect by itself and nothing typed, stored or streamed may be lost.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { browsersUnderTest, newProfileDir, type JawadBrowser } from './support/extension-browser';
import { startFixtureServer } from '../support/fixture-server';
import type { Reply } from '../support/provider-server';
import { backToChat, configureProvider, markAnswersSeen, messages, openView, sendMessage, useFreshBrowserPerTest, waitForAnswer } from './support/flows';

const FIREFOX_IDLE_MS = 2_000;

async function recordConnectionStates(jawad: JawadBrowser): Promise<void> {
  await jawad.sidebar.eval((win) => {
    const log: string[] = [];
    (win as unknown as { __states: string[] }).__states = log;
    const status = win.document.querySelector('.connection')!;
    new win.MutationObserver(() => log.push(status.getAttribute('data-state') ?? '')).observe(status, { attributes: true });
  }, null);
}

/** Waits until the background's journal (IndexedDB, read from the sidebar: same origin) holds `text`. */
function waitForJournal(jawad: JawadBrowser, text: string): Promise<unknown> {
  return jawad.sidebar.waitFor(
    (win, wanted) =>
      new Promise<boolean>((done) => {
        const open = win.indexedDB.open('jawad');
        open.onerror = () => done(false);
        open.onsuccess = () => {
          const db = open.result;
          const read = db.transaction('messages').objectStore('messages').getAll();
          read.onsuccess = () => {
            db.close();
            done((read.result as Array<{ content?: unknown }>).some((row) => typeof row.content === 'string' && row.content.includes(wanted)));
          };
          read.onerror = () => {
            db.close();
            done(false);
          };
        };
      }),
    text,
    'the partial answer in the journal',
  );
}

const connectionStates = (jawad: JawadBrowser) => jawad.sidebar.eval((win) => (win as unknown as { __states: string[] }).__states, null);

for (const browserName of browsersUnderTest()) {
  describe(`durability in ${browserName}`, () => {
    const suite = useFreshBrowserPerTest(browserName);
    // Shared by the tests that restart the browser on what the one before kept; removed after them.
    const profileDir = newProfileDir();
    afterAll(() => rmSync(profileDir, { recursive: true, force: true }));

    it('reconnects after the background is stopped mid-answer, keeps the partial answer, and retries', async () => {
      const jawad = await suite.launch({ firefoxIdleTimeoutMs: FIREFOX_IDLE_MS, profileDir });
      await configureProvider(jawad.sidebar, { provider: 'custom', baseUrl: `${suite.provider.url}/v1`, model: 'test-model' });
      await backToChat(jawad.sidebar);

      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['Tides are ', 'caused by the Moon.'] });
      await sendMessage(jawad.sidebar, 'What causes tides?');
      expect((await waitForAnswer(jawad.sidebar)).text).toBe('Tides are caused by the Moon.');

      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['Spring tides ', 'happen at ', 'new and full moon.'], stallAfter: 2 });
      await sendMessage(jawad.sidebar, 'And spring tides?');
      await jawad.sidebar.waitFor((win) => win.document.querySelector('article.message.assistant:last-of-type .markdown')?.textContent?.includes('happen at'), null, 'the partial answer');
      await waitForJournal(jawad, 'happen at'); // the background journals a streaming answer every 250 ms
      await recordConnectionStates(jawad);
      await jawad.stopBackground();

      const interrupted = await waitForAnswer(jawad.sidebar, 20_000);
      expect(interrupted.status).toBe('interrupted');
      expect(interrupted.text).toBe('Spring tides happen at');
      expect(interrupted.error).toMatch(/Interrupted/);
      expect(await connectionStates(jawad)).toEqual(expect.arrayContaining(['reconnecting', 'connected']));
      const all = await messages(jawad.sidebar);
      expect(all.map((m) => m.text)).toEqual(['What causes tides?', 'Tides are caused by the Moon.', 'And spring tides?', 'Spring tides happen at']);

      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['Spring tides happen at new and full moon.'] });
      await markAnswersSeen(jawad.sidebar);
      await jawad.sidebar.click('article.message.assistant .message-footer button', 'Retry');
      expect((await waitForAnswer(jawad.sidebar)).text).toBe('Spring tides happen at new and full moon.');
    });

    it('keeps a message typed while the background is gone, and sends it once it is back', async () => {
      const jawad = await suite.launch({ firefoxIdleTimeoutMs: FIREFOX_IDLE_MS, profileDir });
      await jawad.sidebar.waitFor((win) => win.document.querySelector('.connection[data-state="connected"]'), null, 'a connection');
      await jawad.sidebar.fill('#composer-input', 'Typed before the restart');
      await recordConnectionStates(jawad);
      await jawad.stopBackground();
      // Nothing was streaming, so the sidebar lets the background sleep until it is needed.
      await jawad.sidebar.waitFor((win) => (win as unknown as { __states: string[] }).__states.includes('idle'), null, 'the disconnect', 20_000);
      expect(await jawad.sidebar.eval((win) => (win.document.querySelector('#composer-input') as HTMLTextAreaElement).value, null)).toBe('Typed before the restart');

      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['Received.'] });
      await markAnswersSeen(jawad.sidebar);
      await jawad.sidebar.pressEnter('#composer-input');
      expect((await waitForAnswer(jawad.sidebar)).text).toBe('Received.');
      expect(await connectionStates(jawad)).toEqual(['idle', 'reconnecting', 'connected']);
    });

    it('keeps conversations across a browser restart', async () => {
      const jawad = await suite.launch({ profileDir });
      await openView(jawad.sidebar, 'History');
      await jawad.sidebar.waitFor((win) => win.document.querySelectorAll('.history li').length >= 2, null, 'two saved conversations');
      await jawad.sidebar.click('.history .conversation-title', 'What causes tides?');
      await jawad.sidebar.waitFor((win) => win.document.querySelectorAll('article.message').length === 4, null, 'the saved messages');
      const all = await messages(jawad.sidebar);
      expect(all.map((m) => m.text)).toEqual(['What causes tides?', 'Tides are caused by the Moon.', 'And spring tides?', 'Spring tides happen at new and full moon.']);
      expect(all.every((m) => m.status === 'complete')).toBe(true);
    });

    it('never runs a step that was waiting for permission when the background stopped, and asks again on retry', async () => {
      const jawad = await suite.launch({ firefoxIdleTimeoutMs: FIREFOX_IDLE_MS });
      const fixtures = await startFixtureServer();
      try {
        await configureProvider(jawad.sidebar, { provider: 'custom', baseUrl: `${suite.provider.url}/v1`, model: 'test-model' });
        await backToChat(jawad.sidebar);
        const page = await jawad.openTab(`${fixtures.url}/agent-store.html`);
        const placeOrder: Reply = { kind: 'openai-tool-stream', calls: [{ id: 'call_1', name: 'click', arguments: '{"selector":"#place-order"}' }] };
        suite.provider.enqueue(placeOrder);
        await jawad.sidebar.click('[data-testid="agent-toggle"]');
        await sendMessage(jawad.sidebar, 'Buy this jacket');
        await jawad.sidebar.waitFor((win) => win.document.querySelector('[data-testid="permission-prompt"]'), null, 'the permission prompt', 20_000);

        await jawad.stopBackground();
        const interrupted = await waitForAnswer(jawad.sidebar, 20_000);
        expect(interrupted.status).toBe('interrupted');
        await jawad.sidebar.waitFor((win) => win.document.querySelector('[data-testid="action-step"][data-status="interrupted"]'), null, 'the step marked interrupted', 20_000);
        expect(await jawad.sidebar.eval((win) => win.document.querySelector('[data-testid="permission-prompt"]') === null, null)).toBe(true);
        expect(await page.$eval('[data-testid="order-state"]', (el) => el.textContent)).toBe('No order yet.');

        // Retry runs the task again: the submit is asked about again, never replayed on its own.
        suite.provider.enqueue(placeOrder, { kind: 'openai-stream', chunks: ['You declined the order.'] });
        await markAnswersSeen(jawad.sidebar);
        await jawad.sidebar.click('article.message.assistant .message-footer button', 'Retry');
        await jawad.sidebar.waitFor((win) => win.document.querySelector('[data-testid="permission-prompt"][data-critical="true"]'), null, 'a new prompt', 20_000);
        await jawad.sidebar.click('[data-testid="decision-deny"]');
        expect((await waitForAnswer(jawad.sidebar, 20_000)).text).toContain('You declined the order.');
        expect(await page.$eval('[data-testid="order-state"]', (el) => el.textContent)).toBe('No order yet.');
      } finally {
        await fixtures.close();
      }
    });
  });
}
