/**
 * Structures from real applications where the snapshot once failed (test/fixtures/real-widgets.html):
 * a toolkit dropdown whose listbox lives in an overlay at the end of <body>, a CSS-only menu behind a
 * transparent checkbox, inline text (also beside a block), a virtualised inbox with one delegated handler, roving-tabindex
 * rows, a native checkbox hidden behind its label, boxes drawn past a box that hides its overflow
 * (out-of-flow.html). Every target is found the way a model finds it —
 * by role and name in the snapshot text — and every action is checked in the page's own state.
 */
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { findRef, tableRows } from '../support/scripted-model';
import { browsersUnderTest, type JawadBrowser } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { runTool, snapshotText } from './support/run-tool';

async function refOf(jawad: JawadBrowser, role: string, name: string | RegExp): Promise<string> {
  const text = await snapshotText(jawad);
  const ref = findRef(text, role, name);
  expect(ref, `${role} ${String(name)} in:\n${text}`).toBeDefined();
  return ref!;
}

async function click(jawad: JawadBrowser, ref: string): Promise<void> {
  const reply = await runTool(jawad, 'click', { ref });
  expect(reply.success, JSON.stringify(reply.error)).toBe(true);
}

const textOf = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? '');

for (const browserName of browsersUnderTest()) {
  describe(`real widget structures in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    const open = () => suite.jawad.openTab(`${suite.fixtures.url}/real-widgets.html`);

    it('keeps a label and its value on one line, with a link’s ref inside its sentence, and the words of boxes apart', async () => {
      await open();
      const text = await snapshotText(suite.jawad);
      expect(text).toContain('\nDelivery: 3–5 days\n');
      expect(text).toContain('\nReturns: 30 days, free\n');
      expect(text).toMatch(/\nRead \[link "our returns policy" ref=e\d+\] before sending anything back\.\n/);
      expect(findRef(text, 'link', 'our returns policy')).toBeDefined();
      // Flex items and spans set to display: block are boxes of their own: their words stay apart
      // though the source has no space between them.
      expect(text).toMatch(/\nSize Default \[button "Set custom size" ref=e\d+\]\n/);
      expect(text).toContain('\nHarbour Blog harbour.example\n');
    });

    it('reads text beside a block in order, each run of it on one line with its links in place, and clicks one', async () => {
      const page = await open();
      const text = await snapshotText(suite.jawad);
      const lines = text.split('\n');
      // The <br> keeps "says:" and the date apart; the text after the block stays after it.
      const comment = lines.indexOf('Betina says: 23.05.2019 09:05');
      expect(comment, text).toBeGreaterThan(-1);
      expect(lines.slice(comment + 1, comment + 3)).toEqual([
        'The rain shower head fits any standard arm.',
        expect.stringMatching(/^Reply to \[link "Betina" ref=e\d+\] or \(\[link "report this comment" ref=e\d+\]\)\.$/),
      ]);
      // A list's own text keeps its words apart at a <br> too.
      expect(lines).toContain('Filed under Bathroom');
      await click(suite.jawad, findRef(text, 'link', 'report this comment')!);
      expect(await page.evaluate(() => location.hash)).toBe('#report');
    });

    it('lists the options of a dropdown rendered in an overlay right under its combobox, and picks one', async () => {
      const page = await open();
      await click(suite.jawad, await refOf(suite.jawad, 'combobox', /^Log type/));
      const text = await snapshotText(suite.jawad);
      const lines = text.split('\n');
      const combobox = lines.findIndex((line) => line.startsWith('- combobox "Log type'));
      expect(lines[combobox]).toContain('[expanded]');
      expect(lines.slice(combobox + 1, combobox + 7).map((line) => line.trim())).toEqual([
        expect.stringMatching(/^- listbox \[ref=e\d+\]$/),
        expect.stringMatching(/^- option "All public logs" \[ref=e\d+\] \[selected\]$/),
        expect.stringMatching(/^- option "Block log"/),
        expect.stringMatching(/^- option "Deletion log"/),
        expect.stringMatching(/^- option "Move log"/),
        expect.stringMatching(/^- option "Upload log"/),
      ]);
      await click(suite.jawad, findRef(text, 'option', 'Move log')!);
      expect(await textOf(page, '#chosen')).toBe('Move log');
    });

    it('lists a popup that no attribute links to right under the button just clicked, and picks from it', async () => {
      const page = await open();
      await click(suite.jawad, await refOf(suite.jawad, 'button', 'Newest first'));
      const text = await snapshotText(suite.jawad);
      const lines = text.split('\n');
      // The button stands inside a sentence: its line is that sentence.
      const button = lines.findIndex((line) => line.includes('[button "Newest first"'));
      expect(lines[button]).toMatch(/^Sort by: \[button "Newest first" ref=e\d+ expanded\]$/);
      expect(lines.slice(button + 1, button + 5).map((line) => line.trim())).toEqual([
        expect.stringMatching(/^- listbox \[ref=e\d+\]$/),
        expect.stringMatching(/^- option "Newest first"/),
        expect.stringMatching(/^- option "Oldest first"/),
        expect.stringMatching(/^- option "Most replies"/),
      ]);
      await click(suite.jawad, findRef(text, 'option', 'Most replies')!);
      expect(await textOf(page, '#sort')).toBe('Most replies');
    });

    it('shows a CSS-only menu as the button that opens it, and reaches its items', async () => {
      const page = await open();
      const before = await snapshotText(suite.jawad);
      expect(before).toMatch(/- button "More" \[ref=e\d+\] \[collapsed\]/);
      expect(findRef(before, 'link', 'Move')).toBeUndefined();
      await click(suite.jawad, findRef(before, 'button', 'More')!);
      const after = await snapshotText(suite.jawad);
      expect(after).toMatch(/- button "More" \[ref=e\d+\] \[expanded\]/);
      // The menu is still fading in when this snapshot is asked for: its items must have refs all the same.
      const move = findRef(after, 'link', 'Move');
      expect(move, after).toBeDefined();
      await click(suite.jawad, move!);
      expect(new URL(page.url()).hash).toBe('#move');
    });

    it('gives the rows of a virtualised inbox refs, and a click on one reaches the list’s delegated handler', async () => {
      const page = await open();
      await click(suite.jawad, await refOf(suite.jawad, 'row', 'Message 3: Your invoice'));
      expect(await textOf(page, '#opened')).toBe('Message 3: Your invoice');
    });

    it('clicks a row of a virtualised inbox scrolled out of view, without scrolling the list away under it', async () => {
      const page = await open();
      // A page long enough that the inbox leaves the window when it is scrolled to the end.
      await page.evaluate(() => {
        const rest = document.createElement('div');
        rest.style.height = '3000px';
        document.body.append(rest);
        window.scrollTo(0, document.documentElement.scrollHeight);
      });
      expect(await page.$eval('.inbox', (inbox) => inbox.getBoundingClientRect().bottom), 'the inbox is out of view').toBeLessThan(0);
      await click(suite.jawad, await refOf(suite.jawad, 'row', 'Message 4: Build failed'));
      expect(await textOf(page, '#opened')).toBe('Message 4: Build failed');
      // Centring the row would have scrolled the inbox too, and its re-render would have replaced the row.
      expect(await page.$eval('.inbox', (inbox) => inbox.scrollTop)).toBe(0);
    });

    it('reads a table row across: each record’s link on its record’s line, a field beside its header cell', async () => {
      const page = await open();
      const text = await snapshotText(suite.jawad);
      expect(text).toContain('\n| | name | city |\n');
      const noether = text.split('\n').find((line) => line.includes('Emmy Noether'));
      expect(noether).toMatch(/^\| \[link "edit" ref=e\d+\] \| Emmy Noether \| Berlin \|$/);
      expect(text).toContain('| Alan Turing | Manchester \\| UK |');
      // A block that is not rendered (a hidden <div> in a cell) does not break the row into lines.
      expect(text).toMatch(/\n\| \[link "delete" ref=e\d+\] \| Lise Meitner \| Berlin \|\n/);
      expect(text).not.toContain('DELETE FROM');
      // The footer is read where it is drawn, below the rows, though the markup has it first.
      expect(text).toMatch(/\| Lise Meitner \| Berlin \|\n- button "Save people" \[ref=e\d+\]\n/);
      const cityLine = text.split('\n').find((line) => line.startsWith('| City |'));
      expect(cityLine).toMatch(/^\| City \| \[textbox ref=e\d+ editable\] \|$/);
      await click(suite.jawad, findRef(noether!, 'link', 'edit')!);
      expect(new URL(page.url()).hash).toBe('#edit-2');
      const field = findRef(cityLine!, 'textbox', '')!;
      expect((await runTool(suite.jawad, 'fill', { ref: field, text: 'Paris' })).success).toBe(true);
      expect(await page.$eval('[data-testid=city-field]', (el) => (el as HTMLInputElement).value)).toBe('Paris');
    });

    it('keeps a results table’s columns: a header spanning the row actions, an empty drag handle in it, a one-column result', async () => {
      await open();
      const text = await snapshotText(suite.jawad);
      const rows = tableRows(text);
      const header = rows.find((cells) => cells.some((cell) => /link "city"/.test(cell)));
      const kurt = rows.find((cells) => cells.includes('Kurt Gödel'));
      expect(header, text).toBeDefined();
      expect(header![0]).toMatch(/^\[link "Full texts" ref=e\d+\]$/);
      // Each value sits under its column's header cell, the actions under the cell that spans them.
      expect(header!.findIndex((cell) => /link "city"/.test(cell))).toBe(kurt!.indexOf('Vienna'));
      expect(header!.findIndex((cell) => /link "name"/.test(cell))).toBe(kurt!.indexOf('Kurt Gödel'));
      expect(text).toContain('\n| COUNT(*) |\n| 6 |\n');
    });

    it('keeps the columns of rows under a cell that spans rows, and opens a link in one', async () => {
      const page = await open();
      const text = await snapshotText(suite.jawad);
      expect(text).toContain('\n| Day | Time | Talk |\n| Monday | 09:00 | Opening |\n');
      const parsers = text.split('\n').find((line) => line.includes('"Parsers"'));
      // The day's column is left empty under Monday: the time sits under Time, the talk under Talk.
      expect(parsers).toMatch(/^\| \| 10:00 \| \[link "Parsers" ref=e\d+\] \|$/);
      expect(text).toContain('\n| Tuesday | 09:00 | Closing |\n');
      // rowspan="0" holds the day's column to the end of its section.
      expect(text).toContain('\n| Wednesday | 09:00 | Workshop |\n| | 11:00 | Hackathon |\n| | 15:00 | Farewell |\n');
      await click(suite.jawad, findRef(parsers!, 'link', 'Parsers')!);
      expect(new URL(page.url()).hash).toBe('#talk-parsers');
    });

    it('names each copy of a pager printed above and below a table by its own label, though both copies share an id', async () => {
      const page = await open();
      const text = await snapshotText(suite.jawad);
      const pagers = text.split('\n').filter((line) => line.includes('Number of rows:'));
      expect(pagers, text).toHaveLength(2);
      for (const line of pagers) expect(line).toMatch(/^- combobox "Number of rows:" \[ref=e\d+\]/);
      const bottom = findRef(pagers[1]!, 'combobox', 'Number of rows:')!;
      expect((await runTool(suite.jawad, 'select_option', { ref: bottom, option: '50' })).success).toBe(true);
      expect(await page.$eval('select[name=bottom]', (el) => (el as HTMLSelectElement).value)).toBe('50');
      expect(await page.$eval('select[name=top]', (el) => (el as HTMLSelectElement).value)).toBe('25');
    });

    it('reads a grid in name only across, like a table: each file’s commit link on its file’s line, no cell listed as a control', async () => {
      const page = await open();
      const text = await snapshotText(suite.jawad);
      expect(text).toContain('\n| Type | Name | Latest commit message | Commit time |\n');
      const readme = text.split('\n').find((line) => line.includes('README.md'));
      expect(readme).toMatch(/^\| \| \[link "README\.md" ref=e\d+\] \| \[link "Create README\.md" ref=e\d+\] \| 2 years ago \|$/);
      expect(text).not.toMatch(/gridcell/);
      await click(suite.jawad, findRef(readme!, 'link', 'Create README.md')!);
      expect(new URL(page.url()).hash).toBe('#commit-readme');
    });

    it('fills a code editor that copies its text into a hidden field only on key-up, and the form sends it', async () => {
      const page = await open();
      const text = await snapshotText(suite.jawad);
      // Named by the hidden field it stands in for.
      const ref = findRef(text, 'textbox', 'SQL query');
      expect(ref, text).toBeDefined();
      expect((await runTool(suite.jawad, 'fill', { ref: ref!, text: 'SELECT 1' })).success).toBe(true);
      await click(suite.jawad, await refOf(suite.jawad, 'button', 'Execute'));
      expect(await textOf(page, '#ran')).toBe('SELECT 1');
    });

    it('lists rows with a roving tabindex and a native checkbox hidden behind its label as a checkbox', async () => {
      const page = await open();
      const text = await snapshotText(suite.jawad);
      expect(findRef(text, 'treeitem', 'Sent')).toBeDefined();
      expect(findRef(text, 'row', 'Invoice 42 € 120')).toBeDefined();
      // One target for the switch: the checkbox, not its label as a second, role-less one.
      expect(text.match(/Email me a weekly digest/g)).toHaveLength(1);
      const checkbox = findRef(text, 'checkbox', 'Email me a weekly digest')!;
      expect((await runTool(suite.jawad, 'check', { ref: checkbox })).data).toMatchObject({ checked: true });
      expect(await page.$eval('input[name=digest]', (el) => (el as HTMLInputElement).checked)).toBe(true);
    });

    it('reads boxes drawn past a box that hides its overflow, because what places them lies further out, an editor hung in a box of no height at the top, and fixed boxes within the viewport', async () => {
      await suite.jawad.openTab(`${suite.fixtures.url}/out-of-flow.html`);
      const text = await snapshotText(suite.jawad);
      // DokuWiki's media manager: absolutely positioned panes in a static box of no height.
      expect(text).toContain('# Media Files');
      expect(text).toContain('logo.png (128×128, 27.2 KB)');
      expect(findRef(text, 'link', 'wiki'), text).toBeDefined();
      // A fixed note in such a box, placed by a transformed box around it.
      expect(text).toContain('Upload finished.');
      // WordPress's block editor: absolutely positioned in a box of no height at the page's top edge.
      expect(findRef(text, 'textbox', 'Add title'), text).toBeDefined();
      expect(text).toContain('Start writing with text or HTML.');
      // Fixed boxes: what lies past the viewport never shows; a fixed box's own scrolling still reaches its content.
      expect(text).not.toContain('Drawer menu');
      expect(findRef(text, 'button', 'Close the drawer'), text).toBeUndefined();
      expect(findRef(text, 'link', 'Archive 40'), text).toBeDefined();
    });
  });
}
