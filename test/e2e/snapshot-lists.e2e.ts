/**
 * Long repeated structures are summarised with a count and paged through, not dumped.
 */
import { describe, expect, it } from 'vitest';
import { findRef } from '../support/scripted-model';
import { browsersUnderTest, type JawadBrowser } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { runTool, snapshotData } from './support/run-tool';

interface Snapshot {
  text: string;
  refs: Array<{ ref: string; testid?: string; name: string; role: string }>;
}

const snapshot = (jawad: JawadBrowser, parameters: Record<string, unknown> = {}) => snapshotData<Snapshot>(jawad, parameters);

const stations = (snap: Snapshot) => snap.refs.filter((r) => r.testid?.startsWith('station-')).map((r) => r.testid);

for (const browserName of browsersUnderTest()) {
  describe(`long lists in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('shows 20 rows of a 500-row list with a count, and the next 20 on page 2, keeping the rest of the page', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/long-list.html`);
      const first = await snapshot(jawad);
      expect(stations(first)).toEqual(Array.from({ length: 20 }, (_, i) => `station-${i + 1}`));
      expect(first.text).toContain('- note: 500 rows here; showing 1–20. Snapshot with page: 2 for the next 20.');
      expect(first.refs.map((r) => r.testid)).toEqual(expect.arrayContaining(['about', 'more']));

      const second = await snapshot(jawad, { page: 2 });
      expect(stations(second)).toEqual(Array.from({ length: 20 }, (_, i) => `station-${i + 21}`));
      expect(second.text).toContain('showing 21–40');

      const last = await snapshot(jawad, { page: 999 });
      expect(stations(last)).toEqual(Array.from({ length: 20 }, (_, i) => `station-${i + 481}`));
      expect(last.text).toContain('showing 481–500.');
      expect(last.text).not.toContain('Snapshot with page: 26');

      const again = await snapshot(jawad);
      expect(again.refs.find((r) => r.testid === 'station-1')?.ref).toBe(first.refs.find((r) => r.testid === 'station-1')?.ref);
    });

    it('summarises a 2,000-row admin table and names selects inside labels as browsers do', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/users-table.html`);
      const snap = await snapshot(jawad);
      expect(snap.text).toMatch(/- note: 2000 rows here; showing 1–20\./);
      const role = snap.refs.find((r) => r.testid === 'filter-role');
      expect(role).toMatchObject({ role: 'combobox', name: 'Role All roles' });
      expect(snap.refs.find((r) => r.testid === 'filter-status')?.name).toBe('Status Any status');
      expect(snap.text.length).toBeLessThan(10_000);
    });

    it('lists a webmail’s entries once each — a tree’s or a menu’s item as the link or button it holds, the focused row’s subject link like every other row’s, icon links by address, a drawn close button by its “×” — and clicks as a mouse does', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/mail-list.html`);
      const { text } = await snapshot(jawad);
      // One line per entry, the item's state kept on the control's line.
      expect(text).toMatch(/^- link "Inbox" \[ref=e\d+\] \[selected\]$/m);
      expect(text).toMatch(/^- button "Reply" \[ref=e\d+\] \[disabled\]$/m);
      // The toolbar's spacer, an item with nothing in it, is not listed; the items drawn by an icon are.
      expect(text.match(/^- menuitem \[ref=e\d+\]$/gm)).toHaveLength(2);
      expect(text.match(/menuitem/g)).toHaveLength(2);
      expect(text).not.toMatch(/treeitem/);
      expect(text.match(/"Drafts"/g)).toHaveLength(1);
      expect(text.match(/"User Interface"/g)).toHaveLength(1);
      expect(text).toMatch(/^- option "User Interface" \[ref=e\d+\] \[selected\]$/m);
      // The row that holds the keyboard focus reads as the others do, its subject a link to click.
      expect(text).toMatch(/^\| Alice Martin Mon 09:30 \[link "Quarterly report meeting" ref=e\d+\] \| \|$/m);
      expect(text).toMatch(/^\| Carol Diaz Sun 09:30 \[link "Invoice 2026-117" ref=e\d+\] \| \|$/m);

      // A list or a menu that only moves the focus between its entries is no control of its own.
      expect(text).not.toMatch(/"Messages"|"Account"|^- menu \[/m);
      expect(text).toMatch(/^- link "Sign out" \[ref=e\d+\]$/m);
      // One that scrolls stays a control: it is what scrolling moves. So does one a click means something on.
      expect(text).toMatch(/^- generic "Contacts" \[ref=e\d+\]$/m);
      expect(text).toMatch(/^- tree "Labels" \[ref=e\d+\]$/m);

      // A button its style draws is named by what it draws.
      expect(text).toMatch(/^Draft saved\. \[button "×" ref=e\d+\]$/m);
      // Icon buttons whose labels the window hides say where they lead.
      expect(text).toMatch(/^- button \[ref=e\d+\] url="\/settings"$/m);

      // A click is a mouse's, with the pointer's place: the page chooses the row, as for a person,
      // and does not follow the link as it would for the Enter key.
      expect((await runTool(jawad, 'click', { ref: findRef(text, 'link', 'Quarterly report meeting') })).success).toBe(true);
      expect(await page.$eval('#status', (el) => el.textContent)).toBe('Chose Quarterly report meeting.');
      expect(await page.evaluate(() => location.hash)).toBe('');
      const chosen = (await snapshot(jawad)).text;
      expect(chosen).toMatch(/^- button "Reply" \[ref=e\d+\]$/m);

      expect((await runTool(jawad, 'click', { ref: findRef(chosen, 'link', 'Drafts') })).success).toBe(true);
      expect(await page.$eval('#status', (el) => el.textContent)).toBe('Opened Drafts.');
      expect((await snapshot(jawad)).text).toMatch(/^- link "Drafts" \[ref=e\d+\] \[selected\]$/m);
    });

    it('shows a sortable column’s header as the header it is, with the way the table is sorted by it, and sorts by a click on it', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/sortable-table.html`);
      const { text } = await snapshot(jawad);
      // DataTables: focusable headers, the one sorted by says which way.
      expect(text).toMatch(/^\| \[columnheader "Name: activate to sort column descending" ref=e\d+ sorted ascending\] \| \[columnheader "Office: activate to sort column ascending" ref=e\d+\] \|$/m);
      // sorttable.js: a pointer cursor and a click listener, the sort marks drawn after the text;
      // a header cell of a row of data cells heads its row.
      expect(text).toMatch(/^\| \[columnheader "Ticket♦" ref=e\d+\] \| \[columnheader "Title♦" ref=e\d+\] \|$/m);
      expect(text).toMatch(/^\| \[rowheader "Mars" ref=e\d+\] \| 2 \|$/m);

      expect((await runTool(jawad, 'click', { ref: findRef(text, 'columnheader', /^Office/) })).success).toBe(true);
      const sorted = (await snapshot(jawad)).text;
      expect(sorted).toMatch(/^\| \[columnheader "Name: activate to sort column ascending" ref=e\d+\] \| \[columnheader "Office: activate to sort column descending" ref=e\d+ sorted ascending\] \|$/m);
      expect(sorted.indexOf('Lior Chen | Berlin')).toBeLessThan(sorted.indexOf('Maya Ortiz | Lagos'));
      expect(sorted.indexOf('Maya Ortiz | Lagos')).toBeLessThan(sorted.indexOf('Ada Brandt | Tokyo'));

      expect((await runTool(jawad, 'click', { ref: findRef(sorted, 'columnheader', 'Title♦') })).success).toBe(true);
      const byTitle = (await snapshot(jawad)).text;
      expect(byTitle).toMatch(/^\| \[columnheader "Ticket♦" ref=e\d+\] \| \[columnheader "Title↓" ref=e\d+\] \|$/m);
      expect(byTitle.indexOf('#12 | Printer jams')).toBeLessThan(byTitle.indexOf('#7 | VPN drops'));
      expect((await runTool(jawad, 'click', { ref: findRef(byTitle, 'columnheader', 'Title↓') })).success).toBe(true);
      const back = (await snapshot(jawad)).text;
      expect(back).toMatch(/\[columnheader "Title↑" ref=e\d+\]/);
      expect(back.indexOf('#7 | VPN drops')).toBeLessThan(back.indexOf('#12 | Printer jams'));

      expect((await runTool(jawad, 'click', { ref: findRef(sorted, 'rowheader', 'Mars') })).success).toBe(true);
      expect(await page.$eval('#detail', (el) => el.textContent)).toBe('Mars has two small moons.');
    });
  });
}
