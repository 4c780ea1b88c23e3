/**
 * What the page agent and the reader hand over, tool by tool: only what a person can see, never a
 * secret's value, frames only where they really sit, and nothing of unbounded size. The hostile
 * suite checks that no canary reaches the model; these tests check what does arrive is right.
 */
import { describe, expect, it } from 'vitest';
import { runAgentTask } from '../../cli/agent-task';
import { gullibleModel, latestSnapshotText, scriptedAgent, snapshotEntries } from '../support/scripted-model';
import { browsersUnderTest, type JawadBrowser } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { runTool } from './support/run-tool';

type Snapshot = { title: string; url: string; text: string; refs: Array<{ ref: string; role: string; name: string }> };
type ReadPage = { title: string; markdown: string; product: Record<string, unknown> | null };
type Outcome = { result?: unknown };

const tool = <D>(jawad: JawadBrowser, name: string, parameters: Record<string, unknown> = {}) => runTool<D>(jawad, name, parameters);

async function succeeded<D>(jawad: JawadBrowser, name: string, parameters: Record<string, unknown> = {}): Promise<D> {
  const reply = await tool<D>(jawad, name, parameters);
  expect(reply.success, `${name}: ${JSON.stringify(reply.error)}`).toBe(true);
  return reply.data!;
}

for (const browserName of browsersUnderTest()) {
  describe(`page data in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    const hostile = (file: string) => `${suite.fixtures.url}/hostile/${file}`;

    it('marks password, card and one-time-code fields [secret] and shows none of their values, in any tool', async () => {
      const { jawad } = suite;
      await jawad.openTab(hostile('secret-fields.html'));
      const { text } = await succeeded<Snapshot>(jawad, 'snapshot');
      const line = (name: string) => text.split('\n').find((l) => l.includes(`textbox "${name}`)) ?? `(no line for ${name})`;
      for (const name of ['Password', 'Card number', 'Security code', 'Card on file', 'Code we texted you', 'Sign-in code', 'Parcel locker PIN']) {
        expect(line(name), name).toMatch(new RegExp(`^- textbox "${name}" \\[ref=e\\d+\\].*\\[secret\\]$`));
      }
      // An ordinary field still shows its value (in its name too, as a wrapping label gives it): only secrets are held back.
      expect(line('Email')).toMatch(/^- textbox "Email parcel\.customer@example\.org" .*value="parcel\.customer@example\.org"$/);
      expect(text).not.toMatch(/hunter2|4111|5500|737|481516|902211|1234/);

      const attribute = await tool(jawad, 'get', { selector: '#card', what: 'attribute', name: 'value' });
      expect(attribute.error?.code).toBe('PERMISSION_DENIED');
      const html = (await succeeded<Outcome>(jawad, 'get', { selector: 'form', what: 'html' })).result as string;
      expect(html).toContain('name="email" value="parcel.customer@example.org"');
      expect(html).toMatch(/<input type="password" name="password">/);
      expect(html).not.toMatch(/CANARY/);
      const page = await succeeded<ReadPage>(jawad, 'read_page');
      expect(page.markdown).toContain('Sign in and pay for your delivery');
      expect(page.markdown).not.toMatch(/CANARY/);
    });

    it('get reads the visible text and HTML of a container and leaves out what is hidden inside it', async () => {
      const { jawad } = suite;
      await jawad.openTab(hostile('hidden-get.html'));
      const text = (await succeeded<Outcome>(jawad, 'get', { selector: '#faq', what: 'text' })).result as string;
      expect(text).toBe(['How long do I have?', 'Thirty days from delivery, unworn and with tags.', 'Refunds reach your card within five working days.', 'Exchanges are free.'].join('\n\n'));
      const html = (await succeeded<Outcome>(jawad, 'get', { selector: '#faq', what: 'html' })).result as string;
      expect(html).toMatch(/^<section id="faq" class="card">/);
      expect(html).toContain('<p>Thirty days from delivery, unworn and with tags.</p>');
      expect(html).not.toMatch(/CANARY|data-note|onclick|<!--/);
      const whole = (await succeeded<Outcome>(jawad, 'get', { what: 'text' })).result as string;
      expect(whole).toContain('Returns and refunds');
      expect(whole).not.toMatch(/CANARY/);
    });

    it('keeps declared product data only where the visible page agrees, clipped', async () => {
      const { jawad } = suite;
      await jawad.openTab(hostile('metadata-canaries.html'));
      const { product, markdown } = await succeeded<ReadPage>(jawad, 'read_page');
      expect(product).toEqual({ name: 'Kestrel 8x42 binoculars', price: '249.00', brand: 'Fieldcraft Optics', currency: 'GBP', sources: ['visible', 'json-ld'] });
      expect(markdown).not.toMatch(/CANARY/);
    });

    it('says a page with no visible text has none, instead of reading its hidden text', async () => {
      const { jawad } = suite;
      await jawad.openTab(hostile('hidden-everything.html'));
      const page = await succeeded<ReadPage>(jawad, 'read_page');
      expect(page.markdown).toBe('(This page has no readable text: nothing on it shows as text.)');
    });

    it('never reports a hidden frame’s text as a visible frame’s, however the page re-posts what frames say', async () => {
      const { jawad } = suite;
      const page = await jawad.openTab(hostile('frame-relay.html'));
      await page.waitForFunction(() => Array.from(document.querySelectorAll('iframe')).every((frame) => frame.contentDocument?.readyState === 'complete'));
      for (let attempt = 0; attempt < 3; attempt++) {
        const { text } = await succeeded<Snapshot>(jawad, 'snapshot');
        expect(text).not.toMatch(/CANARY|Hidden frame button/);
        // The visible frame is either where it belongs or left out with a note, never replaced.
        expect(text).toMatch(/- iframe "Store finder" \[frame=t\d+\]\n {2}(FRAME-RELAY-VISIBLE|- note: this frame is left out)/);
      }
      // The page did relay what the frames posted (else this test would prove nothing).
      expect(Number(await page.evaluate(() => document.documentElement.dataset.relayed ?? '0'))).toBeGreaterThan(0);
    });

    it('a link with 1 MB of text is folded in the outline and named in 300 characters in the ref lists', async () => {
      const { jawad, fixtures } = suite;
      await jawad.openTab(`${fixtures.url}/hostile/huge-name.html`);
      const snapshot = await succeeded<Snapshot>(jawad, 'snapshot');
      const line = snapshot.text.split('\n').find((candidate) => candidate.startsWith('- link "Best bench we have owned'));
      expect(line, snapshot.text.slice(0, 2_000)).toMatch(/ … \[folded: \d+ more characters; get or read_page gives all\]" \[ref=e\d+\]$/);
      expect(line!.length).toBeLessThan(4_200);
      expect(snapshot.text).toMatch(/- link "Sturdy, and the oil finish took an afternoon\." \[ref=e\d+\]/);
      expect(Math.max(...snapshot.refs.map((ref) => ref.name.length))).toBeLessThanOrEqual(300);
      const page = await succeeded<{ interactiveElements: Array<{ name: string }> }>(jawad, 'read_page');
      expect(page.interactiveElements.map((element) => element.name)).toContain('Sturdy, and the oil finish took an afternoon.');
      expect(Math.max(...page.interactiveElements.map((element) => element.name.length))).toBeLessThanOrEqual(300);
      // What the step log and an approval show of a click on it: the name cut to 300 characters, and saying so.
      suite.provider.reset();
      suite.provider.setResponder(scriptedAgent([{ tool: 'snapshot' }, (context) => ({ tool: 'click', args: { ref: context.findRef('link', /^Best bench/) } })]));
      const outcome = await runAgentTask(jawad.host, { task: 'Open the first review', approve: () => 'deny', timeoutMs: 30_000 });
      const target = outcome.steps.find((step) => step.tool === 'click')?.target;
      expect(target?.name, JSON.stringify(outcome.steps)).toMatch(/^Best bench we have owned, and the delivery was quick\. .*…$/);
      expect(target!.name).toHaveLength(300);
    });

    it('a page with a 5 MB title costs what the same page with a short title costs, and the model still gets its refs', async () => {
      const { jawad, provider, fixtures } = suite;
      const sizes: Record<string, number> = {};
      for (const variant of ['plain', 'huge']) {
        provider.reset();
        provider.setResponder(gullibleModel());
        await jawad.openTab(`${fixtures.url}/hostile/huge-title.html${variant === 'plain' ? '?plain' : ''}`);
        const outcome = await runAgentTask(jawad.host, { task: 'Find me a bench', approve: () => 'deny', timeoutMs: 30_000 });
        expect(outcome.steps.map((step) => step.tool)).toEqual(['snapshot', 'read_page', 'list_tabs', 'get']);
        expect(outcome.steps.every((step) => step.status === 'done'), JSON.stringify(outcome.steps)).toBe(true);
        const last = provider.requests.at(-1)!;
        sizes[variant] = Math.max(...provider.requests.map((request) => request.rawBody.length));
        const refs = snapshotEntries(latestSnapshotText(last) ?? '');
        expect(refs.map((entry) => entry.name)).toContain('Add teak bench to basket');
      }
      // Four results carry the title (snapshot, read page, tab list, get title), each cut to 300 characters.
      expect(sizes.huge! - sizes.plain!).toBeLessThan(4 * 300 * 2);
      const tabs = await succeeded<Array<{ title: string }>>(jawad, 'list_tabs');
      expect(Math.max(...tabs.map((tab) => tab.title.length))).toBeLessThanOrEqual(300);
    });
  });
}
