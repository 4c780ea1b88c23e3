/**
 * Actions by ref in real browsers, checked against the application's own state (which, like a
 * React app, ignores value writes it cannot see), not against the DOM alone.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import type { FixtureServer } from '../support/fixture-server';
import { ensurePackages } from '../support/real-apps/debian';
import { findRef } from '../support/scripted-model';
import { browsersUnderTest, type JawadBrowser } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import type { PageDialog } from '../../src/protocol';
import { runTool, snapshotText } from './support/run-tool';

type Data = Record<string, unknown> & { text?: string; refs?: Array<{ ref: string; testid?: string }>; waited?: { ms: number }; dialogs?: PageDialog[]; lateDialogs?: PageDialog[] };
const tool = (jawad: JawadBrowser, name: string, parameters: Record<string, unknown> = {}) => runTool<Data>(jawad, name, parameters);

async function refsByTestId(jawad: JawadBrowser): Promise<Record<string, string>> {
  const snapshot = await tool(jawad, 'snapshot');
  expect(snapshot.success, JSON.stringify(snapshot.error)).toBe(true);
  return Object.fromEntries((snapshot.data!.refs ?? []).filter((r) => r.testid).map((r) => [r.testid!, r.ref]));
}

const appState = (page: Page) => page.$eval('#state', (el) => el.textContent ?? '');

/**
 * An editor's app opened and read: the snapshot's text, and what the app keeps (`record`: a click
 * on its button, then the line it writes out the editor's own document to).
 */
async function openEditorApp(jawad: JawadBrowser, url: string, ready: string, button: string, kept: string) {
  const page = await jawad.openTab(url);
  await page.waitForSelector(ready);
  const text = await snapshotText(jawad);
  const record = async () => {
    await tool(jawad, 'click', { ref: findRef(text, 'button', button) });
    return page.$eval(kept, (line) => line.textContent);
  };
  return { text, record };
}

/** A field of the form a page last sent by GET to `path`, as the fixture server received it. */
function sentField(fixtures: FixtureServer, path: string, field: string): string | null {
  const request = fixtures.requests.findLast((sent) => sent.url.startsWith(`${path}?`));
  return new URLSearchParams(request?.url.split('?')[1]).get(field);
}

for (const browserName of browsersUnderTest()) {
  describe(`actions in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('fills, selects and ticks so that the app itself sees it, and reads the values back', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/form-app.html`);
      const refs = await refsByTestId(jawad);
      expect(Object.keys(refs)).toEqual(expect.arrayContaining(['name', 'size', 'subscribe', 'updates', 'place-order', 'accept-cookies']));

      expect((await tool(jawad, 'fill', { ref: refs.name, text: 'Ada Lovelace' })).data).toMatchObject({ value: 'Ada Lovelace' });
      expect((await tool(jawad, 'select_option', { ref: refs.size, option: 'Medium' })).data).toMatchObject({ value: 'Medium' });
      expect((await tool(jawad, 'check', { ref: refs.subscribe })).data).toMatchObject({ checked: true });
      expect((await tool(jawad, 'check', { ref: refs.updates })).data).toMatchObject({ checked: true });
      expect(await appState(page)).toContain('name=Ada Lovelace; size=M; subscribe=true; updates=true; ordered=false');

      expect((await tool(jawad, 'uncheck', { ref: refs.subscribe })).data).toMatchObject({ checked: false });
      expect(await appState(page)).toContain('subscribe=false');

      const missing = await tool(jawad, 'select_option', { ref: refs.size, option: 'XXL' });
      expect(missing.error?.code).toBe('NOT_FOUND');
      expect(missing.error?.message).toContain('has no option “XXL”');
      expect(missing.error?.details).toMatchObject({ options: expect.arrayContaining([{ value: 'L', text: 'Large' }]) });
    });

    it('refuses a click that another element would take, naming it and the button that closes it, and clicks once it is gone', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/form-app.html`);
      const refs = await refsByTestId(jawad);
      const covered = await tool(jawad, 'click', { ref: refs['place-order'] });
      expect(covered.error?.code).toBe('COVERED');
      expect(covered.error?.message).toContain('dialog "Cookie consent"');
      expect(await appState(page)).toContain('ordered=false');

      // The model needs no new snapshot: the refusal gives the way past with its ref.
      const way = /Its buttons: button "Accept all" \[ref=(e\d+)\]\. Close it with one of them/.exec(covered.error?.message ?? '');
      expect(way, covered.error?.message).not.toBeNull();
      expect(way![1]).toBe(refs['accept-cookies']);
      expect((await tool(jawad, 'click', { ref: way![1] })).success).toBe(true);
      expect((await tool(jawad, 'click', { ref: refs['place-order'] })).success).toBe(true);
      expect(await appState(page)).toContain('ordered=true');
    });

    it('clicks a link that wraps onto the next line on its words, not on the button between its halves', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/wrapped-link.html`);
      const text = await snapshotText(jawad);
      const click = await tool(jawad, 'click', { ref: findRef(text, 'link', 'Pinned message') });
      expect(click.success, JSON.stringify(click.error)).toBe(true);
      expect(await snapshotText(jawad)).toContain('Pinned message opened.');
    });

    it('behind a real jQuery UI modal, names the dialog’s buttons with their refs, closes it with one, then clicks', async () => {
      ensurePackages(['libjs-jquery-ui']);
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/jquery-ui-dialog.html`);
      const snapshot = await tool(jawad, 'snapshot');
      const archive = findRef(snapshot.data?.text ?? '', 'link', 'Read the archive')!;
      expect(archive, snapshot.data?.text).toBeDefined();

      // The library's backdrop takes the click: it has no buttons, the dialog above it does.
      const covered = await tool(jawad, 'click', { ref: archive });
      expect(covered.error?.code).toBe('COVERED');
      const message = covered.error?.message ?? '';
      expect(message).toMatch(/Buttons of dialog "Join our newsletter": button "Close" \[ref=e\d+\], button "No thanks" \[ref=e\d+\], button "Subscribe" \[ref=e\d+\]\. Close it with one of them/);
      expect(await page.$eval('#opened', (el) => el.textContent)).toBe('nothing');

      const noThanks = /button "No thanks" \[ref=(e\d+)\]/.exec(message)![1];
      expect((await tool(jawad, 'click', { ref: noThanks })).success).toBe(true);
      await page.waitForFunction(() => !document.querySelector('.ui-widget-overlay'));
      expect((await tool(jawad, 'click', { ref: archive })).success).toBe(true);
      expect(await page.$eval('#opened', (el) => el.textContent)).toBe('archive');
    });

    it('names the buttons of a consent banner drawn in a closed shadow root, and clicks once it is accepted', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/consent-shadow.html`);
      const snapshot = await tool(jawad, 'snapshot');
      const subscribe = findRef(snapshot.data?.text ?? '', 'button', 'Subscribe')!;
      expect(subscribe, snapshot.data?.text).toBeDefined();

      const covered = await tool(jawad, 'click', { ref: subscribe });
      expect(covered.error?.code).toBe('COVERED');
      const way = /: button "Deny" \[ref=e\d+\], button "Accept all" \[ref=(e\d+)\]\. Close it with one of them/.exec(covered.error?.message ?? '');
      expect(way, covered.error?.message).not.toBeNull();
      expect(await page.$eval('#subscribed', (el) => el.textContent)).toBe('no');

      expect((await tool(jawad, 'click', { ref: way![1] })).success).toBe(true);
      await page.waitForFunction(() => !document.querySelector('consent-banner'));
      expect((await tool(jawad, 'click', { ref: subscribe })).success).toBe(true);
      expect(await page.$eval('#subscribed', (el) => el.textContent)).toBe('yes');
    });

    it('waits for a button that is sliding out from under a banner, whether CSS or a script moves it', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/moving.html`);
      const snapshot = await tool(jawad, 'snapshot');
      const refOf = (name: string) => new RegExp(`button "${name}" \\[ref=(e\\d+)\\]`).exec(snapshot.data!.text ?? '')?.[1];
      for (const [show, mover] of [['Show with a transition', 'Confirm transition'], ['Show with a script', 'Confirm script']] as const) {
        expect((await tool(jawad, 'click', { ref: refOf(show) })).success).toBe(true);
        // Clicked at once, while it still moves under the banner: the click must wait until it holds still.
        const click = await tool(jawad, 'click', { ref: refOf(mover) });
        expect(click.error, `${mover}: ${JSON.stringify(click.error)}`).toBeUndefined();
        expect(await appState(page)).toBe(`clicked=${mover.includes('script') ? 'script-mover' : 'css-mover'}`);
      }
    });

    it('answers a ref whose element is gone with STALE_REF, never clicking something else', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/form-app.html`);
      const refs = await refsByTestId(jawad);
      expect((await tool(jawad, 'click', { ref: refs['remove-me'] })).success).toBe(true);
      expect(await page.$('#remove-me')).toBeNull();
      const stale = await tool(jawad, 'click', { ref: refs['remove-me'] });
      expect(stale.error?.code).toBe('STALE_REF');
      const unknown = await tool(jawad, 'click', { ref: 'e99999' });
      expect(unknown.error?.code).toBe('STALE_REF');
      // Both given: the ref (what the model just read in a snapshot) wins over the selector.
      const both = await tool(jawad, 'fill', { ref: refs.name, selector: '[data-testid=search]', text: 'Both given' });
      expect(both.success, JSON.stringify(both.error)).toBe(true);
      expect(await appState(page)).toContain('name=Both given');
      // A bad call says why, so the model can correct itself.
      const wrongRef = await tool(jawad, 'click', { ref: '#name' });
      expect(wrongRef.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('ref: A ref looks like e12') });
    });

    it('types, presses keys, hovers, double-clicks, scrolls and reads, as the app sees it', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/form-app.html`);
      const refs = await refsByTestId(jawad);

      expect((await tool(jawad, 'type_text', { ref: refs.search, text: 'shoes' })).data).toMatchObject({ value: 'red shoes' });
      expect(await appState(page)).toContain('search=red shoes');

      await tool(jawad, 'fill', { ref: refs.name, text: 'Grace Hopper' });
      const enter = await tool(jawad, 'press_key', { ref: refs.name, keys: 'Enter' });
      expect(enter.data).toMatchObject({ result: { key: 'Enter', effect: 'submitted the form' } });
      expect(await appState(page)).toContain('submitted=true');

      expect((await tool(jawad, 'hover', { ref: refs.account })).success).toBe(true);
      expect(await appState(page)).toContain('menu=true');
      const menuRefs = await refsByTestId(jawad);
      expect(menuRefs.orders, 'the menu that hovering opened is in the next snapshot').toMatch(/^e\d+$/);

      expect((await tool(jawad, 'double_click', { ref: refs.photo })).success).toBe(true);
      expect(await appState(page)).toContain('zoom=true');

      expect((await tool(jawad, 'is', { ref: refs.subscribe, what: 'checked' })).data).toMatchObject({ result: false });
      expect((await tool(jawad, 'is', { ref: refs.name, what: 'editable' })).data).toMatchObject({ result: true });
      expect((await tool(jawad, 'get', { ref: refs.search, what: 'value' })).data).toMatchObject({ result: 'red shoes' });
      expect((await tool(jawad, 'get', { what: 'title' })).data).toMatchObject({ result: 'Checkout — Severn Outdoor' });

      const down = await tool(jawad, 'scroll', { direction: 'down' });
      expect((down.data as { result: { y: number } }).result.y).toBeGreaterThan(0);
      expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
      const bottom = await tool(jawad, 'scroll', { direction: 'bottom' });
      expect(bottom.data).toMatchObject({ result: { atEnd: true } });
    });

    it('opens what only CSS :hover shows — a drop-down, a row’s actions, a card’s button, a component’s — on a page whose CSP allows no inline style, and the pointer stays on until a click elsewhere', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/hover-menus.html`);
      let text = await snapshotText(jawad);
      for (const hidden of ['Boots', 'Trash', 'Download', 'Share']) expect(text, `${hidden} shows before any hover`).not.toMatch(new RegExp(`"${hidden}"`));

      const hovered = await tool(jawad, 'hover', { ref: findRef(text, 'link', 'Products') });
      expect(hovered.data, JSON.stringify(hovered.error)).toMatchObject({ result: { hoverRules: expect.any(Number) } });
      text = await snapshotText(jawad);
      const boots = findRef(text, 'link', 'Boots');
      expect(boots, text).toBeDefined();
      expect((await tool(jawad, 'click', { ref: boots })).success).toBe(true);
      expect(await page.$eval('#state', (el) => el.textContent)).toBe('picked boots');

      // WordPress's row actions: over the row, its Edit and Trash come back onto the page.
      await tool(jawad, 'hover', { ref: findRef(text, 'link', 'Second post') });
      text = await snapshotText(jawad);
      const lines = text.split('\n');
      const row = lines.findIndex((line) => line.includes('"Second post"'));
      const trash = findRef(lines[row + 1] ?? '', 'link', 'Trash');
      expect(trash, text).toBeDefined();
      expect(text.match(/"Trash"/g), 'only the row under the pointer shows its actions').toHaveLength(1);
      // The click moves the pointer onto Trash, inside the same row: the row stays under it.
      expect((await tool(jawad, 'click', { ref: trash })).success).toBe(true);
      expect(await page.$eval('#state', (el) => el.textContent)).toBe('trash Second post');
      // A click elsewhere takes the pointer off the row, as a person's hand would.
      expect((await tool(jawad, 'click', { ref: findRef(text, 'button', 'Refresh list') })).success).toBe(true);
      text = await snapshotText(jawad);
      expect(text).not.toMatch(/"Trash"/);

      // A :hover rule under @media, and one inside a shadow root (:host(:hover)).
      await tool(jawad, 'hover', { selector: '.card' });
      text = await snapshotText(jawad);
      expect(findRef(text, 'button', 'Download'), text).toBeDefined();
      await tool(jawad, 'hover', { selector: 'hover-card' });
      text = await snapshotText(jawad);
      const share = findRef(text, 'button', 'Share');
      expect(share, text).toBeDefined();
      expect((await tool(jawad, 'click', { ref: share })).success).toBe(true);
      expect(await page.$eval('#state', (el) => el.textContent)).toBe('shared deals');
    });

    it('types into a code editor that hears the keys through a field nobody sees (CodeMirror 5), and the app runs what it shows', async () => {
      ensurePackages(['libjs-codemirror']);
      const { jawad, fixtures } = suite;
      // What the app runs is the form's textarea, which CodeMirror writes its document into as the form is sent.
      const { text, record: ran } = await openEditorApp(jawad, `${fixtures.url}/code-editor.html`, '.CodeMirror', 'Run', '#state');
      // The editor reads as the text box a person sees, named by the label of the form's field it
      // stands in for, holding its text (not its line numbers).
      expect(text).toMatch(/^- textbox "Query" \[ref=(e\d+)\] \[editable\] value="SELECT \* FROM customers"$/m);
      const editor = findRef(text, 'textbox', 'Query');

      const filled = await tool(jawad, 'fill', { ref: editor, text: "SELECT name FROM customers\nWHERE city = 'Berlin'" });
      expect(filled.data).toMatchObject({ value: "SELECT name FROM customers\nWHERE city = 'Berlin'" });
      const typed = await tool(jawad, 'type_text', { ref: editor, text: ' LIMIT 1' });
      expect(typed.data).toMatchObject({ value: "SELECT name FROM customers\nWHERE city = 'Berlin' LIMIT 1" });
      expect((await tool(jawad, 'get', { ref: editor, what: 'value' })).data).toMatchObject({ result: "SELECT name FROM customers\nWHERE city = 'Berlin' LIMIT 1" });

      expect(await ran()).toBe("ran: SELECT name FROM customers\nWHERE city = 'Berlin' LIMIT 1");
      // An empty line is a box of its own with nothing to see in it: told as an empty line, as the editor keeps it.
      expect((await tool(jawad, 'fill', { ref: editor, text: 'SELECT 1;\n\nSELECT 2;' })).data).toMatchObject({ value: 'SELECT 1;\n\nSELECT 2;' });
      expect(await ran()).toBe('ran: SELECT 1;\n\nSELECT 2;');
    });

    it('types into Ace, which hears the keys through a field that follows its cursor and draws its text on the next frame, and the app applies what it shows', async () => {
      const { jawad, fixtures } = suite;
      // What the app applies is Ace's document, not the page's text.
      const { text, record: applied } = await openEditorApp(jawad, `${fixtures.url}/ace-editor.html`, '#config .ace_text-input', 'Apply', '#state');
      // The editor's box, holding the text it shows (not the boxes of text it measures characters with).
      expect(text).toMatch(/^- textbox \[ref=e\d+\] \[editable\] value="retries: 3"$/m);
      const editor = findRef(text, 'textbox', /.*/);

      // The value told back is what the editor shows once it has drawn the change.
      expect((await tool(jawad, 'fill', { ref: editor, text: 'retries: 5\ntimeout: 30' })).data).toMatchObject({ value: 'retries: 5\ntimeout: 30' });
      expect(await applied()).toBe('applied: retries: 5\ntimeout: 30');
      expect((await tool(jawad, 'type_text', { ref: editor, text: '0\nmode: fast' })).data).toMatchObject({ value: 'retries: 5\ntimeout: 300\nmode: fast' });
      await tool(jawad, 'press_key', { ref: editor, keys: 'Backspace' });
      expect(await applied()).toBe('applied: retries: 5\ntimeout: 300\nmode: fas');
      expect((await tool(jawad, 'get', { ref: editor, what: 'value' })).data).toMatchObject({ result: 'retries: 5\ntimeout: 300\nmode: fas' });
      // An empty line is an empty box among the lines: told as an empty line, as the editor keeps it.
      expect((await tool(jawad, 'fill', { ref: editor, text: 'retries: 5\n\ntimeout: 30' })).data).toMatchObject({ value: 'retries: 5\n\ntimeout: 30' });
      expect(await applied()).toBe('applied: retries: 5\n\ntimeout: 30');
    });

    it('writes in Monaco, which takes typing through an EditContext in Chromium and a field that follows its cursor in Firefox, and hides what it draws from assistive technology', async () => {
      const { jawad, fixtures } = suite;
      // What the app deploys is Monaco's document, not the page's text.
      const { text, record: deployed } = await openEditorApp(jawad, `${fixtures.url}/monaco-editor.html`, 'body[data-ready]', 'Deploy', '#state');
      // The editor's box, holding the text it draws, without its line numbers.
      expect(text).toMatch(/^- textbox \[ref=e\d+\] \[editable\] value="def handler\(event\):"$/m);
      const code = findRef(text, 'textbox', /.*/);

      // A line break in the text is the editor's Enter, as a person's is: Monaco indents after the colon.
      expect((await tool(jawad, 'fill', { ref: code, text: 'def handler(event):\nreturn event' })).data).toMatchObject({ value: 'def handler(event):\n    return event' });
      expect(await deployed()).toBe('deployed: def handler(event):\n    return event');
      expect((await tool(jawad, 'type_text', { ref: code, text: '["body"]x' })).data).toMatchObject({ value: 'def handler(event):\n    return event["body"]x' });
      expect(await deployed()).toBe('deployed: def handler(event):\n    return event["body"]x');
      // Keys are the editor's own, heard only while it has the focus (Deploy took it): it deletes and
      // breaks the line itself, keeping the indentation.
      expect((await tool(jawad, 'press_key', { ref: code, keys: 'Backspace' })).data).toMatchObject({ result: { defaultPrevented: true } });
      await tool(jawad, 'press_key', { ref: code, keys: 'Enter' });
      await tool(jawad, 'type_text', { ref: code, text: 'log(event)' });
      expect(await deployed()).toBe('deployed: def handler(event):\n    return event["body"]\n    log(event)');
      expect((await tool(jawad, 'get', { ref: code, what: 'value' })).data).toMatchObject({ result: 'def handler(event):\n    return event["body"]\n    log(event)' });
      // An empty line is an empty box among the lines Monaco draws: read as an empty line, as the editor keeps it.
      await tool(jawad, 'press_key', { ref: code, keys: 'Enter' });
      await tool(jawad, 'press_key', { ref: code, keys: 'Enter' });
      await tool(jawad, 'type_text', { ref: code, text: 'pass' });
      expect(await deployed()).toBe('deployed: def handler(event):\n    return event["body"]\n    log(event)\n\n    pass');
      expect((await tool(jawad, 'get', { ref: code, what: 'value' })).data).toMatchObject({ result: 'def handler(event):\n    return event["body"]\n    log(event)\n\n    pass' });
    });

    it('writes in a real CodeMirror 6 editor, which reads each change back from the page into its own document: replaced, typed on, a new line, a deletion', async () => {
      const { jawad, fixtures } = suite;
      // What the app runs is CodeMirror's document, not the page's text.
      const { text, record: ran } = await openEditorApp(jawad, `${fixtures.url}/codemirror6-editor.html`, '#script .cm-content', 'Run', '#state');
      // The text box a person sees, holding its text (not its line numbers).
      expect(text).toMatch(/^- textbox "Script" \[ref=e\d+\] \[editable\] value="print\(\\"hello\\"\)"$/m);
      const script = findRef(text, 'textbox', 'Script');

      expect((await tool(jawad, 'fill', { ref: script, text: 'total = 0\nfor n in range(3):' })).data).toMatchObject({ value: 'total = 0\nfor n in range(3):' });
      expect(await ran()).toBe('ran: total = 0\nfor n in range(3):');
      await tool(jawad, 'press_key', { ref: script, keys: 'Enter' });
      await tool(jawad, 'type_text', { ref: script, text: '    total += nn' });
      await tool(jawad, 'press_key', { ref: script, keys: 'Backspace' });
      // A line break typed is the editor's Enter, as a person's is: the new line keeps the indentation of the one before.
      await tool(jawad, 'type_text', { ref: script, text: '\nprint(total)' });
      expect(await ran()).toBe('ran: total = 0\nfor n in range(3):\n    total += n\n    print(total)');
      expect((await tool(jawad, 'get', { ref: script, what: 'value' })).data).toMatchObject({ result: 'total = 0\nfor n in range(3):\n    total += n\n    print(total)' });
    });

    it('writes in a real ProseMirror editor so that the editor’s own document follows: replaced, typed on, a new paragraph, a list item the editor splits itself', async () => {
      ensurePackages(['node-prosemirror-view', 'node-prosemirror-schema-basic', 'node-prosemirror-schema-list']);
      const { jawad, fixtures } = suite;
      // What the app stores is ProseMirror's document, not the page's text.
      const { text, record: saved } = await openEditorApp(jawad, `${fixtures.url}/prosemirror-editor.html`, '#notes .ProseMirror', 'Save', '#saved');
      expect(text).toMatch(/^- textbox "Notes" \[ref=e\d+\] \[editable\].*Pack the charts\./m);
      const notes = findRef(text, 'textbox', 'Notes');

      expect((await tool(jawad, 'fill', { ref: notes, text: 'Ferry at 7:40' })).data).toMatchObject({ value: 'Ferry at 7:40' });
      expect(await saved()).toBe('saved: Ferry at 7:40');
      await tool(jawad, 'type_text', { ref: notes, text: ' from Pier 3' });
      await tool(jawad, 'press_key', { ref: notes, keys: 'Enter' });
      await tool(jawad, 'type_text', { ref: notes, text: 'Bring' });
      expect(await saved()).toBe('saved: Ferry at 7:40 from Pier 3 | Bring');

      // The editor's own list command; Enter inside a list item is the editor's, which splits it itself.
      await tool(jawad, 'click', { ref: findRef(text, 'button', 'Bullet list') });
      await tool(jawad, 'type_text', { ref: notes, text: ' tide tables' });
      await tool(jawad, 'press_key', { ref: notes, keys: 'Enter' });
      await tool(jawad, 'type_text', { ref: notes, text: 'Flask' });
      expect(await saved()).toBe('saved: Ferry at 7:40 from Pier 3 | • Bring tide tables | • Flask');
      expect((await tool(jawad, 'get', { ref: notes, what: 'value' })).data).toMatchObject({ result: expect.stringMatching(/^Ferry at 7:40 from Pier 3\s+Bring tide tables\s+Flask$/) });
    });

    it('writes in CKEditor 4, which edits in a frame of its own under its own toolbar, and the form sends the HTML it wrote', async () => {
      ensurePackages(['ckeditor']);
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/ckeditor-reply.html`);
      await page.waitForFunction(() => (window as unknown as { CKEDITOR?: { instances: Record<string, { status: string }> } }).CKEDITOR?.instances.message?.status === 'ready');
      const text = await snapshotText(jawad);
      // Inside the editor's frame, the text box a person sees, holding its text.
      expect(text).toMatch(/^- iframe "Editor, message" \[frame=\w+\]\n {2}- textbox "Editor, message" \[ref=f\d+e\d+\] \[editable\] value="Thanks for writing\."$/m);
      const editor = findRef(text, 'textbox', 'Editor, message');

      expect((await tool(jawad, 'fill', { ref: editor, text: 'Ferry at 7:40' })).data).toMatchObject({ value: 'Ferry at 7:40' });
      await tool(jawad, 'type_text', { ref: editor, text: ' from Pier 3' });
      await tool(jawad, 'press_key', { ref: editor, keys: 'Enter' });
      await tool(jawad, 'type_text', { ref: editor, text: 'Bring ' });
      // Bold with nothing selected: what is typed next is bold, in the style the editor holds the caret in.
      await tool(jawad, 'click', { ref: findRef(text, 'button', 'Bold') });
      expect((await tool(jawad, 'type_text', { ref: editor, text: 'tide tables' })).data).toMatchObject({ value: 'Ferry at 7:40 from Pier 3\n\nBring tide tables' });

      expect((await tool(jawad, 'click', { ref: findRef(text, 'button', 'Send reply') })).data?.navigates).toBe(true);
      // What the server got: the editor's HTML, every step in it.
      const message = sentField(fixtures, '/ckeditor-reply.html', 'message');
      expect(message?.replace(/\s*\n\s*/g, '')).toBe('<p>Ferry at 7:40 from Pier 3</p><p>Bring&nbsp;<strong>tide tables</strong></p>');
    });

    it('writes in a real Lexical editor, which makes each edit itself from what the browser announces: replaced, typed on, a new paragraph, bold, a list item', async () => {
      const { jawad, fixtures } = suite;
      // What the app stores is Lexical's document, not the page's text.
      const { text, record: saved } = await openEditorApp(jawad, `${fixtures.url}/lexical-editor.html`, '#notes p', 'Save', '#saved');
      expect(text).toMatch(/^- textbox "Notes" \[ref=e\d+\] \[editable\].*Pack the charts\./m);
      const notes = findRef(text, 'textbox', 'Notes');

      expect((await tool(jawad, 'fill', { ref: notes, text: 'Ferry at 7:40' })).data).toMatchObject({ value: 'Ferry at 7:40' });
      expect(await saved()).toBe('saved: Ferry at 7:40');
      await tool(jawad, 'type_text', { ref: notes, text: ' from Pier 3' });
      await tool(jawad, 'press_key', { ref: notes, keys: 'Enter' });
      await tool(jawad, 'type_text', { ref: notes, text: 'Bring ' });
      // Bold with nothing selected: what is typed next is bold, in the format the editor holds for the caret.
      await tool(jawad, 'click', { ref: findRef(text, 'button', 'Bold') });
      await tool(jawad, 'type_text', { ref: notes, text: 'tide tables' });
      expect(await saved()).toBe('saved: Ferry at 7:40 from Pier 3 | Bring *tide tables*');

      // The editor's own list command; Enter in a list item is the editor's, which makes the next item.
      await tool(jawad, 'click', { ref: findRef(text, 'button', 'Bullet list') });
      await tool(jawad, 'press_key', { ref: notes, keys: 'Enter' });
      await tool(jawad, 'click', { ref: findRef(text, 'button', 'Bold') });
      await tool(jawad, 'type_text', { ref: notes, text: 'Flask' });
      expect(await saved()).toBe('saved: Ferry at 7:40 from Pier 3 | • Bring *tide tables* | • Flask');
      expect((await tool(jawad, 'get', { ref: notes, what: 'value' })).data).toMatchObject({ result: expect.stringMatching(/^Ferry at 7:40 from Pier 3\s+Bring tide tables\s+Flask$/) });
    });

    it('writes in Quill, which reads what the browser changes back into its own document and makes Enter, Backspace and its formats itself', async () => {
      const { jawad, fixtures } = suite;
      // What the app stores is Quill's document (a Delta), not the page's text.
      const { text, record: saved } = await openEditorApp(jawad, `${fixtures.url}/quill-editor.html`, '#notes .ql-editor', 'Save', '#saved');
      expect(text).toMatch(/^- textbox \[ref=e\d+\] \[editable\] value="Pack the charts\."$/m);
      const notes = findRef(text, 'textbox', /.*/);

      expect((await tool(jawad, 'fill', { ref: notes, text: 'Ferry at 7:40' })).data).toMatchObject({ value: 'Ferry at 7:40' });
      await tool(jawad, 'type_text', { ref: notes, text: ' from Pier 3' });
      expect((await tool(jawad, 'press_key', { ref: notes, keys: 'Enter' })).data).toMatchObject({ result: { defaultPrevented: true } });
      await tool(jawad, 'type_text', { ref: notes, text: 'Bring ' });
      // Its toolbar's names are Quill's own labels; Bold with nothing selected makes what is typed next bold.
      await tool(jawad, 'click', { ref: findRef(text, 'button', 'bold') });
      await tool(jawad, 'type_text', { ref: notes, text: 'tide tablesx' });
      await tool(jawad, 'press_key', { ref: notes, keys: 'Backspace' });
      expect(await saved()).toBe('saved: Ferry at 7:40 from Pier 3 | Bring *tide tables*');
      await tool(jawad, 'click', { ref: findRef(text, 'button', 'list: bullet') });
      await tool(jawad, 'press_key', { ref: notes, keys: 'Enter' });
      await tool(jawad, 'type_text', { ref: notes, text: 'Flask' });
      expect(await saved()).toBe('saved: Ferry at 7:40 from Pier 3 | • Bring *tide tables* | • Flask');
    });

    it('writes in Trix, a custom element with a toolbar of its own, and the form sends the HTML it keeps in a hidden field', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/trix-editor.html`);
      await page.waitForSelector('trix-editor[trix-id]');
      const text = await snapshotText(jawad);
      expect(text).toMatch(/^- textbox "Message" \[ref=e\d+\] \[editable\] value="Thanks for writing\."$/m);
      const message = findRef(text, 'textbox', 'Message');

      expect((await tool(jawad, 'fill', { ref: message, text: 'Ferry at 7:40' })).data).toMatchObject({ value: 'Ferry at 7:40' });
      await tool(jawad, 'type_text', { ref: message, text: ' from Pier 3' });
      await tool(jawad, 'press_key', { ref: message, keys: 'Enter' });
      await tool(jawad, 'type_text', { ref: message, text: 'Bring ' });
      await tool(jawad, 'click', { ref: findRef(text, 'button', 'Bold') });
      expect((await tool(jawad, 'type_text', { ref: message, text: 'tide tables' })).data).toMatchObject({ value: 'Ferry at 7:40 from Pier 3\nBring tide tables' });

      expect((await tool(jawad, 'click', { ref: findRef(text, 'button', 'Send reply') })).data?.navigates).toBe(true);
      // What the server got: Trix's HTML, every step in it (Return in Trix breaks the line inside the block).
      expect(sentField(fixtures, '/trix-editor.html', 'message')).toBe('<div>Ferry at 7:40 from Pier 3<br>Bring&nbsp;<strong>tide tables</strong></div>');
    });

    it('answers a click only once the view it loaded by script is on the page, with what that view fetched in turn', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/ajax-views.html`);
      const before = await tool(jawad, 'snapshot');
      const orders = findRef(before.data?.text ?? '', 'link', 'Orders');
      expect(orders, before.data?.text).toBeDefined();

      const click = await tool(jawad, 'click', { ref: orders });
      expect(click.success, JSON.stringify(click.error)).toBe(true);
      expect(click.data).not.toHaveProperty('unansweredRequests');
      // The next thing a model reads: the orders (700 ms away on the server) and the count their
      // script fetched, with every request answered (none waited out to the limit).
      const snapshot = await tool(jawad, 'snapshot');
      expect(snapshot.data).not.toHaveProperty('unansweredRequests');
      const after = snapshot.data?.text ?? '';
      expect(after).toContain('Alan Turing');
      expect(after).toContain('Open orders: 2');
      expect(after).not.toContain('Loading…');
    });

    it('reads a page a link or an address opened once the list that page loads by script is there', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/ajax-views.html`);
      const text = await snapshotText(jawad);
      const click = await tool(jawad, 'click', { ref: findRef(text, 'link', 'Customers') });
      expect(click.data?.navigatedTo).toMatch(/ajax-customers\.html$/);
      const after = await snapshotText(jawad);
      expect(after).toContain('Grace Hopper');
      expect(after).not.toContain('Loading…');

      // The same page opened by address: read once its list came.
      expect((await tool(jawad, 'open_url', { url: `${fixtures.url}/ajax-views.html` })).success).toBe(true);
      expect((await tool(jawad, 'open_url', { url: `${fixtures.url}/ajax-customers.html` })).success).toBe(true);
      const opened = await snapshotText(jawad);
      expect(opened).toContain('Grace Hopper');
      expect(opened).not.toContain('Loading…');
    });

    it('follows a dropdown, a tick box, a field or a button whose own script opens another page, and reads that page', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/jump-menus.html`);
      // Each page is 1.2 s away on the server: the action's answer comes once it is there, and the
      // snapshot read right after it is of that page, not of the one left.
      const actThenRead = async (name: string, role: string, accessibleName: string, parameters: Record<string, unknown>) => {
        const before = await snapshotText(jawad);
        const reply = await tool(jawad, name, { ref: findRef(before, role, accessibleName), ...parameters });
        expect(reply.success, JSON.stringify(reply.error)).toBe(true);
        // The page itself said it was leaving (no link, no submit event): the wait for the next page
        // does not hang on when the browser reports it loading.
        expect(reply.data?.navigates, accessibleName).toBe(true);
        return { opened: String(reply.data?.navigatedTo), after: await snapshotText(jawad) };
      };

      const chosen = await actThenRead('select_option', 'combobox', 'Show', { option: 'Closed orders' });
      expect(chosen.opened).toMatch(/jump-menus\.html\?ms=1200&show=closed$/);
      expect(chosen.after).toContain('Showing closed orders.');

      const ticked = await actThenRead('check', 'checkbox', 'Only my orders', {});
      expect(ticked.opened).toMatch(/mine=1$/);
      expect(ticked.after).toContain('Showing my orders only.');

      const filled = await actThenRead('fill', 'spinbutton', 'Page', { text: '3' });
      expect(filled.opened).toMatch(/page=3$/);
      expect(filled.after).toContain('Showing page 3.');

      const clicked = await actThenRead('click', 'button', 'Archived orders', {});
      expect(clicked.opened).toMatch(/archived=1$/);
      expect(clicked.after).toContain('Showing the archive.');
    });

    it('stays in a single-page app whose router takes over its navigations (the Navigation API’s intercept), and reads the view it fetched', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/navigation-app.html`);
      const actThenRead = async (role: string, name: string) => {
        const reply = await tool(jawad, 'click', { ref: findRef(await snapshotText(jawad), role, name) });
        expect(reply.success, JSON.stringify(reply.error)).toBe(true);
        return { reply: reply.data, after: await snapshotText(jawad) };
      };
      // A link the router takes over, and a button whose script navigates: the document stays.
      for (const [role, name, shown, address] of [['link', 'Archive', '2 conversations.', /view=archive$/], ['button', 'Newest in the archive', '1 conversation.', /view=newest$/]] as const) {
        const { reply, after } = await actThenRead(role, name);
        expect(reply?.navigates, name).toBeUndefined();
        // Where the tab now is, in both browsers (Chromium reports the move as a load, Firefox does not).
        expect(reply?.navigatedTo, name).toMatch(address);
        expect(after).toContain(shown);
        expect(page.url()).toMatch(address);
      }
      // A link the router leaves to the browser still opens its page.
      const help = await actThenRead('link', 'Help');
      expect(help.reply).toMatchObject({ navigates: true, navigatedTo: expect.stringMatching(/\/plain\.html$/) });
    });

    it('reads a page that rebuilds its navigation by script a moment after it loaded once it has, so its links can be clicked', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/ajax-views.html`);
      const text = await snapshotText(jawad);
      const click = await tool(jawad, 'click', { ref: findRef(text, 'link', 'Databases') });
      expect(click.data?.navigatedTo).toMatch(/ajax-tree-later\.html$/);
      // Read at once, as a scripted agent does: the tree the page's script built, not the one it replaced.
      const after = await snapshotText(jawad);
      expect(after).toContain('information_schema');
      const shop = await tool(jawad, 'click', { ref: findRef(after, 'link', 'shop') });
      expect(shop.success, JSON.stringify(shop.error)).toBe(true);
      expect(await page.$eval('#status', (el) => el.textContent)).toBe('Opened shop.');

      // The same page opened by address, and reloaded.
      expect((await tool(jawad, 'open_url', { url: `${fixtures.url}/ajax-tree-later.html?again` })).success).toBe(true);
      expect(await snapshotText(jawad)).toContain('information_schema');
      expect((await tool(jawad, 'reload_tab')).success).toBe(true);
      expect(await snapshotText(jawad)).toContain('information_schema');
    });

    it('on a page its service worker serves (Workbox), reloads without waiting out the load and waits for what the worker fetches for a click', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/offline-notes/index.html`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      // The worker fetches each page itself (Workbox's NetworkFirst): Firefox never tells that load's end.
      for (const [name, parameters, opened] of [['reload_tab', {}, 2], ['open_url', { url: page.url() }, 3]] as const) {
        const started = Date.now();
        const reply = await tool(jawad, name, parameters);
        expect(reply.success, JSON.stringify(reply.error)).toBe(true);
        expect(reply.data?.stillLoading, name).toBeUndefined();
        expect(Date.now() - started, `${name} is not held to the 8 s bound of a page that never loads`).toBeLessThan(4_000);
        expect(await snapshotText(jawad)).toContain(`Opened ${opened} times in this tab.`);
      }

      // The notes come 0.7 s later, fetched by the worker: the click's answer waits for them, as it
      // does for the page's own requests, and does not wait out a request whose end is never told.
      const text = await snapshotText(jawad);
      expect(text).toContain('Offline copy: ready.');
      const click = await tool(jawad, 'click', { ref: findRef(text, 'button', 'Load notes') });
      expect(click.success, JSON.stringify(click.error)).toBe(true);
      expect(click.data?.unansweredRequests).toBeUndefined();
      const after = await snapshotText(jawad);
      expect(after).toContain('3 notes.');
      expect(after).toContain('Call the plumber about the boiler');
    });

    it('reads the form a click loaded into a frame, whether a link’s target or a script sent the frame there', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/ajax-views.html`);
      const text = await snapshotText(jawad);
      expect(text).toContain('Choose Profile or Settings.');

      // Clicks, checks the page itself stayed where it was (Chromium reports a frame's loading as the
      // tab's) and that nothing was left unanswered, then reads at once, as a fast client does.
      const clickAndRead = async (before: string, role: string, name: string) => {
        const click = await tool(jawad, 'click', { ref: findRef(before, role, name) });
        expect(click.success, JSON.stringify(click.error)).toBe(true);
        for (const key of ['navigates', 'navigatedTo', 'unansweredRequests']) expect(click.data, name).not.toHaveProperty(key);
        return await snapshotText(jawad);
      };

      // Each form is 400 ms away on the server.
      const withProfile = await clickAndRead(text, 'link', 'Profile');
      expect(withProfile).toMatch(/textbox "Display name" \[?ref=f\d+e\d+/);
      expect(withProfile).not.toContain('Choose Profile or Settings.');

      const withSettings = await clickAndRead(withProfile, 'button', 'Settings');
      expect(withSettings).toMatch(/combobox "Time zone" \[?ref=f\d+e\d+/);
      expect(withSettings).not.toContain('Display name');

      // A form whose answer opens in the panel: the page itself is not left.
      const withMessage = await clickAndRead(withSettings, 'button', 'Find in panel');
      expect(withMessage).toContain('Your account is ready: the first invoice comes on the 3rd.');
    });

    it('reads what a link the page took over shows a moment later, by a timer, as a list that tells a click from a double click does', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/ajax-views.html`);
      const text = await snapshotText(jawad);
      const click = await tool(jawad, 'click', { ref: findRef(text, 'link', 'Latest message') });
      expect(click.success, JSON.stringify(click.error)).toBe(true);
      expect(click.data).not.toHaveProperty('linkTakenOver');
      // Read at once: the page starts loading the message 60 ms after the click, 200 ms away on the server.
      const after = await snapshotText(jawad);
      expect(after).toContain('Your account is ready: the first invoice comes on the 3rd.');
      expect(after).not.toContain('Choose Profile or Settings.');
    });

    it('reads what a link the page took over shows a moment later when the page is busy past that moment', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/ajax-views.html`);
      const text = await snapshotText(jawad);
      const click = await tool(jawad, 'click', { ref: findRef(text, 'link', 'Pinned message') });
      expect(click.success, JSON.stringify(click.error)).toBe(true);
      // The page is busy for 300 ms from 20 ms after the click: its 60 ms timer fires only after that.
      const after = await snapshotText(jawad);
      expect(after).toContain('Your account is ready: the first invoice comes on the 3rd.');
    });

    it('takes a snapshot once the page shows what a job reports a second later, in its frame too, and says when it never came', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/ajax-views.html`);
      const publish = findRef(await snapshotText(jawad), 'button', 'Publish site');
      expect((await tool(jawad, 'click', { ref: publish })).success).toBe(true);
      // The page asks how the job went a second after the click, then loads the report into the panel.
      const report = await tool(jawad, 'snapshot', { waitForText: '3 pages PUBLISHED, 0 errors' });
      expect(report.success, JSON.stringify(report.error)).toBe(true);
      expect(report.data?.text).toContain('3 pages published, 0 errors.');
      expect(report.data?.text).toContain('Published: 3 pages.');
      expect(report.data?.waited).toMatchObject({ text: '3 pages PUBLISHED, 0 errors', met: true });
      expect(Number(report.data?.waited?.ms)).toBeGreaterThan(500);

      // Text that never comes: the page as it stands once the time is up, and the wait marked unmet.
      const never = await tool(jawad, 'snapshot', { waitForText: 'Publish failed', waitSeconds: 0.5 });
      expect(never.data?.waited).toMatchObject({ text: 'Publish failed', met: false });
      expect(Number(never.data?.waited?.ms)).toBeGreaterThanOrEqual(500);
      expect(never.data?.text).toContain('Published: 3 pages.');

      // And the other way round: until a status line is gone.
      expect((await tool(jawad, 'click', { ref: publish })).success).toBe(true);
      const done = await tool(jawad, 'snapshot', { waitForTextGone: 'Publishing…' });
      expect(done.data?.waited).toMatchObject({ gone: 'Publishing…', met: true });
      expect(done.data?.text).not.toContain('Publishing…');
      expect(done.data?.text).toContain('Published: 3 pages.');
    });

    it('ends a wait when the page sends the tab to another site, and gives nothing of that site', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/ajax-views.html`);
      const elsewhere = `${fixtures.url.replace('127.0.0.1', 'localhost')}/plain.html`;
      // The page sends itself elsewhere while the snapshot waits for text the other site shows.
      await page.evaluate((to) => void setTimeout(() => (location.href = to), 600), elsewhere);
      const waited = await tool(jawad, 'snapshot', { waitForText: 'High water at Avonmouth' });
      expect(waited.success).toBe(false);
      expect(waited.error).toMatchObject({ code: 'TARGET_CHANGED', message: expect.stringContaining('http://localhost') });
      expect(JSON.stringify(waited)).not.toContain('Avonmouth today');
      expect(page.url()).toBe(elsewhere);
    });

    it('answers the page’s own alert, confirmation and prompt boxes during an action and in the page’s answer to it instead of being held by them, and leaves the user’s own alone', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/dialogs.html`);
      const text = await snapshotText(jawad);
      const click = async (name: string, extra: Record<string, unknown> = {}) => {
        const reply = await tool(jawad, 'click', { ref: findRef(text, 'button', name), ...extra });
        expect(reply.success, JSON.stringify(reply.error)).toBe(true);
        return { dialogs: reply.data?.dialogs, status: await page.$eval('#status', (el) => el.textContent) };
      };
      expect(await click('Show tip')).toEqual({ dialogs: [{ kind: 'alert', message: 'Drafts are kept for 30 days.', answered: 'ok' }], status: 'Tip shown.' });
      expect(await click('Delete draft')).toEqual({ dialogs: [{ kind: 'confirm', message: 'Delete the draft “Q3 plan”?', answered: 'cancel' }], status: 'Draft kept.' });
      expect(await click('Delete draft', { acceptDialog: true })).toEqual({ dialogs: [{ kind: 'confirm', message: 'Delete the draft “Q3 plan”?', answered: 'accept' }], status: 'Draft deleted.' });
      expect(await click('Rename draft')).toMatchObject({ dialogs: [{ kind: 'prompt', answered: 'cancel' }], status: 'Rename cancelled.' });
      expect(await click('Rename draft', { acceptDialog: true })).toMatchObject({ status: 'Renamed to Q3 plan v2.' });
      expect(await click('Rename draft', { acceptDialog: true, dialogText: 'Q4 plan' })).toEqual({ dialogs: [{ kind: 'prompt', message: 'New name for the draft?', answered: 'accept' }], status: 'Renamed to Q4 plan.' });

      // Boxes in the page's answer to the request a click made, shown after the click itself was
      // done: told by the click, or (when the browser reported the request only after the click
      // returned, as Firefox may) by the next step.
      const clickThenLook = async (name: string, extra: Record<string, unknown> = {}) => {
        const { dialogs = [] } = await click(name, extra);
        const { lateDialogs = [], text: outline = '' } = (await tool(jawad, 'snapshot')).data ?? {};
        return { told: [...dialogs, ...lateDialogs], status: /Saved\.|Kept yours\.|Replaced with the server’s copy\./.exec(outline)?.[0] };
      };
      const late = { answered: 'ok', afterAction: true };
      expect(await clickThenLook('Save draft')).toEqual({ told: [{ kind: 'alert', message: 'Draft saved.', ...late }], status: 'Saved.' });
      expect(await clickThenLook('Sync draft')).toEqual({ told: [{ kind: 'confirm', message: 'The server has a newer copy. Replace yours with it?', ...late, answered: 'cancel' }], status: 'Kept yours.' });
      expect(await clickThenLook('Sync draft', { acceptDialog: true })).toMatchObject({ told: [{ kind: 'confirm', answered: 'accept', afterAction: true }], status: 'Replaced with the server’s copy.' });

      // A box on a timer, after the click's step returned: answered, and told by the next step.
      expect((await click('Autosave')).dialogs).toBeUndefined();
      await expect.poll(() => page.$eval('#status', (el) => el.textContent)).toBe('Autosaved.');
      expect((await tool(jawad, 'snapshot')).data?.lateDialogs).toEqual([{ kind: 'alert', message: 'Autosaved.', ...late }]);

      // The user's own click, right after a step that accepted a box, while Jawad still answers the
      // page's: the box it raises is the browser's own, for the user to answer.
      const boxes: string[] = [];
      page.on('dialog', (dialog) => void (boxes.push(dialog.message()), dialog.dismiss()));
      await click('Rename draft', { acceptDialog: true });
      await page.click('#delete');
      await expect.poll(() => page.$eval('#status', (el) => el.textContent)).toBe('Draft kept.');
      expect(boxes).toEqual(['Delete the draft “Q3 plan”?']);

      // Once the next step has come, even the page's own boxes are the browser's again.
      await tool(jawad, 'snapshot');
      await page.evaluate(() => void setTimeout(() => (document.getElementById('status')!.textContent = `Yours: ${confirm('Is this yours?')}`)));
      await expect.poll(() => page.$eval('#status', (el) => el.textContent)).toMatch(/^Yours: /);
      expect({ boxes, status: await page.$eval('#status', (el) => el.textContent) }).toEqual({ boxes: ['Delete the draft “Q3 plan”?', 'Is this yours?'], status: 'Yours: false' });

      // A form the page guards with a confirmation: cancelled, it is not sent; accepted, it is.
      const kept = await tool(jawad, 'click', { ref: findRef(text, 'button', 'Send to everyone') });
      expect(kept.data).not.toHaveProperty('navigates');
      expect(page.url()).not.toContain('sent=1');
      const sent = await tool(jawad, 'click', { ref: findRef(text, 'button', 'Send to everyone'), acceptDialog: true });
      expect(sent.data).toMatchObject({ navigates: true, dialogs: [{ kind: 'confirm', answered: 'accept' }] });
      expect(await page.$eval('#status', (el) => el.textContent)).toBe('Sent to everyone.');
    });

    it('answers the boxes a page the action opened shows as it loads, with the action’s answers, and tells them with the next step', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/dialogs.html`);
      // A box that reaches the browser is dismissed here and listed, so a miss fails instead of hanging.
      const boxes: string[] = [];
      page.on('dialog', (dialog) => void (boxes.push(dialog.message()), dialog.dismiss()));
      const clickToOpen = async (name: string, extra: Record<string, unknown> = {}) => {
        const text = await snapshotText(jawad);
        const reply = await tool(jawad, 'click', { ref: findRef(text, 'button', name), ...extra });
        expect(reply.success, JSON.stringify(reply.error)).toBe(true);
        const after = (await tool(jawad, 'snapshot')).data;
        return { opened: reply.data?.navigatedTo, told: [...(reply.data?.dialogs ?? []), ...(after?.lateDialogs ?? [])], outline: after?.text ?? '' };
      };
      const late = { afterAction: true };

      // The answer page's frame (same site) shows a box as it loads too: answered, not told as the page's.
      const quietly = await clickToOpen('Publish draft');
      expect(quietly.opened).toContain('/dialogs-published.html');
      expect(quietly.told).toEqual([
        { kind: 'confirm', message: 'Notify the 12 followers?', answered: 'cancel', ...late },
        { kind: 'alert', message: 'Published quietly.', answered: 'ok', ...late },
      ]);
      expect(quietly.outline).toContain('Nobody notified.');

      await page.goto(`${fixtures.url}/dialogs.html`);
      const notified = await clickToOpen('Publish draft', { acceptDialog: true });
      expect(notified.told).toEqual([
        { kind: 'confirm', message: 'Notify the 12 followers?', answered: 'accept', ...late },
        { kind: 'alert', message: 'Published, and the followers notified.', answered: 'ok', ...late },
      ]);
      expect(notified.outline).toContain('Followers notified.');

      // The page says it in an alert and sends the tab on at once: the box is told all the same.
      await page.goto(`${fixtures.url}/dialogs.html`);
      const archived = await clickToOpen('Archive draft');
      expect(archived.told).toEqual([{ kind: 'alert', message: 'The draft was moved to the archive.', answered: 'ok', ...late }]);
      expect(archived.outline).toContain('Draft archived.');
      expect(boxes).toEqual([]);

      // After the next step the answers are gone: the same page opened by the user shows the browser's own boxes.
      await page.goto(`${fixtures.url}/dialogs-published.html`);
      await expect.poll(() => boxes).toEqual(['Notify the 12 followers?', 'Published quietly.', '12 followers.']);
    });

    it('answers the boxes a page a tool opens shows as it loads (open_url, reload_tab, new_tab), tells them with the next step (snapshot or read_page), and leaves the tab’s later pages theirs', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/dialogs.html`);
      // A box that reaches the browser is dismissed here and listed, so a miss fails instead of hanging.
      const boxes: string[] = [];
      page.on('dialog', (dialog) => void (boxes.push(dialog.message()), dialog.dismiss()));
      const published = `${fixtures.url}/dialogs-published.html`;
      // The next step tells them, whether it reads the outline or the page's text.
      const openWith = async (name: string, parameters: Record<string, unknown>, reader: 'snapshot' | 'read_page' = 'snapshot') => {
        const reply = await tool(jawad, name, parameters);
        expect(reply.success, JSON.stringify(reply.error)).toBe(true);
        const after = await tool(jawad, reader);
        expect(after.success, JSON.stringify(after.error)).toBe(true);
        const read = String(after.data?.text ?? after.data?.markdown);
        return { stillLoading: reply.data?.stillLoading, told: after.data?.lateDialogs, notified: /(Nobody|Followers) notified\./.exec(read)?.[0] };
      };
      // The page's frame (same site) shows a box as it loads too: answered, not told as the page's.
      const quietly = {
        stillLoading: undefined,
        told: [
          { kind: 'confirm', message: 'Notify the 12 followers?', answered: 'cancel', afterAction: true, openedByTool: true },
          { kind: 'alert', message: 'Published quietly.', answered: 'ok', afterAction: true, openedByTool: true },
        ],
        notified: 'Nobody notified.',
      };
      expect(await openWith('open_url', { url: published })).toEqual(quietly);
      expect(await openWith('reload_tab', {}, 'read_page')).toEqual(quietly);
      expect(await openWith('new_tab', { url: published })).toEqual(quietly);
      expect(boxes).toEqual([]);

      // Once the tools' waits are over, a page the user opens in the tab shows the browser's own boxes.
      await page.goto(published);
      await expect.poll(() => boxes).toEqual(['Notify the 12 followers?', 'Published quietly.', '12 followers.']);
    });

    it('does not wait for a request the page had open before the action, and stops waiting for one that never answers, saying so', async () => {
      const { jawad, fixtures } = suite;
      const page = await jawad.openTab(`${fixtures.url}/ajax-views.html`);
      const text = await snapshotText(jawad);

      const note = await tool(jawad, 'click', { ref: findRef(text, 'button', 'Add note') });
      expect(note.data).toMatchObject({ action: 'click' });
      expect(note.data).not.toHaveProperty('unansweredRequests');
      expect(await page.$eval('#status', (el) => el.textContent)).toBe('Note added.');

      const stuck = await tool(jawad, 'click', { ref: findRef(text, 'button', 'Export all') });
      expect(stuck.success, JSON.stringify(stuck.error)).toBe(true);
      // Told once, by the click or (when the browser reported the request after the page answered,
      // as Firefox does) by the snapshot that waited for it; a second snapshot does not wait again.
      const after = await tool(jawad, 'snapshot');
      const told = Number(stuck.data?.unansweredRequests ?? 0) + Number(after.data?.unansweredRequests ?? 0);
      expect(told).toBe(1);
      expect(after.data?.text).toContain('Exporting…');
      expect((await tool(jawad, 'snapshot')).data).not.toHaveProperty('unansweredRequests');
    });
  });
}
