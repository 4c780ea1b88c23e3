/**
 * The tools panel (seed 002's tool tester) drives the one tool registry against real tabs.
 */
import { describe, expect, it } from 'vitest';
import { browsersUnderTest, type JawadBrowser } from './support/extension-browser';
import { openView, useReadyJawad } from './support/flows';

interface PanelResult {
  status: string;
  data: unknown;
  details: unknown;
}

async function runTool(jawad: JawadBrowser, tool: string, fields: Record<string, string> = {}): Promise<PanelResult> {
  await jawad.sidebar.fill('section.tools select[name=tool]', tool);
  await jawad.sidebar.waitFor((win, name) => (win.document.querySelector('section.tools select[name=tool]') as HTMLSelectElement).value === name, tool, `${tool} to be chosen`);
  for (const [name, value] of Object.entries(fields)) await jawad.sidebar.fill(`form.tool-form [name="${name}"]`, value);
  await jawad.sidebar.eval((win) => win.document.querySelector('.tool-result')?.remove(), null);
  await jawad.sidebar.click('form.tool-form button[type=submit]');
  const result = await jawad.sidebar.waitFor(
    (win) => {
      const section = win.document.querySelector('.tool-result');
      if (!section) return undefined;
      const json = (selector: string) => {
        const text = section.querySelector(selector)?.textContent;
        return text ? JSON.parse(text) : undefined;
      };
      return { status: section.querySelector('p')?.textContent ?? '', data: json('.tool-data'), details: json('.tool-details') };
    },
    null,
    `${tool} to finish`,
    20_000,
  );
  return result as PanelResult;
}

async function activeTabUrl(jawad: JawadBrowser): Promise<string> {
  return jawad.host.evaluate(() => browser.tabs.query({ active: true, lastFocusedWindow: true }).then((tabs) => tabs[0]?.url ?? ''));
}

for (const browserName of browsersUnderTest()) {
  describe(`tools panel in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('lists every tool with its permission level and runs them on the current tab', async () => {
      const { jawad, fixtures } = suite;
      const article = await jawad.openTab(`${fixtures.url}/article.html`);
      // A reader touches the page. Browsers skip, on Back, history entries of pages that were left
      // without any user interaction (their history-manipulation intervention).
      await article.click('h1');
      await openView(jawad.sidebar, 'Tools');
      await jawad.sidebar.waitFor((win) => win.document.querySelectorAll('section.tools select[name=tool] option').length > 0, null, 'the tool list');
      const names = await jawad.sidebar.eval((win) => Array.from(win.document.querySelectorAll('section.tools select[name=tool] option')).map((o) => (o as HTMLOptionElement).value), null);
      expect(names.sort()).toEqual([
        'check', 'click', 'close_tab', 'double_click', 'fill', 'focus', 'get', 'go_back', 'go_forward', 'highlight', 'hover', 'is', 'list_tabs',
        'new_tab', 'open_url', 'press_key', 'read_page', 'reload_tab', 'scroll', 'select_option', 'snapshot', 'switch_tab', 'type_text', 'uncheck',
      ]);

      const read = await runTool(jawad, 'read_page', { maxChars: '300' });
      expect(read.status).toMatch(/^read_page succeeded in \d+ ms$/);
      expect(read.data).toMatchObject({ title: 'Tidal Power in the Severn Estuary — Coastal Energy Review', url: `${fixtures.url}/article.html`, truncated: true });
      expect((read.data as { markdown: string }).markdown.length).toBe(300);

      const opened = await runTool(jawad, 'open_url', { url: `${fixtures.url}/plain.html` });
      expect(opened.status).toMatch(/^open_url succeeded/);
      expect(opened.data).toMatchObject({ url: `${fixtures.url}/plain.html`, title: 'Tide tables — Bristol Channel' });
      expect(await activeTabUrl(jawad)).toBe(`${fixtures.url}/plain.html`);

      const back = await runTool(jawad, 'go_back');
      expect(back.data).toMatchObject({ url: `${fixtures.url}/article.html` });
      expect(await activeTabUrl(jawad)).toBe(`${fixtures.url}/article.html`);

      const tabs = (await runTool(jawad, 'list_tabs')).data as Array<{ url: string; active: boolean }>;
      expect(tabs.find((tab) => tab.active)?.url).toBe(`${fixtures.url}/article.html`);

      // An address within the page only scrolls it, opened again too while the tab shows it (nothing loads).
      const section = `${fixtures.url}/article.html#costs`;
      for (const time of ['first', 'again']) {
        const jumped = await runTool(jawad, 'open_url', { url: section });
        expect(jumped.status, time).toMatch(/^open_url succeeded/);
        expect(jumped.data).toMatchObject({ url: section });
      }
    });

    it('goes back and forward between entries a page made of itself at one address (a photo viewer Back closes)', async () => {
      const { jawad, fixtures } = suite;
      const gallery = await jawad.openTab(`${fixtures.url}/photo-viewer.html`);
      // The user opens a photo: the page adds an entry of the same address to the tab's history.
      await gallery.click('text=Severn bore at dawn');
      await gallery.waitForSelector('#viewer:not([hidden])');
      await openView(jawad.sidebar, 'Tools');
      await jawad.sidebar.waitFor((win) => win.document.querySelectorAll('section.tools select[name=tool] option').length > 0, null, 'the tool list');
      const viewerShown = () => gallery.$eval('#viewer', (viewer) => !(viewer as HTMLElement).hidden);

      const back = await runTool(jawad, 'go_back');
      expect(back.status).toMatch(/^go_back succeeded/);
      expect(back.data).toMatchObject({ url: `${fixtures.url}/photo-viewer.html` });
      expect(await viewerShown()).toBe(false);

      const forward = await runTool(jawad, 'go_forward');
      expect(forward.status).toMatch(/^go_forward succeeded/);
      expect(await viewerShown()).toBe(true);
      expect(await gallery.$eval('#caption', (caption) => caption.textContent)).toBe('Showing: Severn bore at dawn');
    });

    it('steps back and forward one page at a time through pages the tools opened, none skipped', async () => {
      const { jawad, fixtures } = suite;
      await openView(jawad.sidebar, 'Tools');
      await jawad.sidebar.waitFor((win) => win.document.querySelectorAll('section.tools select[name=tool] option').length > 0, null, 'the tool list');
      await jawad.openTab(`${fixtures.url}/article.html`);
      for (const page of ['plain.html', 'snapshot-shop.html', 'dialogs.html']) expect((await runTool(jawad, 'open_url', { url: `${fixtures.url}/${page}` })).status).toMatch(/^open_url succeeded/);
      const steps: string[] = [];
      for (const step of ['go_back', 'go_back', 'go_back', 'go_forward', 'go_forward']) {
        const result = await runTool(jawad, step);
        expect(result.status, step).toMatch(new RegExp(`^${step} succeeded`));
        steps.push(`${step} ${new URL(await activeTabUrl(jawad)).pathname}`);
      }
      // Chromium's own Back went past every page a tool opened, to the page before them.
      expect(steps).toEqual(['go_back /snapshot-shop.html', 'go_back /plain.html', 'go_back /article.html', 'go_forward /plain.html', 'go_forward /snapshot-shop.html']);
    });

    it('says so when there is no page to go back or forward to, instead of a step taken', async () => {
      const { jawad, fixtures } = suite;
      await openView(jawad.sidebar, 'Tools');
      await jawad.sidebar.waitFor((win) => win.document.querySelectorAll('section.tools select[name=tool] option').length > 0, null, 'the tool list');
      const opened = await runTool(jawad, 'new_tab', { url: `${fixtures.url}/plain.html` });
      expect(opened.status).toMatch(/^new_tab succeeded/);
      expect((await runTool(jawad, 'go_back')).status).toMatch(/^go_back failed \(EXECUTION_ERROR\) in \d+ ms: There is no earlier page in this tab’s history to go back to\.$/);
      expect((await runTool(jawad, 'go_forward')).status).toMatch(/^go_forward failed \(EXECUTION_ERROR\) in \d+ ms: There is no later page in this tab’s history to go forward to\.$/);
      expect(await activeTabUrl(jawad)).toBe(`${fixtures.url}/plain.html`);
    });

    it('refuses bad parameters and unknown tools with the standard error codes', async () => {
      const { jawad } = suite;
      const before = await activeTabUrl(jawad);
      const refused = await runTool(jawad, 'open_url', { url: 'javascript:alert(document.cookie)' });
      expect(refused.status).toMatch(/^open_url failed \(VALIDATION_ERROR\) in \d+ ms: Invalid parameters for open_url — url: Only http:\/\/ and https:\/\/ addresses can be opened\.$/);
      expect(refused.details).toEqual([expect.objectContaining({ parameter: 'url' })]);
      expect(await activeTabUrl(jawad)).toBe(before);

      const unknown = await jawad.host.evaluate(async () => {
        const port = browser.runtime.connect({ name: 'jawad-sidebar' });
        const reply = await new Promise<unknown>((resolve) => {
          port.onMessage.addListener((message: unknown) => resolve(message));
          port.postMessage({ type: 'EXECUTE_TOOL', requestId: 'user-0000000a', payload: { toolName: 'format_disk', parameters: {} } });
        });
        port.disconnect();
        return reply;
      });
      expect(unknown).toMatchObject({ type: 'TOOL_RESULT', payload: { toolName: 'format_disk', success: false, error: { code: 'TOOL_NOT_FOUND' } } });
    });
  });
}
