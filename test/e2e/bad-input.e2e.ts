/**
 * Pages and requests that try to break the page tools (test/fixtures/bad/): a huge DOM, a deeply
 * nested one, an endless feed, a mutation storm, a frame that never loads, elements that vanish
 * mid-action or are re-rendered, and parameters of the wrong type. Each ends in an answer (or a
 * clear error) within its time limit, never in a click on the wrong element, and the page still
 * responds afterwards.
 */
import type { Dialog, Page } from 'puppeteer-core';
import { describe, expect, it, vi } from 'vitest';
import { browsersUnderTest, sleep, type JawadBrowser } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { runTool, snapshotText } from './support/run-tool';
import { freePort } from '../support/ports';

interface Ref {
  ref: string;
  role: string;
  name: string;
  testid?: string;
}
type Data = Record<string, unknown> & { text?: string; refs?: Ref[]; partial?: boolean; elementCount?: number };
const tool = (jawad: JawadBrowser, name: string, parameters: Record<string, unknown> = {}) => runTool<Data>(jawad, name, parameters);

/** What the registry's time budget may add around the walk itself: injection and messaging. */
const SLACK_MS = 700;
/** A frame that does not answer is given up on after this long (src/background/tools/snapshot.ts). */
const FRAME_TIMEOUT_MS = 3_000;

/** A hung page cannot run even a trivial script: this fails if the page does not answer within a second. */
async function expectResponsive(page: Page): Promise<void> {
  const started = Date.now();
  const answer = await Promise.race([page.evaluate(() => 6 * 7), sleep(1_000).then(() => 'no answer')]);
  expect(answer, 'the page answers a script').toBe(42);
  expect(Date.now() - started).toBeLessThan(1_000);
}

/**
 * Opens a page that never finishes loading. (page.goto waits for every frame to reach the event it
 * is told to wait for, so it would wait for ever here.)
 */
async function openLoadingTab(jawad: JawadBrowser, url: string): Promise<Page> {
  const page = await jawad.browser.newPage();
  await page.bringToFront();
  await page.evaluate((target) => {
    location.href = target;
  }, url);
  await page.waitForFunction((target) => location.href === target && document.readyState !== 'loading', {}, url);
  return page;
}

function refOf(data: Data | undefined, testid: string): string {
  const ref = data?.refs?.find((r) => r.testid === testid)?.ref;
  if (!ref) throw new Error(`No ref for ${testid} in ${data?.text ?? 'no snapshot'}`);
  return ref;
}

const pageState = (page: Page) => page.$eval('#state', (el) => JSON.parse(el.textContent ?? '{}') as Record<string, number>);

for (const browserName of browsersUnderTest()) {
  describe(`bad input in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    const open = (file: string) => suite.jawad.openTab(`${suite.fixtures.url}/bad/${file}`);

    it('snapshots 100,000 elements within the time budget, says it is partial, and still lists the first controls', async () => {
      const page = await open('huge.html');
      expect(Number(await page.$eval('body', (body) => body.dataset.elements))).toBeGreaterThan(100_000);
      for (const timeBudgetMs of [300, 800]) {
        const snapshot = await tool(suite.jawad, 'snapshot', { timeBudgetMs });
        expect(snapshot.success, JSON.stringify(snapshot.error)).toBe(true);
        expect(snapshot.duration, `a ${timeBudgetMs} ms budget`).toBeLessThanOrEqual(timeBudgetMs + SLACK_MS);
        expect(snapshot.data).toMatchObject({ partial: true });
        expect(snapshot.data!.text).toContain('partial snapshot');
        expect(snapshot.data!.refs!.slice(0, 2).map((r) => r.testid)).toEqual(['first-button', 'first-link']);
      }
      await expectResponsive(page);
    });

    it('walks a DOM nested 5,000 levels deep without overflowing the stack, and carries on after it', async () => {
      const page = await open('deep.html');
      // Chromium computes styles of display: contents elements from their ancestors, so this walk is
      // slow (most of a second here); with the most time it may take, it gets to the end.
      const snapshot = await tool(suite.jawad, 'snapshot', { timeBudgetMs: 10_000 });
      expect(snapshot.success, JSON.stringify(snapshot.error)).toBe(true);
      const testids = snapshot.data!.refs!.map((r) => r.testid);
      expect(testids.filter((id) => id !== 'deepest-inline')).toEqual(['before-deep', 'deepest-wrapped', 'after-deep']);
      // Firefox stops laying out inline boxes a few hundred levels down: the button 5,000 spans
      // deep is listed exactly when the browser shows it.
      const inlineShown = await page.$eval('[data-testid=deepest-inline]', (el) => el.getBoundingClientRect().width > 1);
      expect(testids.includes('deepest-inline')).toBe(inlineShown);
      const read = await tool(suite.jawad, 'read_page');
      expect(read.success, JSON.stringify(read.error)).toBe(true);
      expect(read.data!.markdown).toContain('Before the deep part');
      expect(read.data!.markdown, 'text inside display: contents wrappers is read').toContain('Deep in the wrappers');
      // read_page lists refs under the default time budget: the same refs, as far as it got.
      expect(snapshot.data!.refs).toEqual(expect.arrayContaining(read.data!.interactiveElements as Ref[]));
      expect((read.data!.interactiveElements as Ref[])[0]?.testid).toBe('before-deep');
      await expectResponsive(page);
    });

    it('snapshots an endless feed, scrolls it, and snapshots again without running after it', async () => {
      const page = await open('infinite-scroll.html');
      const first = await tool(suite.jawad, 'snapshot');
      expect(first.success, JSON.stringify(first.error)).toBe(true);
      expect(first.data!.text).toContain('Like post 0');
      const postsBefore = Number(await page.$eval('body', (body) => body.dataset.posts));
      for (let i = 0; i < 4; i++) {
        const posts = Number(await page.$eval('body', (body) => body.dataset.posts));
        const scrolled = await tool(suite.jawad, 'scroll', { direction: 'bottom' });
        expect(scrolled.success, JSON.stringify(scrolled.error)).toBe(true);
        // The feed loads more when its end comes into view.
        await page.waitForFunction((before) => Number(document.body.dataset.posts) > before, { timeout: 5_000 }, posts);
        // The feed's observer sees its end leave the view only when the page renders the new posts.
        // Scrolled again before that, the end never left the view as far as the page knows, and it
        // loads nothing more (as it would for a person): the next scroll waits for that rendering.
        await page.evaluate(() => new Promise((rendered) => requestAnimationFrame(() => requestAnimationFrame(rendered))));
      }
      const postsAfter = Number(await page.$eval('body', (body) => body.dataset.posts));
      expect(postsAfter, 'the feed kept loading as it was scrolled').toBeGreaterThan(postsBefore);
      const second = await tool(suite.jawad, 'snapshot');
      expect(second.success, JSON.stringify(second.error)).toBe(true);
      expect(second.data!.text).toContain(`Like post ${postsAfter - 1}`);
      // The snapshot itself does not scroll, so it does not make the feed grow.
      expect(Number(await page.$eval('body', (body) => body.dataset.posts))).toBe(postsAfter);
      await expectResponsive(page);
    });

    it('snapshots and acts on a page in a mutation storm: stable refs still work, churned ones are STALE_REF', async () => {
      const page = await open('mutating.html');
      const first = await tool(suite.jawad, 'snapshot');
      expect(first.success, JSON.stringify(first.error)).toBe(true);
      const churned = first.data!.refs!.find((r) => r.name.startsWith('Quote'));
      expect(churned, 'the storm’s buttons are listed').toBeDefined();
      const second = await tool(suite.jawad, 'snapshot');
      expect(second.success, JSON.stringify(second.error)).toBe(true);
      expect(refOf(second.data, 'stable')).toBe(refOf(first.data, 'stable'));
      expect((await tool(suite.jawad, 'click', { ref: refOf(second.data, 'stable') })).success).toBe(true);
      expect(await page.$eval('#clicks', (el) => el.textContent)).toBe('clicks=1');
      await page.waitForFunction((name) => !Array.from(document.querySelectorAll('#storm button')).some((button) => button.textContent === name), { timeout: 5_000 }, churned!.name);
      const stale = await tool(suite.jawad, 'click', { ref: churned!.ref });
      expect(stale.error?.code).toBe('STALE_REF');
      const mutations = Number(await page.$eval('#mutations', (el) => el.textContent));
      // The page's own scripts still run.
      await page.waitForFunction((before) => Number(document.getElementById('mutations')?.textContent) > before, { timeout: 5_000 }, mutations);
      await expectResponsive(page);
    });

    it('does not wait for a frame that never loads, and says so where the frame is', async () => {
      const page = await openLoadingTab(suite.jawad, `${suite.fixtures.url}/bad/never-loads.html`);
      const started = Date.now();
      const snapshot = await tool(suite.jawad, 'snapshot');
      expect(snapshot.success, JSON.stringify(snapshot.error)).toBe(true);
      expect(Date.now() - started).toBeLessThan(FRAME_TIMEOUT_MS + 3_000);
      expect(snapshot.data!.text).toMatch(/- iframe "Payment widget" \[frame=t\d+\]\n {2}- note: this frame did not answer/);
      expect(snapshot.data!.refs!.map((r) => r.testid)).toEqual(expect.arrayContaining(['pay', 'help']));
      await expectResponsive(page);
    });

    it('opens a page whose frame never loads, in the tab and in a new one, without waiting out the tool, and says it is still loading', async () => {
      const { jawad, fixtures } = suite;
      // Asked for right after the tab loaded its page: the page being left must not count as the new one.
      await jawad.openTab(`${fixtures.url}/plain.html`);
      const neverLoads = `${fixtures.url}/bad/never-loads.html`;
      const opened = await tool(jawad, 'open_url', { url: neverLoads });
      expect(opened.success, JSON.stringify(opened.error)).toBe(true);
      expect(opened.data).toMatchObject({ url: neverLoads, title: 'Page with a frame that never loads', stillLoading: true });
      // What is there can be used.
      const snapshot = await tool(jawad, 'snapshot');
      expect((await tool(jawad, 'click', { ref: refOf(snapshot.data, 'pay') })).success).toBe(true);

      const inNewTab = await tool(jawad, 'new_tab', { url: neverLoads });
      expect(inNewTab.success, JSON.stringify(inNewTab.error)).toBe(true);
      expect(inNewTab.data).toMatchObject({ url: neverLoads, stillLoading: true });
      expect((await tool(jawad, 'close_tab', { tabId: inNewTab.data?.id })).success).toBe(true);
    });

    it('says at once that a page holding unsaved changes kept the tab — a link clicked, a button whose script leaves, a form its script sends a moment later, a reload, an address opened — leaves its “Leave page?” box to the user, and loses nothing typed', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/bad/unsaved-note.html`);
      const boxes: Dialog[] = [];
      page.on('dialog', (box) => void boxes.push(box));
      // The user typed the note themselves: the page now asks before it is left.
      await page.click('#note');
      await page.keyboard.type('Ferry at 7:40');
      const refs = (await tool(jawad, 'snapshot')).data?.refs ?? [];
      const refNamed = (name: string) => refs.find((ref) => ref.name === name)?.ref;
      const plain = `${fixtures.url}/plain.html`;
      const steps = [
        ['click', { ref: refNamed('Tide tables') }, 'stay'],
        ['click', { ref: refNamed('Show the tide tables') }, 'stay'],
        ['click', { ref: refNamed('Share the tide tables') }, 'stay'],
        ['reload_tab', {}, 'stay'],
        ['open_url', { url: plain }, 'leave'],
      ] as const;
      for (const [index, [name, parameters, answer]] of steps.entries()) {
        const started = Date.now();
        const reply = await tool(jawad, name, parameters);
        expect(reply.error?.code, `${name} ${index}: ${JSON.stringify(reply)}`).toBe('EXECUTION_ERROR');
        expect(reply.error?.message).toMatch(/did not let the tab leave it: it is most likely asking the user whether to leave/);
        // Not the 8 s a page that never loads is given, nor the 15 s of the tool.
        expect(Date.now() - started, `${name} ${index}`).toBeLessThan(4_000);
        // The box is the user's to answer, and still there.
        await vi.waitFor(() => expect(boxes.map((box) => box.type())).toEqual(steps.slice(0, index + 1).map(() => 'beforeunload')));
        if (answer === 'stay') {
          await boxes.at(-1)!.dismiss();
          expect(await page.$eval('#note', (note) => (note as HTMLTextAreaElement).value)).toBe('Ferry at 7:40');
        } else {
          // The user chose to leave: the browser goes on to the page asked for.
          await boxes.at(-1)!.accept();
          await page.waitForFunction((url) => location.href === url && document.readyState === 'complete', {}, plain);
          expect(await snapshotText(jawad)).toContain('High water at Avonmouth');
        }
      }
    });

    it('says a page that could not be loaded could not, and why, in the tab and in a new one, and what a read there cannot do', async () => {
      const { jawad, fixtures } = suite;
      // A port nothing listens on: the connection is refused.
      const nowhere = `http://127.0.0.1:${await freePort()}/orders`;
      // A link there: the click leads to the browser's error page, and says so.
      const page = await jawad.openTab(`${fixtures.url}/plain.html`);
      await page.evaluate((href) => document.body.append(Object.assign(document.createElement('a'), { href, textContent: 'Open orders' })), nowhere);
      const clicked = await tool(jawad, 'click', { ref: (await tool(jawad, 'snapshot')).data?.refs?.find((ref) => ref.name === 'Open orders')?.ref });
      expect(clicked.success, JSON.stringify(clicked.error)).toBe(true);
      expect(clicked.data, JSON.stringify(clicked.data)).toMatchObject({ navigatedTo: nowhere, navigationFailed: expect.stringMatching(/^the server refused the connection/) });

      await tool(jawad, 'go_back');
      const opened = await tool(jawad, 'open_url', { url: nowhere });
      expect(opened.success, JSON.stringify(opened.data)).toBe(false);
      expect(opened.error).toMatchObject({ code: 'EXECUTION_ERROR', details: { url: nowhere, error: expect.stringMatching(/CONNECTION_REFUSED/) } });
      expect(opened.error?.message).toContain(`${nowhere} could not be loaded: the server refused the connection`);
      // The browser's error page: not a "protected page" in Chromium, which says which it is.
      const read = await tool(jawad, 'snapshot');
      expect(read.error?.code).toBe('PAGE_UNREADABLE');
      expect(read.error?.message).toContain('error page');

      const inNewTab = await tool(jawad, 'new_tab', { url: nowhere });
      expect(inNewTab.success).toBe(false);
      expect(inNewTab.error?.message).toMatch(/could not be loaded: the server refused the connection .* Tab \d+ shows the browser's error page\./);
      const tabs = (await tool(jawad, 'list_tabs')).data as unknown as Array<{ id: number; url: string }>;
      const errorTab = tabs.filter((tab) => tab.url === nowhere).at(-1);
      expect(errorTab).toBeDefined();
      expect((await tool(jawad, 'close_tab', { tabId: errorTab!.id })).success).toBe(true);
    });

    it('acts on a page whose frame never loads without waiting for the page to finish loading', async () => {
      const page = await openLoadingTab(suite.jawad, `${suite.fixtures.url}/bad/never-loads.html`);
      const snapshot = await tool(suite.jawad, 'snapshot');
      const started = Date.now();
      const clicked = await tool(suite.jawad, 'click', { ref: refOf(snapshot.data, 'pay') });
      expect(clicked.success, JSON.stringify(clicked.error)).toBe(true);
      expect(Date.now() - started).toBeLessThan(3_000);
      await expectResponsive(page);
    });

    it('refuses a click when the element vanishes as it is pressed or scrolled to, never clicking what took its place', async () => {
      const page = await open('removed-mid-action.html');
      const snapshot = await tool(suite.jawad, 'snapshot');
      expect(snapshot.success, JSON.stringify(snapshot.error)).toBe(true);

      const pressed = await tool(suite.jawad, 'click', { ref: refOf(snapshot.data, 'vanish-on-press') });
      expect(pressed.success).toBe(false);
      expect(['STALE_REF', 'NOT_VISIBLE']).toContain(pressed.error?.code);
      const scrolledTo = await tool(suite.jawad, 'click', { ref: refOf(snapshot.data, 'vanish-on-scroll') });
      expect(scrolledTo.success).toBe(false);
      expect(['STALE_REF', 'NOT_VISIBLE']).toContain(scrolledTo.error?.code);
      expect(await pageState(page)).toMatchObject({ decoyClicks: 0, vanishClicks: 0 });
      await expectResponsive(page);
    });

    it('answers a ref from before a re-render with STALE_REF, and the new snapshot’s ref works', async () => {
      const page = await open('removed-mid-action.html');
      const before = await tool(suite.jawad, 'snapshot');
      const oldItem = refOf(before.data, 'item');
      expect((await tool(suite.jawad, 'click', { ref: refOf(before.data, 'rerender') })).success).toBe(true);
      const stale = await tool(suite.jawad, 'click', { ref: oldItem });
      expect(stale.error?.code).toBe('STALE_REF');
      expect(await pageState(page)).toMatchObject({ itemClicks: 0 });
      const after = await tool(suite.jawad, 'snapshot');
      const newItem = refOf(after.data, 'item');
      expect(newItem).not.toBe(oldItem);
      expect((await tool(suite.jawad, 'click', { ref: newItem })).success).toBe(true);
      expect(await pageState(page)).toMatchObject({ itemClicks: 1 });
    });

    it('answers parameters of the wrong type with VALIDATION_ERROR naming each parameter', async () => {
      const page = await open('removed-mid-action.html');
      const cases: Array<[string, Record<string, unknown>, string[]]> = [
        ['snapshot', { maxRefs: 'lots', timeBudgetMs: -1 }, ['maxRefs', 'timeBudgetMs']],
        ['click', { ref: 42 }, ['ref']],
        ['fill', { ref: 'e1', text: 5 }, ['text']],
        ['scroll', { direction: 'sideways', amount: '10' }, ['direction', 'amount']],
        ['highlight', { refs: 'e1' }, ['refs']],
        ['read_page', { maxChars: [1] }, ['maxChars']],
      ];
      for (const [name, parameters, named] of cases) {
        const reply = await tool(suite.jawad, name, parameters);
        expect(reply.error?.code, name).toBe('VALIDATION_ERROR');
        const details = reply.error?.details as Array<{ parameter: string }>;
        expect(details.map((d) => d.parameter).sort(), name).toEqual([...named].sort());
      }
      expect(await pageState(page)).toMatchObject({ decoyClicks: 0, vanishClicks: 0, itemClicks: 0 });
      await expectResponsive(page);
    });
  });
}
