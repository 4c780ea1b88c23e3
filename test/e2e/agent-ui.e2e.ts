/**
 * The agent as the user meets it in the real sidebar: the "Act on page" switch, Harbor's permission
 * prompt (keyboard, untrusted page text, critical actions), the live action log, and the grants in
 * Settings → Permissions — checked against what the page itself recorded.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { textReply, toolCallReply } from '../support/scripted-model';
import { agentSwitchOn, promptHadFocusOnAppear, shownSteps, startAgentTask, waitForPrompt, watchPromptFocus, type ShownStep } from './support/agent-flows';
import { browsersUnderTest, type Sidebar } from './support/extension-browser';
import { backToChat, launchReadyToChat, openView, useReadyJawad, waitForAnswer } from './support/flows';

const toolCall = (tool: string, args: Record<string, unknown>) => toolCallReply({ tool, args });
const finalText = textReply;

/** Short, so that Firefox unloads the idle background soon; long enough for a prompt to be answered. */
const FIREFOX_IDLE_MS = 4_000;
/** A test that launches its own browser: a loaded machine takes ~20 s to start Firefox alone. */
const LAUNCHING_TEST_TIMEOUT_MS = 90_000;

const pageState = (page: Page) => page.$eval('#state', (el) => el.textContent ?? '');

/** Waits until the last answer's log shows a step with this status, and returns the log. */
async function waitForStepStatus(sidebar: Sidebar, status: string): Promise<ShownStep[]> {
  await sidebar.waitFor(
    (win, wanted) => Array.from(win.document.querySelectorAll<HTMLElement>('article.message.assistant:last-of-type [data-testid=action-step]')).some((item) => item.dataset.status === wanted),
    status,
    `a step that is ${status}`,
    15_000,
  );
  return shownSteps(sidebar);
}

function promptGone(sidebar: Sidebar): Promise<boolean> {
  return sidebar.waitFor((win) => !win.document.querySelector('[data-testid=permission-prompt]'), null, 'the prompt to close');
}

async function openPermissions(sidebar: Sidebar): Promise<void> {
  await openView(sidebar, 'Settings');
  await sidebar.waitFor((win) => win.document.querySelector('[data-testid=grants-list], [data-testid=grants-empty]'), null, 'the Permissions section');
}

function grantRows(sidebar: Sidebar): Promise<Array<{ site: string; level: string; scope: string; text: string }>> {
  return sidebar.eval(
    (win) =>
      Array.from(win.document.querySelectorAll<HTMLElement>('[data-testid=grant-row]')).map((row) => ({
        site: row.dataset.site ?? '',
        level: row.dataset.level ?? '',
        scope: row.dataset.scope ?? '',
        text: row.innerText,
      })),
    null,
  );
}

for (const browserName of browsersUnderTest()) {
  describe(`the agent in the ${browserName} sidebar`, () => {
    const suite = useReadyJawad(browserName);

    it('"Act on page" starts off and is remembered when the sidebar reopens', async () => {
      const { sidebar } = suite.jawad;
      expect(await agentSwitchOn(sidebar)).toBe(false);
      expect(await sidebar.text('label.agent-switch')).toContain('Act on page');
      await sidebar.click('[data-testid=agent-toggle]');
      await sidebar.eval((win) => {
        // Marks this document, so the wait below knows the reloaded one from it.
        (win as unknown as { __old?: boolean }).__old = true;
        win.location.reload();
      }, null);
      await sidebar.waitFor(
        (win) => !(win as unknown as { __old?: boolean }).__old && win.document.querySelector('[data-testid=agent-toggle]'),
        null,
        'the reloaded sidebar',
      );
      expect(await agentSwitchOn(sidebar)).toBe(true);
    });

    it('asks before a click, runs it on "Allow once", and logs the step live', async () => {
      const page = await suite.jawad.openTab(`${suite.fixtures.url}/agent-ui.html`);
      suite.provider.enqueue(toolCall('click', { selector: '#go' }), finalText('I pressed Go.'));
      const { sidebar } = suite.jawad;
      await watchPromptFocus(sidebar);
      await startAgentTask(sidebar, 'click the Go button');

      const prompt = await waitForPrompt(sidebar);
      expect(prompt.role).toBe('alertdialog');
      expect(prompt.level).toBe('interact');
      expect(prompt.critical).toBe('false');
      expect(prompt.title).toContain('click');
      expect(prompt.title).toContain('127.0.0.1');
      expect(prompt.text).toContain('button');
      expect(prompt.text).toContain('“Go”');
      expect(prompt.text).toContain('agent-ui.html');
      expect(prompt.focusInside).toBe(true);
      expect(await promptHadFocusOnAppear(sidebar)).toBe(true);
      expect(prompt.buttons.map((b) => b.id)).toEqual(['decision-allow-once', 'decision-allow-site', 'decision-allow-session', 'decision-deny', 'decision-deny-all']);
      expect(prompt.buttons.every((b) => b.tabbable && !b.ariaDisabled)).toBe(true);
      // While the user decides, the page is untouched and the log says the step waits.
      expect(await pageState(page)).toContain('go=0');
      expect((await shownSteps(sidebar)).map((s) => s.status)).toEqual(['asking']);

      await sidebar.click('[data-testid=decision-allow-once]');
      await promptGone(sidebar);
      const answer = await waitForAnswer(sidebar);
      expect(answer.text).toContain('I pressed Go.');
      const [step] = await waitForStepStatus(sidebar, 'done');
      expect(step).toMatchObject({ status: 'done', tool: 'click', decision: 'allow-once' });
      expect(step!.text).toContain('#go');
      expect(step!.text).toContain('allowed once');
      expect(step!.text).toMatch(/\d+ ms|\d(\.\d)? s/);
      expect(await pageState(page)).toContain('go=1');

      const chat = suite.provider.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.json as { tools?: unknown[] });
      expect(chat[0]?.tools?.length).toBeGreaterThan(0);
    });

    it('shows page text as plain text, the data that would leave in full, and Escape denies', async () => {
      const page = await suite.jawad.openTab(`${suite.fixtures.url}/agent-ui.html`);
      const note = `Meet at <b>noon</b> ${'then more words '.repeat(50)}end.`;
      suite.provider.enqueue(toolCall('fill', { selector: '#note', text: note }), finalText('Understood, I left the note alone.'));
      await startAgentTask(suite.jawad.sidebar, 'write a note');
      const { sidebar } = suite.jawad;

      const prompt = await waitForPrompt(sidebar);
      expect(prompt.focusInside).toBe(true);
      expect(prompt.text).toContain('<img src=x onerror="parent.__pwned=1">Note');
      expect(prompt.text).toContain('[U+202E]txt.exe');
      const egress = await sidebar.eval((win) => {
        const block = win.document.querySelector('[data-testid=egress] pre') as HTMLElement;
        return { text: block.textContent ?? '', font: win.getComputedStyle(block).fontFamily, expand: (block.parentElement?.querySelector('button') as HTMLElement | null)?.innerText ?? '' };
      }, null);
      expect(egress.text.startsWith('Meet at <b>noon</b> then more words')).toBe(true);
      expect(egress.text.length).toBeLessThan(note.length);
      expect(egress.font).toMatch(/mono/i);
      expect(egress.expand).toBe(`Show all (${note.length.toLocaleString('en-US')} characters)`);
      await sidebar.click('[data-testid=egress] button', 'Show all');
      expect(await sidebar.eval((win) => win.document.querySelector('[data-testid=egress] pre')?.textContent, null)).toBe(note);
      const injected = await sidebar.eval(
        (win) => ({ markup: win.document.querySelectorAll('.permission-prompt img, .permission-prompt b').length, pwned: (win as unknown as { __pwned?: number }).__pwned ?? 0 }),
        null,
      );
      expect(injected).toEqual({ markup: 0, pwned: 0 });

      await sidebar.eval((win) => {
        win.document.activeElement?.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
      }, null);
      await promptGone(sidebar);
      const answer = await waitForAnswer(sidebar);
      expect(answer.text).toContain('Understood, I left the note alone.');
      const [step] = await shownSteps(sidebar);
      expect(step).toMatchObject({ status: 'denied', tool: 'fill', decision: 'deny' });
      expect(step!.text).toContain('denied by you');
      expect(await pageState(page)).toContain('note=;');
    });

    it('offers only "Allow once" for a critical action, and "Deny all" stops the task', async () => {
      const page = await suite.jawad.openTab(`${suite.fixtures.url}/agent-ui.html`);
      suite.provider.enqueue(toolCall('click', { selector: '#buy' }), finalText('This must never be asked for.'));
      const before = suite.provider.requests.length;
      await startAgentTask(suite.jawad.sidebar, 'buy it');
      const { sidebar } = suite.jawad;

      const prompt = await waitForPrompt(sidebar);
      expect(prompt.critical).toBe('true');
      expect(await sidebar.text('.permission-prompt .critical-badge')).toMatch(/critical/i);
      expect(prompt.text).toContain('Critical actions and form submissions always ask');
      const blocked = prompt.buttons.filter((b) => b.ariaDisabled).map((b) => b.id);
      expect(blocked).toEqual(['decision-allow-site', 'decision-allow-session']);
      expect(prompt.buttons.every((b) => b.tabbable)).toBe(true);

      // The blocked button sends nothing: had it sent allow-site, the background (which takes the
      // sidebar's messages in order) would have run the step before the deny-all clicked after it,
      // the prompt would be gone before that click, and the log would not say deny-all.
      await sidebar.click('[data-testid=decision-allow-site]');
      expect((await waitForPrompt(sidebar)).stepId).toBe(prompt.stepId);
      await sidebar.click('[data-testid=decision-deny-all]');
      await promptGone(sidebar);
      await waitForAnswer(sidebar);
      const [step] = await shownSteps(sidebar);
      expect(step).toMatchObject({ tool: 'click', decision: 'deny-all' });
      expect(step!.text).toContain('task stopped by you');
      expect(await pageState(page)).toContain('bought=false');
      expect(suite.provider.requests.slice(before).filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
    });

    it('"Allow on this site" is listed in Settings → Permissions, lets the next click through, and can be revoked', async () => {
      const { sidebar } = suite.jawad;
      await openPermissions(sidebar);
      expect(await grantRows(sidebar)).toEqual([]);
      expect(await sidebar.text('[data-testid=grants-empty]')).toContain('No permissions granted');

      const page = await suite.jawad.openTab(`${suite.fixtures.url}/agent-ui.html`);
      suite.provider.enqueue(toolCall('click', { selector: '#go' }), finalText('Pressed.'));
      await startAgentTask(suite.jawad.sidebar, 'click Go');
      await waitForPrompt(sidebar);
      await sidebar.click('[data-testid=decision-allow-site]');
      await waitForAnswer(sidebar);
      expect((await shownSteps(sidebar))[0]).toMatchObject({ status: 'done', decision: 'allow-site' });
      expect(await pageState(page)).toContain('go=1');

      await openPermissions(sidebar);
      const rows = await sidebar.waitFor(
        (win) => win.document.querySelectorAll('[data-testid=grant-row]').length > 0 && Array.from(win.document.querySelectorAll<HTMLElement>('[data-testid=grant-row]')).map((row) => row.innerText),
        null,
        'the new grant',
      );
      expect(rows).toHaveLength(1);
      const [grant] = await grantRows(sidebar);
      expect(grant).toMatchObject({ level: 'interact', scope: 'site' });
      expect(grant!.site).toContain('127.0.0.1');
      expect(grant!.text).toContain('127.0.0.1');
      expect(grant!.text).toContain('this site');

      // The grant at work: the same kind of action on the same site no longer asks.
      suite.provider.enqueue(toolCall('click', { selector: '#go' }), finalText('Pressed again.'));
      await startAgentTask(suite.jawad.sidebar, 'click Go again');
      await waitForAnswer(suite.jawad.sidebar);
      expect((await shownSteps(sidebar))[0]).toMatchObject({ status: 'done', decision: 'auto-approve' });
      expect(await pageState(page)).toContain('go=2');

      await openPermissions(sidebar);
      await sidebar.click('[data-testid=revoke-grant]');
      await sidebar.waitFor((win) => win.document.querySelector('[data-testid=grants-empty]'), null, 'the grant to go');
      expect(await grantRows(sidebar)).toEqual([]);
    });

    it('"Allow for this session" lets the next click through, outlives a stopped background, and is listed as this session', async () => {
      // A browser of its own: Firefox unloads an idle background only after its idle timeout, which
      // this one has short. stopBackground returns once the background is really gone.
      const jawad = await launchReadyToChat(browserName, suite.provider.url, { firefoxIdleTimeoutMs: FIREFOX_IDLE_MS });
      try {
        const { sidebar } = jawad;
        const page = await jawad.openTab(`${suite.fixtures.url}/agent-ui.html`);
        suite.provider.enqueue(toolCall('click', { selector: '#go' }), finalText('Pressed.'));
        await startAgentTask(sidebar, 'click Go');
        await waitForPrompt(sidebar);
        await sidebar.click('[data-testid=decision-allow-session]');
        await waitForAnswer(sidebar);
        expect((await shownSteps(sidebar))[0]).toMatchObject({ status: 'done', decision: 'allow-session' });

        // Session grants live in storage.session: a background the browser stopped still knows them.
        await jawad.stopBackground();
        suite.provider.enqueue(toolCall('click', { selector: '#go' }), finalText('Pressed again.'));
        await startAgentTask(sidebar, 'click Go again');
        await waitForAnswer(sidebar, 20_000);
        expect((await shownSteps(sidebar))[0]).toMatchObject({ status: 'done', decision: 'auto-approve' });
        expect(await pageState(page)).toContain('go=2');

        await openPermissions(sidebar);
        await sidebar.waitFor((win) => win.document.querySelector('[data-testid=grant-row][data-scope=session]'), null, 'the session grant');
        const [grant] = await grantRows(sidebar);
        expect(grant).toMatchObject({ level: 'interact', scope: 'session' });
        expect(grant!.text).toContain('this session');
        await sidebar.click('[data-testid=revoke-grant]');
        await sidebar.waitFor((win) => win.document.querySelector('[data-testid=grants-empty]'), null, 'the grant to go');
      } finally {
        await jawad.close();
      }
    }, LAUNCHING_TEST_TIMEOUT_MS);

    it('keeps a waiting prompt when the user opens a new chat, and takes them back to it', async () => {
      const { sidebar } = suite.jawad;
      const page = await suite.jawad.openTab(`${suite.fixtures.url}/agent-ui.html`);
      const before = await pageState(page);
      suite.provider.enqueue(toolCall('click', { selector: '#go' }), finalText('Not pressed.'));
      await startAgentTask(sidebar, 'press Go when I say so');
      const prompt = await waitForPrompt(sidebar);
      await sidebar.click('.top-bar nav button', 'New chat');
      await sidebar.waitFor((win) => !win.document.querySelector('[data-testid=permission-prompt]'), null, 'the prompt to leave with its chat');
      expect(await sidebar.text('[data-testid=waiting-elsewhere]')).toContain('press Go when I say so');
      await sidebar.click('[data-testid=waiting-elsewhere] button', 'Open it');
      expect((await waitForPrompt(sidebar)).stepId).toBe(prompt.stepId);
      expect(await sidebar.eval((win) => win.document.querySelector('[data-testid=waiting-elsewhere]') === null, null)).toBe(true);
      await sidebar.click('[data-testid=decision-deny]');
      await waitForAnswer(sidebar);
      expect(await pageState(page)).toBe(before);
    });

    it('"Always ask before submitting forms" is saved', async () => {
      const { sidebar } = suite.jawad;
      const checked = () => sidebar.eval((win) => (win.document.querySelector('[data-testid=submit-always-asks]') as HTMLInputElement).checked, null);
      await openPermissions(sidebar);
      expect(await checked()).toBe(true);
      await sidebar.click('[data-testid=submit-always-asks]');
      await backToChat(sidebar);
      await openPermissions(sidebar);
      await sidebar.waitFor((win) => !(win.document.querySelector('[data-testid=submit-always-asks]') as HTMLInputElement).checked, null, 'the option to stay off');
      await sidebar.click('[data-testid=submit-always-asks]');
      await backToChat(sidebar);
      await openPermissions(sidebar);
      await sidebar.waitFor((win) => (win.document.querySelector('[data-testid=submit-always-asks]') as HTMLInputElement).checked, null, 'the option to be back on');
    });
  });
}
