/**
 * Real sites' pages (captures from Postlight's and trafilatura's test suites, test/fixtures/real-sites).
 * Blocks holding text beside other blocks, as blog engines and wikis write them: the snapshot must
 * read such text in the order the page shows it, keep words apart where a `<br>` or an element
 * stood between them, and put each link where it stands in its sentence. Links whose text is what
 * the page says (lyrics, citations): their names whole, and a focusable article's text said once.
 * Links with no name: where they go. Icon buttons: what their icons say. A click under a cookie
 * banner: refused, with the banner's button that accepts it.
 */
import { describe, expect, it } from 'vitest';
import { findRef } from '../support/scripted-model';
import { browsersUnderTest, type JawadBrowser } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { runTool } from './support/run-tool';

async function snapshotOf(jawad: JawadBrowser, url: string): Promise<string[]> {
  await jawad.openTab(url);
  const reply = await runTool<{ text: string }>(jawad, 'snapshot');
  expect(reply.success, JSON.stringify(reply.error)).toBe(true);
  return reply.data!.text.split('\n');
}

/** The line that `start` begins, with refs written as ref=eN. */
function lineStarting(lines: string[], start: string): string {
  const line = lines.find((candidate) => candidate.startsWith(start));
  expect(line, `a line starting “${start}” in:\n${lines.join('\n')}`).toBeDefined();
  return line!;
}

for (const browserName of browsersUnderTest()) {
  describe(`text beside blocks on real sites in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    const page = (name: string) => `${suite.fixtures.url}/real-sites/${name}.html`;

    it('keeps a Blogger post’s links inside its sentences (blog.python.org)', async () => {
      const lines = await snapshotOf(suite.jawad, page('trafilatura--blog.python.org'));
      expect(lineStarting(lines, 'Python 3.6.0 is now available!')).toMatch(
        /See \[link "the What’s New In Python 3\.6 document" ref=e\d+\] for more information\. You can download Python 3\.6\.0 \[link "here" ref=e\d+\]\. /,
      );
      expect(lines).toContainEqual(expect.stringMatching(/^Posted by Ned Deily at \[link "5:11 AM" ref=e\d+\]$/));
      expect(findRef(lines.join('\n'), 'link', 'the What’s New In Python 3.6 document')).toBeDefined();
    });

    // In Firefox, WebDriver BiDi reports this capture's navigation failed ("Address rejected": its
    // scripts send something to the dead port while it loads); the page loads all the same, and
    // openTab takes it (cli/launch.ts, loadedAnyway).
    it('keeps lines apart at their <br> and in the page’s order (a lyrics blog)', async () => {
      const lines = await snapshotOf(suite.jawad, page('trafilatura--chineselyrics4u.com.zhineng'));
      const lyrics = lineStarting(lines, '* 爱 逝去的爱 讨不回来 Ai shi qu de ai tao bu hui lai');
      expect(lyrics).toContain('Zhi neng xiang nian ni Repeat * Repeat Chorus');
      // The post's text comes after its title and before its footer, as on the page.
      const title = lines.findIndex((line) => line.startsWith('### Zhi Neng Xiang Nian Ni'));
      expect(title).toBeGreaterThan(-1);
      expect(lines.indexOf(lyrics)).toBeGreaterThan(title);
      expect(lines.indexOf(lyrics)).toBeLessThan(lines.findIndex((line) => line.startsWith('Posted by K A at')));
    });

    it('writes a comment’s author, verb and date as one line (a WordPress blog)', async () => {
      const lines = await snapshotOf(suite.jawad, page('trafilatura--modepilot.de.duschkopf'));
      const byline = lines.indexOf('Betina sagt: 23.05.2019 - 09:05');
      expect(byline, lines.join('\n')).toBeGreaterThan(-1);
      expect(lines[byline + 1]).toMatch(/^So cool geschrieben\./);
    });

    it('puts Wikipedia’s “Categories:” label after its link, as the page shows it', async () => {
      const lines = await snapshotOf(suite.jawad, page('trafilatura--en.wikipedia.org.tsne'));
      expect(lines).toContainEqual(expect.stringMatching(/^\[link "Categories" ref=e\d+\]:$/));
    });
  });

  describe(`names and focusable containers on real sites in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    const page = (name: string) => `${suite.fixtures.url}/real-sites/${name}.html`;

    it('gives a link whose text is a line of lyrics its whole name (genius.com)', async () => {
      const lines = await snapshotOf(suite.jawad, page('postlight--genius.com'));
      const text = lines.join('\n');
      expect(text).toMatch(/\[link "I never meant to cause you any sorrow I never meant to cause you any pain I only wanted to one time to see you laughing I only wanted to see you laughing in the purple rain" ref=e\d+\]/);
      // The page's "[Verse 1]" is its words, not one of Jawad's markers.
      expect(text).toMatch(/\[link "\(Verse 1\)" ref=e\d+\]/);
    });

    it('gives a citation link its whole name (clinicaltrials.gov)', async () => {
      const lines = await snapshotOf(suite.jawad, page('postlight--clinicaltrials.gov'));
      expect(lines).toContainEqual(
        expect.stringMatching(/^- link "Bruhn N, Beinert T, Oehm C, Jandrig B, Petersen I, Chen XQ, Possinger K, Fleischhacker M\. Detection of microsatellite alterations in the DNA isolated from tumor cells and from plasma DNA of patients with lung cancer\. Ann N Y Acad Sci\. 2000 Apr;906:72-82\." \[ref=e\d+\]$/),
      );
    });

    it('lists a focusable article (a skip link’s target) by its ref, its text once, as content (theguardian.com)', async () => {
      const lines = await snapshotOf(suite.jawad, page('postlight--www.theguardian.com'));
      const opening = 'Police violence against Standing Rock protesters in';
      const article = lines.findIndex((line) => /^- generic \[ref=e\d+\]$/.test(line) && (lines[lines.indexOf(line) + 1] ?? '').startsWith(opening));
      expect(article, lines.join('\n')).toBeGreaterThan(-1);
      expect(lines.filter((line) => line.includes(opening))).toHaveLength(1);
    });

    it('tells nameless links apart by where they go: social icons and author avatars (ndtv.com, the Stack Overflow blog)', async () => {
      // The fixture server points every other host of a capture at a dead loopback port (127.0.0.1:9),
      // the site's own host becoming the first part of the path: twitter.com/ndtv reads 127.0.0.1:9/twitter.com/ndtv.
      const icons = (await snapshotOf(suite.jawad, page('postlight--www.ndtv.com'))).join('\n');
      // Two of ndtv.com's four social icons draw a sprite symbol with a <title>: that is their name.
      // The other two have none, and say where they go and which icon they draw.
      expect(icons).toMatch(/^- link "twitter" \[ref=e\d+\]$/m);
      expect(icons).toMatch(/^- link "facebook" \[ref=e\d+\]$/m);
      expect(icons).toMatch(/^- link \[ref=e\d+\] url="127\.0\.0\.1:9\/www\.instagram\.com\/ndtv\/" icon="instagram"$/m);
      expect(icons).toMatch(/^- link \[ref=e\d+\] url="127\.0\.0\.1:9\/www\.youtube\.com\/user\/ndtv" icon="youtube"$/m);
      const blog = await snapshotOf(suite.jawad, page('trafilatura--stackoverflow.com.rust'));
      expect(blog).toContainEqual(expect.stringMatching(/^\[link ref=e\d+ url="127\.0\.0\.1:9\/stackoverflow\.blog\/authors\/benpopper\/"\] by \[link "Ben Popper" ref=e\d+\] on September 17, 2019$/));
    });

    it('names icon buttons and links by what their icons say: an SVG <title>, an icon’s aria-label, an empty submit, a sprite’s or an icon font’s glyph (ma.ttias.be, macrumors.com, the GitHub blog, elecom.co.jp, phys.org, reddit.com, npr.org)', async () => {
      // The names Playwright's snapshot gives these buttons too: the browser's accessibility tree has them.
      expect(await snapshotOf(suite.jawad, page('postlight--ma.ttias.be'))).toContain('- button "Menu" [ref=e2]');
      const macrumors = await snapshotOf(suite.jawad, page('postlight--www.macrumors.com'));
      expect(macrumors).toContainEqual(expect.stringMatching(/^- button "Search" \[ref=e\d+\]$/));
      expect(macrumors).toContainEqual(expect.stringMatching(/^- button "Open Sidebar" \[ref=e\d+\]$/));
      const blog = await snapshotOf(suite.jawad, page('trafilatura--github.blog.spiceland'));
      expect(blog).toContainEqual(expect.stringMatching(/^- button "search" \[ref=e\d+\] \[collapsed\]$/));
      const shop = await snapshotOf(suite.jawad, page('postlight--www.elecom.co.jp'));
      expect(shop.filter((line) => /^- button "Submit" \[ref=e\d+\]$/.test(line))).toHaveLength(2);
      // A sprite icon with no title: no name, but the icon's id (phys.org's search toggle and
      // close button; threatpost.com's close and menu links, `href="#"`, so no address).
      const phys = await snapshotOf(suite.jawad, page('trafilatura--phys.org.tool'));
      expect(phys).toContainEqual(expect.stringMatching(/^- button \[ref=e\d+\] icon="search"$/));
      expect(phys).toContainEqual(expect.stringMatching(/^- button \[ref=e\d+\] icon="icon_close"$/));
      const threatpost = await snapshotOf(suite.jawad, page('trafilatura--threatpost.com.android'));
      expect(threatpost).toContainEqual(expect.stringMatching(/^- link \[ref=e\d+\] icon="icon-dots"$/));
      // An icon font's glyph, named by its class: reddit's comment toggles, ebrosia.de's basket
      // buttons; Bootstrap's menu toggle draws bars (the box around them is no glyph).
      const reddit = await snapshotOf(suite.jawad, page('postlight--www.reddit.com--title-only'));
      expect(reddit.filter((line) => /^- button \[ref=e\d+\] icon="icon-expand"$/.test(line)).length).toBeGreaterThan(10);
      const ebrosia = await snapshotOf(suite.jawad, page('trafilatura--ebrosia.de.zinfandel'));
      expect(ebrosia).toContainEqual(expect.stringMatching(/^- button \[ref=e\d+\] icon="icon--basket"$/));
      expect(await snapshotOf(suite.jawad, page('postlight--otrs.com'))).toContainEqual(expect.stringMatching(/^- button \[ref=e\d+\] \[collapsed\] icon="icon-bar"$/));
      // A logo drawn twice (one image per colour scheme) names its link once.
      const npr = (await snapshotOf(suite.jawad, page('postlight--www.npr.org'))).join('\n');
      expect(npr).toMatch(/^- link "NPR Music" \[ref=e\d+\]$/m);
    });

    it('refuses a click under a real cookie banner, giving the ref of the button that accepts it (theverge.com)', async () => {
      const lines = await snapshotOf(suite.jawad, page('trafilatura--theverge.com.ios13'));
      expect(lineStarting(lines, '- link "Follow The Verge on Facebook"')).toContain('[covered by div "We use cookies and other tracking techn…"]');
      const accept = findRef(lines.join('\n'), 'button', 'I Accept')!;
      // A link high on the page is scrolled clear of the banner and clicked; the footer's last
      // link, at the bottom of the page, stays under it however far the page scrolls.
      const footerLink = lines.findLast((line) => line.startsWith('- link "Facebook" [ref='))!;
      const facebook = /\[ref=(e\d+)\]/.exec(footerLink)![1];

      const reply = await runTool(suite.jawad, 'click', { ref: facebook });
      expect(reply.error?.code, JSON.stringify(reply)).toBe('COVERED');
      expect(reply.error?.message).toContain(`: button "I Accept" [ref=${accept}]. Close it with one of them`);
      // The banner's links lead to other pages: they are not ways past it.
      expect(reply.error?.message).not.toContain('Cookie Policy');
    });
  });
}
