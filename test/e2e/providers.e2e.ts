/**
 * Providers as they really behave, in the real sidebar: Test connection passing for names the
 * server lists differently (Ollama's `:latest`, Anthropic's aliases behind a paginated list, a
 * reasoning model that refuses max_tokens), its one-line-per-check report and model picker; the
 * model's thinking in a collapsed section; a JSON error sent with HTTP 200; and Anthropic's 529
 * answered after the server's Retry-After.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { browsersUnderTest, type Sidebar } from './support/extension-browser';
import { backToChat, configureProvider, messages, openView, sendMessage, testConnection, useJawadAndProvider, waitForAnswer } from './support/flows';

async function chooseProvider(sidebar: Sidebar, provider: string, baseUrl: string, model: string, apiKey?: string): Promise<void> {
  await openView(sidebar, 'Settings');
  await sidebar.waitFor((win) => win.document.querySelector('form.settings select[name=provider]'), null, 'the settings form');
  await sidebar.fill('select[name=provider]', provider);
  await sidebar.fill('input[name=baseUrl]', baseUrl);
  await sidebar.fill('input[name=model]', model);
  if (apiKey !== undefined) await sidebar.fill('input[name=apiKey]', apiKey);
}

for (const browserName of browsersUnderTest()) {
  describe(`providers in ${browserName}`, () => {
    const suite = useJawadAndProvider(browserName);

    it('passes Test connection for llama3.1 against Ollama’s llama3.1:latest, line by line, and fills the model picker', async () => {
      suite.provider.models = ['qwen2.5:7b', 'llama3.1:latest'];
      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['OK'] });
      await chooseProvider(suite.jawad.sidebar, 'ollama', `${suite.provider.url}/v1`, 'llama3.1');
      const report = await testConnection(suite.jawad.sidebar);
      expect(report.message).toMatch(/^Connected in \d+ ms\.$/);
      expect(Object.keys(report.checks)).toEqual(['reachable', 'key', 'model', 'streaming', 'tools']);
      expect(report.checks.model).toEqual({ status: 'ok', detail: 'llama3.1 is listed as llama3.1:latest' });
      expect(report.checks.key!.detail).toBe('none needed');
      expect(report.checks.tools).toEqual({ status: 'ok', detail: 'native tool calls accepted' });

      const options = await suite.jawad.sidebar.eval((win) => Array.from(win.document.querySelectorAll<HTMLOptionElement>('select[name=modelPicker] option')).map((o) => o.value), null);
      expect(options).toEqual(['', 'qwen2.5:7b', 'llama3.1:latest']);
      expect(await suite.jawad.sidebar.eval((win) => (win.document.querySelector('select[name=modelPicker]') as HTMLSelectElement).value, null)).toBe('llama3.1:latest');
      await suite.jawad.sidebar.fill('select[name=modelPicker]', 'qwen2.5:7b');
      expect(await suite.jawad.sidebar.eval((win) => (win.document.querySelector('input[name=model]') as HTMLInputElement).value, null)).toBe('qwen2.5:7b');
    });

    it('passes Test connection for an Anthropic alias missing from its paginated list', async () => {
      suite.provider.models = Array.from({ length: 5 }, (_, i) => `claude-model-${i}-20250101`);
      suite.provider.aliases = { 'claude-model-4-latest': 'claude-model-4-20250101' };
      suite.provider.modelPageSize = 2;
      suite.provider.enqueue({ kind: 'anthropic-stream', chunks: ['OK'] });
      await chooseProvider(suite.jawad.sidebar, 'anthropic', `${suite.provider.url}/v1`, 'claude-model-4-latest', 'sk-ant-test');
      const report = await testConnection(suite.jawad.sidebar);
      expect(report.success).toBe('true');
      expect(report.checks.model).toEqual({ status: 'ok', detail: 'claude-model-4-latest resolves to claude-model-4-20250101' });
      expect(suite.provider.requests.filter((r) => r.path.startsWith('/v1/models?')).length).toBe(3);
    });

    it('passes Test connection for a reasoning model that refuses max_tokens, and says it thinks', async () => {
      suite.provider.models = ['reasoner-x'];
      suite.provider.reasoningModels = ['reasoner-x'];
      suite.provider.enqueue({ kind: 'openai-stream', reasoning: ['The user wants OK.'], chunks: ['OK'] });
      await chooseProvider(suite.jawad.sidebar, 'custom', `${suite.provider.url}/v1`, 'reasoner-x');
      const report = await testConnection(suite.jawad.sidebar);
      expect(report.success).toBe('true');
      expect(report.checks.streaming!.detail).toBe('a reply streamed to its end, with its thinking apart');
      const chats = suite.provider.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.json as Record<string, unknown>);
      expect(chats.map((body) => ('max_tokens' in body ? 'max_tokens' : 'max_completion_tokens'))).toEqual(['max_tokens', 'max_completion_tokens']);
    });

    describe('in the chat', () => {
      beforeAll(async () => {
        await configureProvider(suite.jawad.sidebar, { provider: 'custom', baseUrl: `${suite.provider.url}/v1`, model: 'test-model', timeoutSeconds: 5 });
        await backToChat(suite.jawad.sidebar);
      });

      it('streams the thinking live into a collapsed Thinking section, apart from the answer, and records the usage', async () => {
        suite.provider.models = ['test-model'];
        suite.provider.enqueue({
          kind: 'openai-stream',
          reasoning: ['The user asks ', 'for a capital. ', 'It is Paris.'],
          chunks: ['Paris', ' is the capital.'],
          usage: { prompt_tokens: 20, completion_tokens: 12, completion_tokens_details: { reasoning_tokens: 7 } },
          delayMs: 150,
        });
        await sendMessage(suite.jawad.sidebar, 'Capital of France?');
        const live = await suite.jawad.sidebar.waitFor(
          (win) => {
            const section = win.document.querySelector<HTMLDetailsElement>('article.message.assistant:last-of-type .thinking-section[data-live=true]');
            return section && { summary: section.querySelector('summary')!.textContent!.trim(), open: section.open };
          },
          null,
          'the live Thinking section',
        );
        expect(live).toEqual({ summary: 'Thinking…', open: false });
        const answer = await waitForAnswer(suite.jawad.sidebar);
        expect(answer.text).toBe('Paris is the capital.');
        const section = await suite.jawad.sidebar.eval((win) => {
          const details = win.document.querySelector<HTMLDetailsElement>('article.message.assistant:last-of-type .thinking-section')!;
          details.querySelector('summary')!.click();
          return { summary: details.querySelector('summary')!.textContent!.trim(), open: details.open, text: details.querySelector<HTMLElement>('.reasoning-text')!.innerText };
        }, null);
        expect(section).toEqual({ summary: 'Thinking', open: true, text: 'The user asks for a capital. It is Paris.' });
        // The reply's line is its usage records' (the cost meter's), which arrive just after the answer.
        const line = await suite.jawad.sidebar.waitFor((win) => {
          const text = win.document.querySelector('article.message.assistant:last-of-type .usage')?.textContent ?? '';
          return text.includes('reasoning') ? text : undefined;
        }, null, 'the reply’s token line');
        expect(line).toContain('20 in · 12 out (7 reasoning) tokens');

        const records = await suite.jawad.host.evaluate(
          () =>
            new Promise<Array<{ kind: string; inputTokens: number; outputTokens: number; reasoningTokens: number; requestId: string }>>((resolve, reject) => {
              const open = indexedDB.open('jawad');
              open.onsuccess = () => {
                const read = open.result.transaction('usage').objectStore('usage').getAll();
                read.onsuccess = () => resolve(read.result);
                read.onerror = () => reject(read.error);
              };
              open.onerror = () => reject(open.error);
            }),
        );
        const chat = records.filter((record) => record.kind === 'chat');
        expect(chat).toEqual([expect.objectContaining({ inputTokens: 20, outputTokens: 12, reasoningTokens: 7, requestId: expect.stringMatching(/^user-[0-9a-f]{8}:chat-[0-9a-f]{8}:llm-[0-9a-f]{8}$/) })]);

        // The thinking stays out of what the model is sent next.
        suite.provider.enqueue({ kind: 'openai-stream', chunks: ['Berlin.'] });
        await sendMessage(suite.jawad.sidebar, 'And Germany?');
        await waitForAnswer(suite.jawad.sidebar);
        const next = JSON.stringify(suite.provider.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.json);
        expect(next).toContain('Paris is the capital.');
        expect(next).not.toContain('It is Paris.');
      });

      it('draws the mic as an inline SVG icon, not an emoji a font may lack', async () => {
        const mic = await suite.jawad.sidebar.eval((win) => {
          const button = win.document.querySelector<HTMLButtonElement>('button.mic')!;
          const icon = button.querySelector('svg');
          return { text: button.textContent!.trim(), icon: Boolean(icon), width: icon?.getBoundingClientRect().width ?? 0, label: button.getAttribute('aria-label') };
        }, null);
        expect(mic).toEqual({ text: '', icon: true, width: 16, label: 'Voice input (Alt+V)' });
      });

      it('shows a JSON error sent with HTTP 200 as the server’s error and keeps the conversation', async () => {
        suite.provider.enqueue({ kind: 'raw', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ error: { message: 'Upstream provider timed out', type: 'upstream_error' } }) });
        await sendMessage(suite.jawad.sidebar, 'Will this work?');
        const answer = await waitForAnswer(suite.jawad.sidebar);
        expect(answer.status).toBe('error');
        expect(answer.error).toBe('Custom answered with an error instead of a reply: Upstream provider timed out');
        expect((await messages(suite.jawad.sidebar)).some((m) => m.role === 'user' && m.text === 'Will this work?')).toBe(true);

        suite.provider.enqueue({ kind: 'openai-stream', chunks: ['It works now.'] });
        await suite.jawad.sidebar.click('article.message.assistant:last-of-type button', 'Retry');
        await suite.jawad.sidebar.waitFor((win) => win.document.querySelector('article.message.assistant:last-of-type')?.textContent?.includes('It works now.'), null, 'the retried answer');
      });

      it('waits out Anthropic’s 529 for the server’s Retry-After, then answers', async () => {
        await configureProvider(suite.jawad.sidebar, { provider: 'anthropic', baseUrl: `${suite.provider.url}/v1`, model: 'test-model', apiKey: 'sk-ant-test', timeoutSeconds: 5 });
        await backToChat(suite.jawad.sidebar);
        suite.provider.enqueue({ kind: 'error', status: 529, headers: { 'retry-after': '1' } }, { kind: 'anthropic-stream', chunks: ['Back after the wait.'] });
        await sendMessage(suite.jawad.sidebar, 'Are you there?');
        const answer = await waitForAnswer(suite.jawad.sidebar);
        expect(answer).toMatchObject({ status: 'complete', text: 'Back after the wait.' });
        const [first, second] = suite.provider.requests.filter((r) => r.path === '/v1/messages');
        expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
      });
    });
  });
}
