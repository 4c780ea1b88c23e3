/** What a user does in the sidebar, as reusable steps. */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../support/fixture-server';
import { startProviderServer, type ProviderServer } from '../../support/provider-server';
import { launchJawad, type BrowserName, type JawadBrowser, type LaunchOptions, type Sidebar } from './extension-browser';

export interface ProviderChoice {
  provider: string;
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutSeconds?: number;
}

export async function openView(sidebar: Sidebar, label: 'Settings' | 'History' | 'Tools' | 'Memory'): Promise<void> {
  const pressed = await sidebar.eval((win, text) => {
    const button = Array.from(win.document.querySelectorAll('.top-bar nav button')).find((b) => (b as HTMLElement).innerText === text);
    return button?.getAttribute('aria-pressed') === 'true';
  }, label);
  if (!pressed) await sidebar.click('.top-bar nav button', label);
  // The view's code loads on first use.
  await sidebar.waitFor((win, selector) => win.document.querySelector(selector), ({ Settings: 'form.settings', History: 'section.history', Tools: 'section.tools', Memory: 'section.memory-view' } as const)[label], `the ${label} view`);
}

/** What the sidebar's connection line says of the background: connecting, connected, reconnecting or idle. */
export function connectionState(sidebar: Sidebar): Promise<string | null | undefined> {
  return sidebar.eval((win) => win.document.querySelector('.connection')?.getAttribute('data-state'), null);
}

/** Waits until the sidebar has seen the browser stop the background (idle: nothing made it reconnect). */
export async function backgroundAsleep(sidebar: Sidebar): Promise<void> {
  await sidebar.waitFor((win) => win.document.querySelector('.connection')?.getAttribute('data-state') === 'idle', null, 'the sidebar to see the background stopped');
}

export async function backToChat(sidebar: Sidebar): Promise<void> {
  const inChat = await sidebar.eval((win) => Boolean(win.document.querySelector('.chat')), null);
  if (!inChat) await sidebar.click('.top-bar nav button[aria-pressed="true"]');
  await sidebar.waitFor((win) => win.document.querySelector('.chat'), null, 'the chat view');
}

/** Fills the settings form like a user and saves it. */
export async function configureProvider(sidebar: Sidebar, choice: ProviderChoice): Promise<void> {
  await openView(sidebar, 'Settings');
  await sidebar.waitFor((win) => win.document.querySelector('form.settings select[name=provider]'), null, 'the settings form');
  await sidebar.fill('select[name=provider]', choice.provider);
  await sidebar.fill('input[name=baseUrl]', choice.baseUrl);
  await sidebar.fill('input[name=model]', choice.model);
  if (choice.apiKey !== undefined) await sidebar.fill('input[name=apiKey]', choice.apiKey);
  if (choice.timeoutSeconds !== undefined) await sidebar.fill('input[name=timeoutSeconds]', String(choice.timeoutSeconds));
  await sidebar.click('form.settings button[type=submit]');
  // The background confirms what it stored before the form says so; until then chat uses the old settings.
  await sidebar.waitFor((win) => win.document.querySelector('.test-result[data-save="saved"]'), null, 'the settings to save');
}

/**
 * Marks the answers already on screen, so waitForAnswer waits for a new one. (Preact leaves
 * attributes it does not manage alone.)
 */
export function markAnswersSeen(sidebar: Sidebar): Promise<void> {
  return sidebar.eval((win) => {
    win.document.querySelectorAll('article.message.assistant').forEach((a) => a.setAttribute('data-test-seen', ''));
  }, null);
}

export async function sendMessage(sidebar: Sidebar, text: string): Promise<void> {
  await sidebar.waitFor((win) => win.document.querySelector('#composer-input'), null, 'the message box');
  await markAnswersSeen(sidebar);
  await sidebar.fill('#composer-input', text);
  await sidebar.pressEnter('#composer-input');
}

export interface RenderedMessage {
  role: string;
  status: string;
  text: string;
  html: string;
  error: string;
}

export function messages(sidebar: Sidebar): Promise<RenderedMessage[]> {
  return sidebar.eval(
    (win) =>
      Array.from(win.document.querySelectorAll<HTMLElement>('article.message')).map((article) => ({
        role: article.classList.contains('user') ? 'user' : 'assistant',
        status: article.dataset.status ?? '',
        text: (article.querySelector('.markdown, .user-text') as HTMLElement | null)?.innerText ?? '',
        html: (article.querySelector('.markdown, .user-text') as HTMLElement | null)?.innerHTML ?? '',
        error: (article.querySelector('.message-error') as HTMLElement | null)?.innerText ?? '',
      })),
    null,
  );
}

/** Waits until a new assistant message (see markAnswersSeen) has left 'streaming'; returns it. */
export async function waitForAnswer(sidebar: Sidebar, timeoutMs = 15_000): Promise<RenderedMessage> {
  await sidebar.waitFor(
    (win) => {
      const fresh = win.document.querySelectorAll<HTMLElement>('article.message.assistant:not([data-test-seen])');
      const last = fresh[fresh.length - 1];
      return last && last.dataset.status !== 'streaming';
    },
    null,
    'the answer to finish',
    timeoutMs,
  );
  const all = await messages(sidebar);
  return all.filter((m) => m.role === 'assistant').at(-1)!;
}

/** Launches the browser with Jawad and points it at the provider test server, ready to chat. */
export async function launchReadyToChat(name: BrowserName, providerUrl: string, options: LaunchOptions = {}): Promise<JawadBrowser> {
  const jawad = await launchJawad(name, options);
  await configureProvider(jawad.sidebar, { provider: 'custom', baseUrl: `${providerUrl}/v1`, model: 'test-model', timeoutSeconds: 3 });
  await backToChat(jawad.sidebar);
  return jawad;
}

export interface ChatSuite {
  jawad: JawadBrowser;
  provider: ProviderServer;
  fixtures: FixtureServer;
}

/**
 * For a describe block: the provider and fixture servers, and the browser with Jawad ready to
 * chat, started once and closed after; the provider's script is reset before each test.
 */
export function useReadyJawad(name: BrowserName): ChatSuite {
  const suite = {} as ChatSuite;
  beforeAll(async () => {
    suite.provider = await startProviderServer();
    suite.fixtures = await startFixtureServer();
    suite.jawad = await launchReadyToChat(name, suite.provider.url);
  });
  afterAll(async () => {
    await suite.jawad?.close();
    await suite.provider?.close();
    await suite.fixtures?.close();
  });
  beforeEach(() => suite.provider.reset());
  return suite;
}

export interface PerTestBrowsers {
  readonly provider: ProviderServer;
  /** A fresh browser with Jawad for this test; closed after it. */
  launch(options?: LaunchOptions): Promise<JawadBrowser>;
}

/** For a describe block whose tests each need their own browser (flags, profiles, restarts). */
export function useFreshBrowserPerTest(name: BrowserName): PerTestBrowsers {
  let provider: ProviderServer | undefined;
  let current: JawadBrowser | undefined;
  beforeAll(async () => {
    provider = await startProviderServer();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
    provider?.reset();
  });
  afterAll(() => provider?.close());
  return {
    get provider() {
      if (!provider) throw new Error('The provider server starts in beforeAll');
      return provider;
    },
    launch: async (options = {}) => (current = await launchJawad(name, options)),
  };
}

/** For a describe block: the provider test server and a browser with Jawad, not yet configured. */
export function useJawadAndProvider(name: BrowserName): { jawad: JawadBrowser; provider: ProviderServer } {
  const suite = {} as { jawad: JawadBrowser; provider: ProviderServer };
  beforeAll(async () => {
    suite.provider = await startProviderServer();
    suite.jawad = await launchJawad(name);
  });
  afterAll(async () => {
    await suite.jawad?.close();
    await suite.provider?.close();
  });
  beforeEach(() => suite.provider.reset());
  return suite;
}

export interface ConnectionReport {
  success: string;
  /** The result line ("Connected in 12 ms." or the first failure). */
  message: string;
  /** The report's lines by check name, in the order shown. */
  checks: Record<string, { status: string; detail: string }>;
}

/** Presses Test connection in the settings form and reads the result and its per-check lines. */
export async function testConnection(sidebar: Sidebar): Promise<ConnectionReport> {
  await sidebar.eval((win) => {
    const result = win.document.querySelector('.test-result');
    if (result) result.textContent = '';
    win.document.querySelector('.connection-checks')?.remove();
  }, null);
  await sidebar.click('form.settings button', 'Test connection');
  return sidebar.waitFor(
    (win): ConnectionReport | null => {
      const result = win.document.querySelector<HTMLElement>('.test-result[data-success]');
      if (!result?.innerText.trim()) return null;
      const checks: ConnectionReport['checks'] = {};
      win.document.querySelectorAll<HTMLElement>('.connection-checks li').forEach((li) => {
        checks[li.dataset.check ?? ''] = { status: li.dataset.status ?? '', detail: li.querySelector<HTMLElement>('.check-detail')?.innerText ?? '' };
      });
      return { success: result.dataset.success ?? '', message: result.innerText.trim(), checks };
    },
    null,
    'a test result',
    15_000,
  ) as Promise<ConnectionReport>;
}
