/**
 * Frames: same-origin and cross-origin iframes appear in the snapshot with frame-prefixed refs,
 * actions reach into them, and a hidden iframe shows nothing. The page's reader reads what a frame
 * from the page's own site shows, and the user's selection in it, and what web components draw.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { browsersUnderTest, type JawadBrowser } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { runTool } from './support/run-tool';

type Data = Record<string, unknown> & { text?: string; refs?: Array<{ ref: string; testid?: string }> };
const tool = (jawad: JawadBrowser, name: string, parameters: Record<string, unknown> = {}) => runTool<Data>(jawad, name, parameters);

/** The state line a frame renders, read through puppeteer's own view of that frame. */
async function frameState(page: Page, name: string): Promise<string> {
  const frame = page.frames().find((f) => f.url().includes(`name=${name}`));
  if (!frame) throw new Error(`No frame ${name}`);
  return frame.$eval('#state', (el) => el.textContent ?? '');
}

/** The store finder, once each of its frames shows its marker. */
async function openStoreFinder(jawad: JawadBrowser, url: string): Promise<Page> {
  const page = await jawad.openTab(`${url}/frames.html`);
  await page.waitForFunction(() => Array.from(document.querySelectorAll('iframe')).every((f) => f.src), { timeout: 5000 });
  const sources = await page.$$eval('iframe', (frames) => frames.map((frame) => frame.src));
  await Promise.all(sources.map(async (source) => {
    const frame = await page.waitForFrame((candidate) => candidate.url() === source, { timeout: 5000 });
    await frame.waitForFunction(() => document.readyState === 'complete' && document.body.textContent?.includes('FRAMEMARK'), { timeout: 5000 });
  }));
  return page;
}

/** The reading room with its article frame shown as `how` says, once the article has loaded. */
async function openFramedArticle(jawad: JawadBrowser, url: string, how: string): Promise<Page> {
  const page = await jawad.openTab(`${url}/framed-article.html?frame=${how}`);
  const frame = await page.waitForFrame((candidate) => candidate.url().endsWith('/article.html'), { timeout: 5000 });
  await frame.waitForFunction(() => document.readyState === 'complete', { timeout: 5000 });
  return page;
}

async function readPage(jawad: JawadBrowser): Promise<{ markdown: string; selection?: string }> {
  const read = await runTool<{ markdown: string; selection?: string }>(jawad, 'read_page', {});
  expect(read.success, JSON.stringify(read.error)).toBe(true);
  return read.data!;
}

for (const browserName of browsersUnderTest()) {
  describe(`frames in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('snapshots same- and cross-origin frames with frame refs, acts inside them, and leaves hidden frames out', async () => {
      const { jawad, fixtures } = suite;
      const page = await openStoreFinder(jawad, fixtures.url);

      const snapshot = await tool(jawad, 'snapshot');
      expect(snapshot.success, JSON.stringify(snapshot.error)).toBe(true);
      const { text = '', refs = [] } = snapshot.data!;
      expect(text).toContain('FRAMEMARK-same');
      expect(text).toContain('FRAMEMARK-cross');
      expect(text).not.toContain('FRAMEMARK-hidden');
      expect(text).toMatch(/- iframe "Opening hours" \[frame=t\d+\]\n {2}FRAMEMARK-same/);
      const childButtons = refs.filter((r) => r.testid === 'child-button');
      expect(childButtons).toHaveLength(2);
      for (const ref of childButtons) expect(ref.ref).toMatch(/^f\d+e\d+$/);
      expect(refs.find((r) => r.testid === 'top-button')?.ref).toMatch(/^e\d+$/);

      const [sameButton, crossButton] = childButtons;
      const crossInput = refs.filter((r) => r.testid === 'child-input')[1]!;
      expect((await tool(jawad, 'click', { ref: crossButton!.ref })).success).toBe(true);
      expect((await tool(jawad, 'fill', { ref: crossInput.ref, text: 'BS1 4DJ' })).data).toMatchObject({ value: 'BS1 4DJ' });
      expect(await frameState(page, 'cross')).toBe('clicked=true; postcode=BS1 4DJ');
      expect(await frameState(page, 'same')).toBe('clicked=false; postcode=');
      expect((await tool(jawad, 'click', { ref: sameButton!.ref })).success).toBe(true);
      expect(await frameState(page, 'same')).toContain('clicked=true');
    });

    it('reads the article a frame from the page’s own site shows, and the passage selected in it', async () => {
      const { jawad, fixtures } = suite;
      const page = await openFramedArticle(jawad, fixtures.url, 'same');
      const article = page.frames().find((frame) => frame.url().endsWith('/article.html'))!;
      await article.evaluate(() => getSelection()!.selectAllChildren(document.querySelector('article p:nth-of-type(2)')!));

      const { markdown, selection } = await readPage(jawad);
      expect(markdown).toContain('The Severn Estuary has the second-highest tidal range in the world');
      expect(markdown).toContain('## The objections');
      expect(markdown).not.toMatch(/HIDDEN-/); // the frame's own hidden text stays out as the page's would
      expect(selection).toMatch(/^The Severn Estuary has the second-highest tidal range in the world.*electricity\.$/);
    });

    it('reads no article from a frame that is hidden, of no size, or from another site', async () => {
      const { jawad, fixtures } = suite;
      for (const how of ['hidden', 'tiny', 'cross']) {
        await openFramedArticle(jawad, fixtures.url, how);
        const { markdown } = await readPage(jawad);
        expect(markdown, how).toContain('Library');
        expect(markdown, how).not.toContain('Severn');
      }
    });

    it('reads the text a page’s web components draw from their shadow roots, open and closed, with the page’s own text in their slots, and none of what they hide', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/web-components-article.html`);
      const { markdown } = await readPage(jawad);
      expect(markdown).toContain('Tidal lagoons enclose a part of the shore instead of damming the whole estuary');
      expect(markdown).toContain('predicted output of about five hundred gigawatt hours a year');
      // The light paragraph stands where its slot is: after the shadow root's own paragraphs.
      expect(markdown).toMatch(/offshore wind by the time the government reviewed it in 2018\.\s+The light paragraph the article's default slot shows/);
      expect(markdown).toContain('By Morwenna Price · 2 April 2026');
      expect(markdown).toContain('Fact: the Severn');
      expect(markdown).toContain('Teaser: a lagoon generates on both tides.');
      for (const hidden of ['UNSLOTTED', 'SHADOW-HIDDEN', 'SHADOW-CLIPPED', 'SHADOW-IN-CLIPPED']) expect(markdown).not.toContain(hidden);
    });

    it('gives the text and HTML web components draw to get, on the page and on a component, with slotted text in place and none of what they hide', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/web-components-article.html`);
      const get = async (parameters: Record<string, unknown>) => {
        const result = await runTool<{ result: string }>(jawad, 'get', parameters);
        expect(result.success, JSON.stringify(result.error)).toBe(true);
        return result.data!.result;
      };
      const page = await get({ what: 'text' });
      expect(page).toMatch(/^Lagoons before barrages\n+By Morwenna Price · 2 April 2026\n/);
      expect(page).toContain('Tidal lagoons enclose a part of the shore');
      expect(page).toMatch(/in 2018\.\n+The light paragraph the article's default slot shows/);
      expect(page).toContain("Fact: the Severn's tidal range");
      expect(page).toContain('Teaser: a lagoon generates on both tides.');
      expect(page).toContain('Filed under estuaries and energy.');
      for (const hidden of ['UNSLOTTED', 'SHADOW-HIDDEN', 'SHADOW-CLIPPED', 'SHADOW-IN-CLIPPED']) expect(page).not.toContain(hidden);

      const html = await get({ selector: 'news-article', what: 'html' });
      expect(html).toMatch(/<h1><span>Lagoons before barrages<\/span><\/h1>/);
      expect(html).toContain('<p>Fact: the Severn');
      for (const hidden of ['UNSLOTTED', 'SHADOW-HIDDEN', 'SHADOW-CLIPPED', 'SHADOW-IN-CLIPPED', '<style', '<slot']) expect(html).not.toContain(hidden);
    });

    it('shows a frame the page adds after a snapshot that had none, and acts inside it', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/plain.html`);
      const before = await tool(jawad, 'snapshot');
      expect(before.success, JSON.stringify(before.error)).toBe(true);
      expect(before.data!.text).not.toContain('[frame=');

      await page.evaluate(() => {
        const frame = document.createElement('iframe');
        frame.src = 'frame-child.html?name=late';
        frame.title = 'Late widget';
        frame.width = '420';
        frame.height = '160';
        document.body.append(frame);
      });
      const frame = await page.waitForFrame((candidate) => candidate.url().includes('name=late'), { timeout: 5000 });
      await frame.waitForFunction(() => document.readyState === 'complete' && document.body.textContent?.includes('FRAMEMARK'), { timeout: 5000 });

      const after = await tool(jawad, 'snapshot');
      expect(after.success, JSON.stringify(after.error)).toBe(true);
      expect(after.data!.text).toMatch(/- iframe "Late widget" \[frame=t\d+\]\n {2}FRAMEMARK-late/);
      const button = after.data!.refs!.find((r) => r.testid === 'child-button');
      expect(button?.ref).toMatch(/^f\d+e\d+$/);
      expect((await tool(jawad, 'click', { ref: button!.ref })).success).toBe(true);
      expect(await frameState(page, 'late')).toBe('clicked=true; postcode=');
    });
  });
}
