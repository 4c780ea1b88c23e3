/**
 * Memory in real browsers: an earlier conversation is recalled for a related question and shown
 * under the answer with where it came from, then forgotten; a saved memory is used until memory is
 * turned off; on a product page, the product looked at before comes back as page content.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startProviderServer, type ProviderServer } from '../support/provider-server';
import { browsersUnderTest, type JawadBrowser, type Sidebar } from './support/extension-browser';
import { backToChat, launchReadyToChat, openView, sendMessage, waitForAnswer } from './support/flows';

/** Asks in a new chat (with the page in the tab when `withPage`), and gives back the turn the model was sent. */
async function ask(sidebar: Sidebar, provider: ProviderServer, question: string, withPage = false): Promise<string> {
  const before = provider.requests.length;
  provider.enqueue({ kind: 'openai-stream', chunks: ['Noted.'] });
  await backToChat(sidebar);
  await sidebar.click('.top-bar nav button', 'New chat');
  const attached = await sidebar.eval((win) => (win.document.querySelector('.composer label.attach input') as HTMLInputElement).checked, null);
  if (attached !== withPage) await sidebar.click('.composer label.attach input');
  await sendMessage(sidebar, question);
  await waitForAnswer(sidebar);
  const request = provider.requests.slice(before).find((r) => r.path === '/v1/chat/completions')!;
  const messages = (request.json as { messages: Array<{ content: string }> }).messages;
  return messages.at(-1)!.content;
}

function usedContext(sidebar: Sidebar): Promise<Array<{ origin: string; text: string }>> {
  return sidebar.eval(
    (win) =>
      Array.from(win.document.querySelectorAll('article.message.assistant')).at(-1)?.querySelectorAll('[data-testid=used-context] li').length
        ? Array.from(Array.from(win.document.querySelectorAll('article.message.assistant')).at(-1)!.querySelectorAll('[data-testid=used-context] li')).map((li) => ({
            origin: li.querySelector('.provenance')!.textContent ?? '',
            text: li.querySelector('.context-text')!.textContent ?? '',
          }))
        : [],
    null,
  );
}

for (const browserName of browsersUnderTest()) {
  describe(`memory in ${browserName}`, () => {
    let provider: ProviderServer;
    let fixtures: FixtureServer;
    let jawad: JawadBrowser;

    beforeAll(async () => {
      provider = await startProviderServer();
      fixtures = await startFixtureServer();
      jawad = await launchReadyToChat(browserName, provider.url);
    });
    afterAll(async () => {
      await jawad?.close();
      await provider?.close();
      await fixtures?.close();
    });
    beforeEach(() => provider.reset());

    it('recalls an earlier conversation for a related question, shows where it came from, then forgets it', async () => {
      const { sidebar } = jawad;
      const first = await ask(sidebar, provider, 'My cat is called Pixel and she loves tuna');
      expect(first).toBe('My cat is called Pixel and she loves tuna');

      const prompt = await ask(sidebar, provider, 'What is my cat called?');
      expect(prompt).toContain('My cat is called Pixel and she loves tuna');
      expect(prompt.endsWith('What is my cat called?')).toBe(true);
      const [item, ...rest] = await usedContext(sidebar);
      expect(rest).toEqual([]);
      expect(item!.origin).toMatch(/^Earlier conversation “My cat is called Pixel and she loves tuna”/);
      expect(item!.text).toBe('My cat is called Pixel and she loves tuna');

      await sidebar.click('article.message.assistant:last-of-type [data-testid=used-context] summary');
      await sidebar.click('article.message.assistant:last-of-type [data-testid=used-context] button', 'Forget');
      await sidebar.waitFor((win) => win.document.querySelector('article.message.assistant:last-of-type [data-testid=used-context] .forgotten'), null, 'the forget to be confirmed');
      // The question asked before may still come back (it is related); the forgotten fact may not.
      const again = await ask(sidebar, provider, 'What is my cat called?');
      expect(again).not.toContain('Pixel');
      expect((await usedContext(sidebar)).map((u) => u.text)).not.toContain('My cat is called Pixel and she loves tuna');
    });

    it('on a product page, brings back the product looked at before on that site, as page content, whatever the question says', async () => {
      const { sidebar } = jawad;
      await jawad.openTab(`${fixtures.url}/product.html`);
      expect(await ask(sidebar, provider, 'What does this cost?', true)).toContain('Severn Trail Jacket');
      await jawad.openTab(`${fixtures.url}/product-microdata.html`);
      const prompt = await ask(sidebar, provider, 'Is this one better than the one before?', true);
      expect(prompt).toMatch(/<<<UNTRUSTED_PAGE_CONTENT [0-9a-f]+>>>\nMemory \(read on http:\/\/127\.0\.0\.1[^)]*\):\nProduct “Severn Trail Jacket” — 129\.00 GBP/);
      expect(prompt).toContain('Estuary Dry Bag 20 L');
      const [item, ...rest] = await usedContext(sidebar);
      expect(rest).toEqual([]);
      expect(item!.origin).toMatch(/^Read on http:\/\/127\.0\.0\.1/);
      expect(item!.text).toContain('Product “Severn Trail Jacket” — 129.00 GBP');
    });

    it('uses a saved memory until memory is turned off', async () => {
      const { sidebar } = jawad;
      await openView(sidebar, 'Memory');
      await sidebar.fill('.memory-add input', 'I live in Lyon, near the Saône');
      await sidebar.click('.memory-add button');
      await sidebar.waitFor((win) => win.document.querySelector('.memory-view li[data-source=user]'), null, 'the saved memory');

      expect(await ask(sidebar, provider, 'Good bakeries near the Saône?')).toContain('I live in Lyon, near the Saône');
      expect((await usedContext(sidebar)).map((u) => u.origin.split(',')[0])).toEqual(['Saved memory']);

      await openView(sidebar, 'Memory');
      await sidebar.click('.memory-view input[name=memoryEnabled]');
      await sidebar.waitFor((win) => !(win.document.querySelector('.memory-view input[name=memoryEnabled]') as HTMLInputElement).checked, null, 'memory off');
      expect(await ask(sidebar, provider, 'Good bakeries near the Saône?')).toBe('Good bakeries near the Saône?');
    });
  });
}
