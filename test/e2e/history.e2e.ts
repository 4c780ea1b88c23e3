/**
 * History in real browsers: search an old message and open it, rename and pin, cost per reply and
 * per provider from usage records, export everything and import it into a fresh profile, and a
 * real ChatGPT export.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderServer, type ProviderServer } from '../support/provider-server';
import { browsersUnderTest, type JawadBrowser, type Sidebar } from './support/extension-browser';
import { captureDownloads, downloaded } from './support/downloads';
import { backgroundAsleep, backToChat, connectionState, launchReadyToChat, markAnswersSeen, openView, sendMessage, waitForAnswer } from './support/flows';

/** Firefox unloads an idle background after this long (its own default is 30 s): after the index is saved (5 s). */
const FIREFOX_IDLE_MS = 8_000;
const CHATGPT_EXPORT = readFileSync(new URL('../fixtures/imports/chatgpt-conversations.json', import.meta.url), 'utf8');

async function chat(sidebar: Sidebar, provider: ProviderServer, question: string, answer: string, usage = { prompt_tokens: 20, completion_tokens: 5 }): Promise<void> {
  provider.enqueue({ kind: 'openai-stream', chunks: [answer], usage });
  await sendMessage(sidebar, question);
  await waitForAnswer(sidebar);
}

async function newChat(sidebar: Sidebar): Promise<void> {
  await sidebar.click('.top-bar nav button', 'New chat');
  await sidebar.waitFor((win) => win.document.querySelectorAll('article.message').length === 0, null, 'an empty chat');
}

async function search(sidebar: Sidebar, query: string): Promise<Array<{ title: string; marks: string[] }>> {
  await openView(sidebar, 'History');
  await sidebar.fill('input.history-search', query);
  const found = await sidebar.waitFor(
    (win) => {
      const hits = Array.from(win.document.querySelectorAll('.search-results .search-hit'));
      if (hits.length === 0 && !win.document.querySelector('.history > p.muted')?.textContent?.includes('Nothing found')) return undefined;
      return hits.map((hit) => ({ title: (hit.querySelector('.hit-title') as HTMLElement).innerText, marks: Array.from(hit.querySelectorAll('mark')).map((m) => m.textContent ?? '') }));
    },
    null,
    `results for ${query}`,
  );
  return found ?? [];
}

/** Picks a file in the import field the way the file chooser does. */
async function chooseImportFile(sidebar: Sidebar, name: string, text: string): Promise<void> {
  await sidebar.eval((win, file) => {
    const input = win.document.querySelector('.import-export input[type=file]') as HTMLInputElement;
    const transfer = new win.DataTransfer();
    transfer.items.add(new win.File([file.text], file.name, { type: 'application/json' }));
    input.files = transfer.files;
    input.dispatchEvent(new win.Event('change', { bubbles: true }));
  }, { name, text });
}

function importSummary(sidebar: Sidebar, applied: boolean): Promise<string> {
  return sidebar.waitFor(
    (win, done) => {
      const summary = win.document.querySelector<HTMLElement>(`[data-testid=import-summary][data-applied="${done}"]`);
      return summary?.innerText;
    },
    applied,
    applied ? 'the import to finish' : 'the import preview',
  ).then((text) => text ?? '');
}

/** Waits until the background has saved its search index (IndexedDB, read from the sidebar: same origin). */
function savedSearchIndex(sidebar: Sidebar): Promise<unknown> {
  return sidebar.waitFor(
    (win) =>
      new Promise<boolean>((done) => {
        const open = win.indexedDB.open('jawad');
        open.onerror = () => done(false);
        open.onsuccess = () => {
          const db = open.result;
          const read = db.transaction('searchSnapshot').objectStore('searchSnapshot').get('history');
          read.onsuccess = () => (db.close(), done(read.result !== undefined));
          read.onerror = () => (db.close(), done(false));
        };
      }),
    null,
    'the search index saved',
    20_000,
  );
}

function historyTitles(sidebar: Sidebar): Promise<string[]> {
  return sidebar.eval((win) => Array.from(win.document.querySelectorAll<HTMLElement>('.history-group li .conversation-title')).map((b) => b.childNodes[0]?.textContent ?? ''), null);
}

for (const browserName of browsersUnderTest()) {
  describe(`history in ${browserName}`, () => {
    let provider: ProviderServer;
    let jawad: JawadBrowser;
    let fresh: JawadBrowser | undefined;

    beforeAll(async () => {
      provider = await startProviderServer();
      jawad = await launchReadyToChat(browserName, provider.url);
    });
    afterAll(async () => {
      await jawad?.close();
      await fresh?.close();
      await provider?.close();
    });

    it('finds an old message with its words highlighted and opens the conversation at it', async () => {
      const { sidebar } = jawad;
      await chat(sidebar, provider, 'Where did I leave the blue kettle?', 'In the attic, behind the boxes.');
      await newChat(sidebar);
      await chat(sidebar, provider, 'Plan a picnic', 'Bring sandwiches.');
      await newChat(sidebar);
      await chat(sidebar, provider, 'What is a teapot?', 'A pot for tea.', { prompt_tokens: 200_000, completion_tokens: 10_000 });

      const hits = await search(sidebar, 'blue kett');
      expect(hits).toEqual([{ title: 'Where did I leave the blue kettle?', marks: ['blue', 'kettle'] }]);
      expect(await search(sidebar, 'nothing-like-this')).toEqual([]);

      await search(sidebar, 'attic');
      await sidebar.click('.search-results .search-hit');
      const opened = await sidebar.waitFor(
        (win) => win.document.querySelector<HTMLElement>('article.message.focused .markdown')?.innerText,
        null,
        'the conversation open at the hit',
      );
      expect(opened).toBe('In the attic, behind the boxes.');
    });

    it('finds old and new messages after the background restarts on the saved search index', async () => {
      // Its own browser: Firefox stops an idle background only when launched with a short idle time.
      const restarting = await launchReadyToChat(browserName, provider.url, { firefoxIdleTimeoutMs: FIREFOX_IDLE_MS });
      try {
        const { sidebar } = restarting;
        await chat(sidebar, provider, 'Where did I leave the blue kettle?', 'In the attic, behind the boxes.');
        await newChat(sidebar);
        await chat(sidebar, provider, 'Which shelf holds the copper ladle?', 'The top shelf, left of the sink.');
        // The index is saved a few seconds after the last write; the next background starts from it.
        await savedSearchIndex(sidebar);
        // The History view is open when the browser stops the idle background (opening it asks the background for costs).
        await openView(sidebar, 'History');
        await sidebar.waitFor((win) => win.document.querySelector('section.costs'), null, 'the costs');
        await restarting.stopBackground();
        await backgroundAsleep(sidebar);

        expect(await search(sidebar, 'copper ladle')).toEqual([{ title: 'Which shelf holds the copper ladle?', marks: ['copper', 'ladle'] }]);
        expect(await search(sidebar, 'kettle')).toEqual([{ title: 'Where did I leave the blue kettle?', marks: ['kettle'] }]);
        // The sidebar answered from the saved index itself: the background still sleeps.
        expect(await connectionState(sidebar)).toBe('idle');
        // A write after the restart: the saved copy is read whole and follows it.
        await backToChat(sidebar);
        await newChat(sidebar);
        await chat(sidebar, provider, 'Where is the copper kettle?', 'On the stove.');
        expect((await search(sidebar, 'copper')).map((hit) => hit.title).sort()).toEqual(['Where is the copper kettle?', 'Which shelf holds the copper ladle?']);
      } finally {
        await restarting.close();
      }
    });

    it('renames and pins a conversation, which then leads the list', async () => {
      const { sidebar } = jawad;
      await openView(sidebar, 'History');
      await sidebar.fill('input.history-search', '');
      await sidebar.click('.history-group li button[aria-label^="Rename “Plan a picnic"]');
      await sidebar.fill('form.rename input', 'Picnic on Saturday');
      await sidebar.click('form.rename button[type=submit]');
      await sidebar.waitFor((win) => win.document.querySelector('.history')?.textContent?.includes('Picnic on Saturday'), null, 'the new title');
      await sidebar.click('.history-group li button[aria-label="Pin “Picnic on Saturday”"]');
      const firstGroup = await sidebar.waitFor(
        (win) => {
          const group = win.document.querySelector('.history-group');
          return group?.querySelector('h3')?.textContent === 'Pinned' && group.querySelector('li .conversation-title')?.childNodes[0]?.textContent;
        },
        null,
        'the pinned group',
      );
      expect(firstGroup).toBe('Picnic on Saturday');
    });

    it('shows tokens and cost per reply and per provider from the router’s usage records, at a price the user set', async () => {
      const { sidebar } = jawad;
      await openView(sidebar, 'History');
      await sidebar.waitFor((win) => win.document.querySelector('.costs details'), null, 'the cost section');
      await sidebar.click('.costs details summary');
      await sidebar.fill('.prices input[name=key]', 'custom/test-model');
      await sidebar.fill('.prices input[name=input]', '2.5');
      await sidebar.fill('.prices input[name=output]', '10');
      await sidebar.click('.prices button[type=submit]');
      await sidebar.waitFor((win) => win.document.querySelector('.prices button.link-button'), null, 'the saved price');
      await sidebar.click('.history-group li .conversation-title', 'What is a teapot?');
      // 200k in × $2.50 + 10k out × $10, per million: $0.60.
      const cost = await sidebar.waitFor((win) => win.document.querySelector<HTMLElement>('article.message.assistant [data-testid=reply-cost]')?.innerText, null, 'the reply cost');
      expect(cost).toBe('200.0k in · 10.0k out tokens · $0.600');
      await openView(sidebar, 'History');
      const rows = await sidebar.waitFor((win) => Array.from(win.document.querySelectorAll<HTMLElement>('.costs tr[data-provider]')).map((r) => r.innerText).join('\n'), null, 'the provider rows');
      expect(rows).toContain('$0.600');
    });

    it('exports everything and imports it into a fresh profile, once however often it is imported', async () => {
      await captureDownloads(jawad.sidebar);
      await openView(jawad.sidebar, 'History');
      await jawad.sidebar.click('.import-export button', 'Export everything');
      const archive = await downloaded(jawad.sidebar, /^jawad-archive-.*\.json$/);
      expect(JSON.parse(archive)).toMatchObject({ format: 'jawad-archive', version: 1 });
      expect(archive).not.toContain('apiKey');
      // The sidebar asked for persistent storage: Firefox grants it to an extension with
      // unlimitedStorage; Chromium says no (its docs: unlimitedStorage alone exempts from eviction).
      const persisted = await jawad.sidebar.eval((win) => win.document.querySelector<HTMLElement>('.storage-status')?.dataset.persisted, null);
      expect(persisted).toBe(browserName === 'firefox' ? 'true' : 'false');

      fresh = await launchReadyToChat(browserName, provider.url);
      const { sidebar } = fresh;
      await openView(sidebar, 'History');
      await chooseImportFile(sidebar, 'archive.json', archive);
      const preview = await importSummary(sidebar, false);
      expect(preview).toContain('Jawad archive');
      expect(preview).toContain('conversations: 3 to add');
      expect(preview).toContain('messages: 6 to add');
      expect(preview).toMatch(/usage records: [1-9]\d* to add/);
      expect(await historyTitles(sidebar)).toEqual([]);
      await sidebar.click('.import-summary button', 'Import');
      expect(await importSummary(sidebar, true)).toContain('conversations: 3 added');
      await sidebar.waitFor((win) => win.document.querySelectorAll('.history-group li').length === 3, null, 'three conversations');
      expect(await historyTitles(sidebar)).toEqual(['Picnic on Saturday', 'What is a teapot?', 'Where did I leave the blue kettle?']);
      expect(await search(sidebar, 'kettle')).toEqual([{ title: 'Where did I leave the blue kettle?', marks: ['kettle'] }]);

      await sidebar.fill('input.history-search', '');
      await chooseImportFile(sidebar, 'archive.json', archive);
      expect(await importSummary(sidebar, false)).toContain('everything in it is already here');
    });

    it('says why an export failed, and exports again once the database answers', async () => {
      await captureDownloads(jawad.sidebar);
      await openView(jawad.sidebar, 'History');
      // The database refuses to open, as when the profile's storage is gone.
      await jawad.sidebar.eval((win) => {
        win.indexedDB.open = () => {
          throw new DOMException('The storage is unavailable', 'UnknownError');
        };
      }, null);
      await jawad.sidebar.click('.import-export button', 'Export everything');
      const alert = await jawad.sidebar.waitFor((win) => win.document.querySelector('.import-export [role=alert]')?.textContent, null, 'the export error');
      expect(alert).toContain('The archive could not be made');
      expect(await jawad.sidebar.eval((win) => win.document.querySelector<HTMLButtonElement>('.import-export button')!.disabled, null)).toBe(false);
      await jawad.sidebar.eval((win) => {
        delete (win.indexedDB as { open?: unknown }).open;
      }, null);
      await jawad.sidebar.click('.import-export button', 'Export everything');
      expect(JSON.parse(await downloaded(jawad.sidebar, /^jawad-archive-.*\.json$/))).toMatchObject({ format: 'jawad-archive' });
      expect(await jawad.sidebar.eval((win) => win.document.querySelector('.import-export [role=alert]'), null)).toBeNull();
    });

    it('imports a real ChatGPT export', async () => {
      const { sidebar } = fresh!;
      await sidebar.click('.import-summary button', 'Cancel');
      await chooseImportFile(sidebar, 'conversations.json', CHATGPT_EXPORT);
      expect(await importSummary(sidebar, false)).toContain('ChatGPT export');
      await sidebar.click('.import-summary button', 'Import');
      await importSummary(sidebar, true);
      await sidebar.click('.history-group li .conversation-title', 'How photosynthesis works');
      await backToChat(sidebar);
      await markAnswersSeen(sidebar);
      const texts = await sidebar.waitFor(
        (win) => {
          const all = Array.from(win.document.querySelectorAll<HTMLElement>('article.message .markdown, article.message .user-text')).map((e) => e.innerText);
          return all.length === 10 ? all : undefined;
        },
        null,
        'the imported conversation',
      ) ?? [];
      expect(texts[0]).toBe('Can you explain how photosynthesis works in simple terms?');
      expect(texts[8]).toBe('What about forests?');
    });
  });
}
