/**
 * Provider settings as a user meets them: presets, "Test connection" with human errors, the key
 * kept out of reach, and Ollama working without OLLAMA_ORIGINS.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startProviderServer, type ProviderServer } from '../support/provider-server';
import { browsersUnderTest, launchJawad, type JawadBrowser } from './support/extension-browser';
import { backToChat, configureProvider, openView, sendMessage, waitForAnswer } from './support/flows';

async function testConnectionResult(jawad: JawadBrowser): Promise<string> {
  await jawad.sidebar.eval((win) => {
    const result = win.document.querySelector('.test-result');
    if (result) result.textContent = '';
  }, null);
  await jawad.sidebar.click('form.settings button', 'Test connection');
  return jawad.sidebar.waitFor(
    (win) => {
      const result = win.document.querySelector<HTMLElement>('.test-result[data-success]');
      return result?.innerText.trim() || '';
    },
    null,
    'a test result',
    15_000,
  );
}

for (const browserName of browsersUnderTest()) {
  describe(`settings in ${browserName}`, () => {
    let jawad: JawadBrowser;
    let provider: ProviderServer;

    beforeAll(async () => {
      provider = await startProviderServer();
      jawad = await launchJawad(browserName);
    });
    afterAll(async () => {
      await jawad?.close();
      await provider?.close();
    });
    beforeEach(() => provider.reset());

    it('fills the preset of each provider and tests the connection for real', async () => {
      await openView(jawad.sidebar, 'Settings');
      await jawad.sidebar.fill('select[name=provider]', 'anthropic');
      expect(await jawad.sidebar.eval((win) => (win.document.querySelector('input[name=baseUrl]') as HTMLInputElement).value, null)).toBe('https://api.anthropic.com/v1');
      await jawad.sidebar.fill('select[name=provider]', 'ollama');
      expect(await jawad.sidebar.eval((win) => (win.document.querySelector('input[name=baseUrl]') as HTMLInputElement).value, null)).toBe('http://localhost:11434/v1');

      await jawad.sidebar.fill('select[name=provider]', 'custom');
      await jawad.sidebar.fill('input[name=baseUrl]', `${provider.url}/v1`);
      await jawad.sidebar.fill('input[name=model]', 'test-model');
      provider.enqueue({ kind: 'openai-stream', chunks: ['OK'] });
      expect(await testConnectionResult(jawad)).toMatch(/^Connected in \d+ ms\.$/);

      await jawad.sidebar.fill('input[name=model]', 'no-such-model');
      expect(await testConnectionResult(jawad)).toBe('No model named “no-such-model” on this server. Available: test-model');

      await jawad.sidebar.fill('select[name=provider]', 'openrouter');
      await jawad.sidebar.fill('input[name=baseUrl]', `${provider.url}/v1`);
      await jawad.sidebar.fill('input[name=model]', 'test-model');
      await jawad.sidebar.fill('input[name=apiKey]', 'bad-key');
      expect(await testConnectionResult(jawad)).toBe('Invalid API key. Double-check your openrouter key in Settings.');

      await jawad.sidebar.fill('select[name=provider]', 'lmstudio');
      await jawad.sidebar.fill('input[name=baseUrl]', 'http://127.0.0.1:9/v1');
      expect(await testConnectionResult(jawad)).toMatch(/^Can't reach LM Studio at http:\/\/127\.0\.0\.1:9\/v1\. Is the server running on your machine\?$/);
    });

    it('keeps the API key out of the sidebar and out of storage that content scripts can read, and sends it only to the provider', async () => {
      const key = 'sk-test-9f8e7d6c5b4a39281706';
      await configureProvider(jawad.sidebar, { provider: 'openai', baseUrl: `${provider.url}/v1`, model: 'test-model', apiKey: key });
      await jawad.sidebar.waitFor((win) => (win.document.querySelector('input[name=apiKey]') as HTMLInputElement).placeholder.includes('Saved'), null, 'the saved key hint');
      const sidebarText = await jawad.sidebar.eval((win) => win.document.documentElement.outerHTML + (win.document.querySelector('input[name=apiKey]') as HTMLInputElement).value, null);
      expect(sidebarText).not.toContain(key);
      expect(sidebarText).toContain('••••1706');
      const local = await jawad.host.evaluate(() => browser.storage.local.get(null).then((all) => JSON.stringify(all)));
      expect(local).not.toContain(key);

      await backToChat(jawad.sidebar);
      provider.enqueue({ kind: 'openai-stream', chunks: ['Authorised.'] });
      await sendMessage(jawad.sidebar, 'hello with key');
      expect((await waitForAnswer(jawad.sidebar)).text).toBe('Authorised.');
      const chat = provider.requests.find((r) => r.path === '/v1/chat/completions')!;
      expect(chat.headers.authorization).toBe(`Bearer ${key}`);
    });

    it('talks to Ollama, which refuses extension origins, without any OLLAMA_ORIGINS setup', async () => {
      provider.ollamaOrigins = true;
      await configureProvider(jawad.sidebar, { provider: 'ollama', baseUrl: `${provider.url}/v1`, model: 'test-model' });
      await backToChat(jawad.sidebar);
      provider.enqueue({ kind: 'openai-tool-stream', calls: [], text: 'Hello from Ollama.' });
      await sendMessage(jawad.sidebar, 'hi ollama');
      const answer = await waitForAnswer(jawad.sidebar);
      expect(answer.error).toBe('');
      expect(answer.text).toBe('Hello from Ollama.');
      const chat = provider.requests.find((r) => r.path === '/v1/chat/completions')!;
      expect(chat.headers.origin).toBe(provider.url);
    });
  });
}
