/**
 * The highlight tool on a page whose CSS fights injected overlays (test/fixtures/bad/hostile-styles.html):
 * what a person sees is checked on screenshots (the outlines live in a closed shadow root that
 * neither the page nor the test can look into), what the page can observe is checked in the page.
 */
import type { Frame, Page } from 'puppeteer-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browsersUnderTest, sleep, type JawadBrowser } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { runTool } from './support/run-tool';

interface Ref {
  ref: string;
  testid?: string;
}
type Data = Record<string, unknown> & { refs?: Ref[]; highlighted?: string[]; missing?: string[]; cleared?: boolean };
const tool = (jawad: JawadBrowser, name: string, parameters: Record<string, unknown> = {}) => runTool<Data>(jawad, name, parameters);

/** src/content/highlight.ts's HIGHLIGHT_COLOR, rgb(230, 0, 126). */
const isOutlineColour = ([r, g, b]: number[]) => Math.abs(r! - 230) <= 40 && g! <= 60 && Math.abs(b! - 126) <= 50;

interface Point {
  x: number;
  y: number;
}

/** Where a person sees an element's outline: its left edge (just outside the element) and its label (above it). */
interface Marks {
  edge: Point;
  label: Point;
}

/** The marks around an element, in the page's viewport (a frame's element is offset by its <iframe>). */
async function marksOf(context: Page | Frame, selector: string, offset: Point = { x: 0, y: 0 }): Promise<Marks> {
  const rect = await context.$eval(selector, (el) => {
    const { left, top, height } = el.getBoundingClientRect();
    return { left, top, height };
  });
  const x = offset.x + rect.left - 1;
  return { edge: { x, y: offset.y + rect.top + rect.height / 2 }, label: { x, y: offset.y + rect.top - 9 } };
}

/** Whether each point shows the outline colour (any pixel of the 3×3 around it, against rounding). */
async function outlined(jawad: JawadBrowser, page: Page, points: Point[]): Promise<boolean[]> {
  // The overlay moves its outlines on the next animation frame: wait two, as the page counts them.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const png = (await page.screenshot({ encoding: 'base64' })) as string;
  const viewportWidth = await page.evaluate(() => window.innerWidth);
  const pixels = await jawad.host.evaluate(async (data, at, width) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const scale = image.width / width;
    return at.map(({ x, y }) => {
      const block = context.getImageData(Math.round(x * scale) - 1, Math.round(y * scale) - 1, 3, 3).data;
      return Array.from({ length: 9 }, (_, i) => [block[i * 4]!, block[i * 4 + 1]!, block[i * 4 + 2]!]);
    });
  }, png, points, viewportWidth);
  return pixels.map((block) => block.some(isOutlineColour));
}

/** What the page itself can find of the overlay: elements next to <head> and <body>, and whether their shadow root is open to it. */
function overlayHosts(context: Page | Frame): Promise<Array<{ tag: string; shadowOpen: boolean }>> {
  return context.evaluate(() =>
    Array.from(document.documentElement.children)
      .filter((el) => el !== document.head && el !== document.body)
      .map((el) => ({ tag: el.localName, shadowOpen: el.shadowRoot !== null })),
  );
}

async function waitForNoOverlay(context: Page | Frame): Promise<void> {
  const deadline = Date.now() + 2_000;
  while ((await overlayHosts(context)).length > 0 && Date.now() < deadline) await sleep(50);
  expect(await overlayHosts(context)).toEqual([]);
}

const markup = (context: Page | Frame) => context.evaluate(() => document.documentElement.outerHTML);

for (const browserName of browsersUnderTest()) {
  describe(`highlight in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    let page: Page;
    let frame: Frame;
    let refs: Ref[];
    const refOf = (testid: string) => refs.find((r) => r.testid === testid)!.ref;
    const frameOffset = async (): Promise<Point> => page.$eval('iframe', (el) => ({ x: el.getBoundingClientRect().left + el.clientLeft, y: el.getBoundingClientRect().top + el.clientTop }));
    const marks = async () => ({
      add: await marksOf(page, '#add'),
      save: await marksOf(page, '#save'),
      inFrame: await marksOf(frame, 'button', await frameOffset()),
    });

    beforeEach(async () => {
      page = await suite.jawad.openTab(`${suite.fixtures.url}/bad/hostile-styles.html`);
      await page.waitForFunction(() => document.querySelector('iframe')?.contentDocument?.readyState === 'complete');
      frame = page.frames().find((f) => f.url().includes('name=inside'))!;
      const snapshot = await tool(suite.jawad, 'snapshot');
      expect(snapshot.success, JSON.stringify(snapshot.error)).toBe(true);
      refs = snapshot.data!.refs!;
    });
    afterEach(() => page.close());

    it('outlines every ref of the last snapshot with its label, in a closed overlay the page’s CSS cannot hide', async () => {
      const { add, save, inFrame } = await marks();
      const points = [add.edge, add.label, save.edge, save.label, inFrame.edge, inFrame.label];
      expect(await outlined(suite.jawad, page, points), 'nothing is outlined before').toEqual(points.map(() => false));

      const shown = await tool(suite.jawad, 'highlight');
      expect(shown.success, JSON.stringify(shown.error)).toBe(true);
      expect([...shown.data!.highlighted!].sort()).toEqual(refs.map((r) => r.ref).sort());
      expect(refs.some((r) => /^f\d+e\d+$/.test(r.ref)), 'the frame’s refs are among them').toBe(true);
      expect(shown.data!.missing).toEqual([]);
      expect(await outlined(suite.jawad, page, points)).toEqual(points.map(() => true));
      expect(await overlayHosts(page), 'one host, its shadow root closed to the page').toEqual([{ tag: 'div', shadowOpen: false }]);
    });

    it('lets a person’s click through to the page', async () => {
      await tool(suite.jawad, 'highlight');
      const box = await page.$eval('#add', (el) => el.getBoundingClientRect().toJSON() as DOMRect);
      await page.mouse.click(box.left + box.width / 2, box.top + box.height / 2);
      expect(await page.$eval('#state', (el) => el.textContent)).toBe('added=1');
      expect(await overlayHosts(page), 'the outlines stay up').toHaveLength(1);
    });

    it('follows the page as it scrolls', async () => {
      await tool(suite.jawad, 'highlight', { refs: [refOf('add')] });
      await page.evaluate(() => window.scrollBy(0, 60));
      const moved = await marksOf(page, '#add');
      // 60 px up, the left edge is where neither the outline nor the label was before the scroll.
      expect(await outlined(suite.jawad, page, [moved.edge, moved.label])).toEqual([true, true]);
    });

    it('outlines a frame’s ref inside that frame, and nothing else', async () => {
      const frameRef = refs.find((r) => r.testid === 'child-button' && /^f\d+e\d+$/.test(r.ref))!.ref;
      await tool(suite.jawad, 'highlight');
      const shown = await tool(suite.jawad, 'highlight', { refs: [frameRef] });
      expect(shown.data).toMatchObject({ highlighted: [frameRef], missing: [] });
      const { add, inFrame } = await marks();
      expect(await outlined(suite.jawad, page, [inFrame.edge, add.edge])).toEqual([true, false]);
      expect(await overlayHosts(page), 'the earlier outlines of the page are gone').toEqual([]);
      expect(await overlayHosts(frame)).toHaveLength(1);
    });

    it('clears without a trace, in the page and in its frames', async () => {
      const before = { page: await markup(page), frame: await markup(frame) };
      await tool(suite.jawad, 'highlight');
      expect(await overlayHosts(frame)).toHaveLength(1);
      const cleared = await tool(suite.jawad, 'highlight', { clear: true });
      expect(cleared).toMatchObject({ success: true, data: { cleared: true } });
      expect({ page: await markup(page), frame: await markup(frame) }).toEqual(before);
      const { add, inFrame } = await marks();
      expect(await outlined(suite.jawad, page, [add.edge, inFrame.edge])).toEqual([false, false]);
    });

    it('goes away with the next snapshot, and with the next action in any frame', async () => {
      await tool(suite.jawad, 'highlight');
      expect((await tool(suite.jawad, 'snapshot')).success).toBe(true);
      await waitForNoOverlay(page);
      await waitForNoOverlay(frame);

      await tool(suite.jawad, 'highlight');
      expect(await overlayHosts(frame)).toHaveLength(1);
      expect((await tool(suite.jawad, 'click', { ref: refOf('save') })).success).toBe(true);
      await waitForNoOverlay(page);
      await waitForNoOverlay(frame);
    });

    it('goes away when the page navigates, within the document or away from it', async () => {
      await tool(suite.jawad, 'highlight');
      await page.evaluate(() => {
        location.hash = 'basket';
      });
      await waitForNoOverlay(page);

      await tool(suite.jawad, 'highlight');
      await page.evaluate(() => history.pushState({}, '', '?step=2'));
      await waitForNoOverlay(page);

      await tool(suite.jawad, 'highlight');
      await page.goto(`${suite.fixtures.url}/plain.html`, { waitUntil: 'load' });
      await page.goBack({ waitUntil: 'load' });
      await waitForNoOverlay(page);
    });

    it('says which refs it could not find', async () => {
      const shown = await tool(suite.jawad, 'highlight', { refs: ['e99999', refOf('add')] });
      expect(shown.data).toMatchObject({ highlighted: [refOf('add')], missing: ['e99999'] });
    });
  });
}
