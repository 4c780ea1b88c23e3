/**
 * Actions against real React 18 and Vue 3 apps, custom ARIA widgets and a model-driven rich-text
 * editor, in real browsers. Every check reads what the app itself rendered from its own state
 * (React state, Vue's reactive data, the widgets' state, the editor's document model), never the
 * DOM value the action wrote.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { browsersUnderTest, sleep, type JawadBrowser } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { runTool, type ToolReply } from './support/run-tool';

type Data = Record<string, unknown> & { refs?: Array<{ ref: string; testid?: string }> };
const tool = (jawad: JawadBrowser, name: string, parameters: Record<string, unknown> = {}) => runTool<Data>(jawad, name, parameters);

/** Runs a tool that must succeed and returns what it reported. */
async function ok(jawad: JawadBrowser, name: string, parameters: Record<string, unknown>): Promise<Data> {
  const reply = await tool(jawad, name, parameters);
  expect(reply.success, `${name} ${JSON.stringify(parameters)}: ${JSON.stringify(reply.error)}`).toBe(true);
  return reply.data!;
}

async function refsByTestId(jawad: JawadBrowser): Promise<Record<string, string>> {
  const snapshot = await ok(jawad, 'snapshot', {});
  return Object.fromEntries((snapshot.refs ?? []).filter((r) => r.testid).map((r) => [r.testid!, r.ref]));
}

const rendered = (page: Page, testid: string) => page.$eval(`[data-testid="${testid}"]`, (el) => el.textContent ?? '');

/** The app's state as the app rendered it (JSON in a <pre>). */
async function appState(page: Page, testid = 'state'): Promise<Record<string, unknown>> {
  return JSON.parse(await rendered(page, testid)) as Record<string, unknown>;
}

/** Opens a fixture and waits until its framework has rendered the state for the first time. */
async function openApp(jawad: JawadBrowser, url: string): Promise<Page> {
  const page = await jawad.openTab(url);
  const deadline = Date.now() + 10_000;
  while (!(await page.$eval('[data-testid="state"], [data-testid="model"]', (el) => (el.textContent ?? '').trim().startsWith('{') || (el.textContent ?? '').trim().startsWith('[')).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${url} never rendered its state`);
    await sleep(50);
  }
  return page;
}

function expectNoOption(reply: ToolReply<Data>, wanted: string, someOption: { value: string; text: string }): void {
  expect(reply.success).toBe(false);
  expect(reply.error?.code).toBe('NOT_FOUND');
  expect(reply.error?.message).toContain(`has no option “${wanted}”`);
  expect(reply.error?.details).toMatchObject({ options: expect.arrayContaining([someOption]) });
}

for (const browserName of browsersUnderTest()) {
  describe(`actions on real apps in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('fills, types, selects and ticks a React 18 form so that React state has every value, then submits it', async () => {
      const { jawad, fixtures } = suite;
      const page = await openApp(jawad, `${fixtures.url}/react-app.html`);
      const refs = await refsByTestId(jawad);
      expect(Object.keys(refs)).toEqual(expect.arrayContaining(['full-name', 'email', 'about', 'country', 'plan-plus', 'newsletter', 'terms', 'open-account']));

      expect(await ok(jawad, 'fill', { ref: refs['full-name'], text: 'Ada Lovelace' })).toMatchObject({ value: 'Ada Lovelace' });
      await ok(jawad, 'fill', { ref: refs.email, text: 'ada@example.org' });
      await ok(jawad, 'fill', { ref: refs.about, text: 'Savings\nand travel' });
      expect(await ok(jawad, 'select_option', { ref: refs.country, option: 'new zealand' })).toMatchObject({ value: 'New Zealand' });
      expect(await appState(page)).toMatchObject({ fullName: 'Ada Lovelace', email: 'ada@example.org', about: 'Savings\nand travel', country: 'NZ' });

      expect(await ok(jawad, 'select_option', { ref: refs.country, option: 'NO' })).toMatchObject({ value: 'Norway' });
      expect(await appState(page)).toMatchObject({ country: 'NO' });
      expectNoOption(await tool(jawad, 'select_option', { ref: refs.country, option: 'Atlantis' }), 'Atlantis', { value: 'PT', text: 'Portugal' });
      expect(await appState(page)).toMatchObject({ country: 'NO' });

      expect(await ok(jawad, 'type_text', { ref: refs['full-name'], text: ' King' })).toMatchObject({ value: 'Ada Lovelace King' });
      expect(await appState(page)).toMatchObject({ fullName: 'Ada Lovelace King' });
      expect(await ok(jawad, 'press_key', { ref: refs['full-name'], keys: 'Backspace' })).toMatchObject({ result: { effect: 'deleted' } });
      expect(await appState(page)).toMatchObject({ fullName: 'Ada Lovelace Kin' });

      expect(await ok(jawad, 'check', { ref: refs['plan-plus'] })).toMatchObject({ checked: true });
      expect(await ok(jawad, 'check', { ref: refs.newsletter })).toMatchObject({ checked: true });
      // The terms checkbox is a 1px screen-reader-only input; a person clicks its label.
      expect(await ok(jawad, 'check', { ref: refs.terms })).toMatchObject({ checked: true });
      expect(await appState(page)).toMatchObject({ plan: 'plus', newsletter: true, terms: true });
      expect(await ok(jawad, 'uncheck', { ref: refs.newsletter })).toMatchObject({ checked: false });
      expect(await appState(page)).toMatchObject({ newsletter: false });

      await ok(jawad, 'click', { ref: refs['open-account'] });
      expect(JSON.parse(await rendered(page, 'submitted'))).toEqual({
        fullName: 'Ada Lovelace Kin', email: 'ada@example.org', about: 'Savings\nand travel', country: 'NO', plan: 'plus', newsletter: false, terms: true,
      });
    });

    it('drives a Vue 3 form through v-model (trim, number, lazy) and its component-level custom select', async () => {
      const { jawad, fixtures } = suite;
      const page = await openApp(jawad, `${fixtures.url}/vue-app.html`);
      const refs = await refsByTestId(jawad);

      await ok(jawad, 'fill', { ref: refs.name, text: '  Grace Hopper  ' });
      await ok(jawad, 'fill', { ref: refs.email, text: 'grace@example.org' });
      await ok(jawad, 'fill', { ref: refs.guests, text: '3' });
      await ok(jawad, 'fill', { ref: refs.promo, text: 'SAIL10' });
      await ok(jawad, 'type_text', { ref: refs.notes, text: 'Vegan lunch, please' });
      expect(await appState(page)).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.org', guests: 3, promo: 'SAIL10', notes: 'Vegan lunch, please' });

      expect(await ok(jawad, 'select_option', { ref: refs.session, option: 'evening' })).toMatchObject({ value: 'Evening — night navigation' });
      expect(await appState(page)).toMatchObject({ session: 'eve' });
      await ok(jawad, 'select_option', { ref: refs.session, option: 'am' });
      expect(await appState(page)).toMatchObject({ session: 'am' });

      // The custom select: a combobox button whose listbox exists only while open.
      expect(await ok(jawad, 'select_option', { ref: refs.shirt, option: 'Large' })).toMatchObject({ value: 'Large' });
      expect(await appState(page)).toMatchObject({ shirt: 'l' });
      expect(await ok(jawad, 'select_option', { ref: refs.shirt, option: 'xl' })).toMatchObject({ value: 'Extra large' });
      expect(await appState(page)).toMatchObject({ shirt: 'xl' });
      const soldOut = await tool(jawad, 'select_option', { ref: refs.shirt, option: 'XXL' });
      expect(soldOut.error?.code).toBe('EXECUTION_ERROR');
      expect(soldOut.error?.message).toContain('is disabled');
      expectNoOption(await tool(jawad, 'select_option', { ref: refs.shirt, option: 'Huge' }), 'Huge', { value: 'm', text: 'Medium chest 96–101 cm' });
      expect(await appState(page)).toMatchObject({ shirt: 'xl' });
      expect(await page.$('[role=listbox]'), 'the list it opened is closed again').toBeNull();

      await ok(jawad, 'check', { ref: refs['ticket-student'] });
      await ok(jawad, 'check', { ref: refs['diet-vegan'] });
      await ok(jawad, 'check', { ref: refs['diet-gluten-free'] });
      await ok(jawad, 'check', { ref: refs.photos });
      await ok(jawad, 'uncheck', { ref: refs['diet-vegan'] });
      expect(await appState(page)).toMatchObject({ ticket: 'student', diet: ['gluten-free'], photos: true });

      await ok(jawad, 'press_key', { ref: refs.email, keys: 'Enter' });
      expect(JSON.parse(await rendered(page, 'submitted'))).toEqual({
        name: 'Grace Hopper', email: 'grace@example.org', guests: 3, notes: 'Vegan lunch, please', session: 'am', shirt: 'xl', ticket: 'student', diet: ['gluten-free'], photos: true, promo: 'SAIL10',
      });
    });

    it('chooses in ARIA listboxes, comboboxes and popups by value or text, and lists the options when none fits', async () => {
      const { jawad, fixtures } = suite;
      const page = await openApp(jawad, `${fixtures.url}/widgets.html`);
      const refs = await refsByTestId(jawad);

      // A standalone listbox.
      expect(await ok(jawad, 'select_option', { ref: refs.speed, option: 'express' })).toMatchObject({ value: 'Express — next day' });
      await ok(jawad, 'select_option', { ref: refs.speed, option: 'courier' });
      expect(await appState(page)).toMatchObject({ speed: 'courier' });
      expect((await tool(jawad, 'select_option', { ref: refs.speed, option: 'Pick up' })).error?.message).toContain('is disabled');

      // Multi-select: choosing adds, and choosing again does not untick.
      await ok(jawad, 'select_option', { ref: refs.interests, option: 'Hiking' });
      await ok(jawad, 'select_option', { ref: refs.interests, option: 'museums' });
      expect(await ok(jawad, 'select_option', { ref: refs.interests, option: 'Hiking' })).toMatchObject({ value: 'Hiking, Museums' });
      expect(await appState(page)).toMatchObject({ interests: ['hiking', 'museums'] });

      // A select-only combobox, by option id and by a part of the text; a part that fits two is refused.
      expect(await ok(jawad, 'select_option', { ref: refs.colour, option: 'colour-teal' })).toMatchObject({ value: 'Teal' });
      expect(await appState(page)).toMatchObject({ colour: 'teal' });
      await ok(jawad, 'select_option', { ref: refs.colour, option: 'sunset' });
      expect(await appState(page)).toMatchObject({ colour: 'sunset-orange' });
      const vague = await tool(jawad, 'select_option', { ref: refs.colour, option: 'ange' });
      expect(vague.error?.code).toBe('VALIDATION_ERROR');
      expect(vague.error?.details).toMatchObject({ options: [{ text: 'Sunset orange' }, { text: 'Orange stripe' }] });
      expect(await ok(jawad, 'get', { ref: refs.colour, what: 'value' })).toMatchObject({ result: 'Sunset orange' });

      // An editable combobox that opens on ArrowDown into a portal, then by typing to filter.
      expect(await ok(jawad, 'select_option', { ref: refs.city, option: 'lisbon' })).toMatchObject({ value: 'Lisbon' });
      expect(await appState(page)).toMatchObject({ city: 'Lisbon' });
      expect(await ok(jawad, 'select_option', { ref: refs.city, option: 'POR' })).toMatchObject({ value: 'Porto' });
      expect(await appState(page)).toMatchObject({ city: 'Porto' });
      const atlantis = await tool(jawad, 'select_option', { ref: refs.city, option: 'Atlantis' });
      expect(atlantis.error?.code).toBe('NOT_FOUND');
      expect(atlantis.error?.message).toContain('“Porto”');
      expect(await page.$eval('#city', (el) => (el as HTMLInputElement).value), 'what was typed to search is taken back').toBe('Porto');

      // A button whose popup listbox it does not name.
      expect(await ok(jawad, 'select_option', { ref: refs.sort, option: 'Guest rating' })).toMatchObject({ value: 'Guest rating' });
      await ok(jawad, 'select_option', { ref: refs.sort, option: 'price-asc' });
      expect(await appState(page)).toMatchObject({ sort: 'price-asc' });
      expectNoOption(await tool(jawad, 'select_option', { ref: refs.sort, option: 'Distance' }), 'Distance', { value: 'rating', text: 'Guest rating' });

      // Native datalist, switch and tabs.
      expect(await ok(jawad, 'select_option', { ref: refs.browser, option: 'firefox' })).toMatchObject({ value: 'Firefox' });
      expect(await ok(jawad, 'check', { ref: refs.alerts })).toMatchObject({ checked: true });
      await ok(jawad, 'click', { ref: refs['tab-insurance'] });
      expect(await appState(page)).toMatchObject({ browser: 'Firefox', alerts: true, tab: 'insurance' });
      expect(await ok(jawad, 'uncheck', { ref: refs.alerts })).toMatchObject({ checked: false });
      expect(await appState(page)).toMatchObject({ alerts: false });
    });

    it('writes in a model-driven rich-text editor so that its own model, preview and word count follow', async () => {
      const { jawad, fixtures } = suite;
      const page = await openApp(jawad, `${fixtures.url}/editor.html`);
      const refs = await refsByTestId(jawad);
      const model = async () => JSON.parse(await rendered(page, 'model')) as Array<{ type: string; text: string }>;

      await ok(jawad, 'fill', { ref: refs.editor, text: 'Tides and currents\nA field guide' });
      expect(await model()).toEqual([{ type: 'p', text: 'Tides and currents' }, { type: 'p', text: 'A field guide' }]);
      expect(await rendered(page, 'count')).toBe('6 words');

      expect(await ok(jawad, 'type_text', { ref: refs.editor, text: ' for sailors' })).toMatchObject({ value: expect.stringContaining('A field guide for sailors') });
      await ok(jawad, 'press_key', { ref: refs.editor, keys: 'Backspace' });
      await ok(jawad, 'press_key', { ref: refs.editor, keys: 'Enter' });
      await ok(jawad, 'type_text', { ref: refs.editor, text: 'Chapter one' });
      await ok(jawad, 'click', { ref: refs['make-heading'] });
      expect(await model()).toEqual([{ type: 'p', text: 'Tides and currents' }, { type: 'p', text: 'A field guide for sailor' }, { type: 'h2', text: 'Chapter one' }]);
      expect(await rendered(page, 'count')).toBe('10 words');
      expect(await page.$eval('[data-testid=preview]', (el) => Array.from(el.children, (c) => `${c.localName}:${c.textContent}`))).toEqual([
        'p:Tides and currents', 'p:A field guide for sailor', 'h2:Chapter one',
      ]);

      await ok(jawad, 'fill', { ref: refs.editor, text: '' });
      expect(await model()).toEqual([{ type: 'p', text: '' }]);
      expect(await rendered(page, 'count')).toBe('0 words');

      // The simpler kind of editable: the browser edits, the app reads the text on input.
      await ok(jawad, 'fill', { ref: refs.caption, text: 'Low tide at dawn' });
      await ok(jawad, 'type_text', { ref: refs.caption, text: '!' });
      expect(await rendered(page, 'caption-length')).toBe('17 characters: Low tide at dawn!');
      expect(await ok(jawad, 'get', { ref: refs.caption, what: 'value' })).toMatchObject({ result: 'Low tide at dawn!' });
    });
  });
}
