/**
 * Drives Jawad's bridge popup in a launched browser like its user: turn the bridge on, approve a
 * pairing whose code matches, answer a client's permission prompts. `jawad mcp --launch` uses it
 * (the person who launched the browser is the one approving), and so do the E2E tests.
 */
import { POPUP_PAGE, type Decision } from '../../src/protocol';
import { retry, Sidebar, type JawadBrowser } from '../launch';

const POPUP_PATH = POPUP_PAGE;

/**
 * Opens the popup page in a background tab (the extension opens it itself) and reaches its document
 * from the host extension page: puppeteer's Firefox pages do not report extension URLs, and
 * `extension.getViews` works alike in both browsers.
 */
export async function openPopup(jawad: JawadBrowser): Promise<Sidebar> {
  await jawad.host.evaluate((path) => void browser.tabs.create({ url: path, active: false }), `/${POPUP_PATH}`);
  const view = `browser.extension.getViews({ type: 'tab' }).find((win) => win.location.pathname === '/${POPUP_PATH}')`;
  const ui = new Sidebar((source) => retry(() => jawad.host.evaluate(`(() => { const __SIDEBAR__ = ${view}; if (!__SIDEBAR__) throw new Error('popup not open'); return ${source}; })()`)));
  await ui.waitFor((win) => win.document.querySelector('[data-testid="bridge-panel"]'), null, 'the bridge popup');
  return ui;
}

export function bridgeState(ui: Sidebar): Promise<string> {
  return ui.eval((win) => win.document.querySelector('[data-testid="bridge-state"]')?.getAttribute('data-state') ?? '', null);
}

export async function waitForBridgeState(ui: Sidebar, states: string[], timeoutMs = 15_000): Promise<string> {
  return ui.waitFor(
    (win, wanted) => {
      const state = win.document.querySelector('[data-testid="bridge-state"]')?.getAttribute('data-state') ?? '';
      return wanted.includes(state) ? state : '';
    },
    states,
    `the bridge to be ${states.join(' or ')}`,
    timeoutMs,
  );
}

/** Sets the relay URL and turns the bridge on, as a user would in the popup. */
export async function turnBridgeOn(ui: Sidebar, url: string): Promise<void> {
  await ui.fill('[data-testid="bridge-url"]', url);
  await ui.click('[data-testid="save-bridge-url"]');
  await ui.waitFor((win, wanted) => (win.document.querySelector('[data-testid="bridge-url"]') as HTMLInputElement | null)?.value === wanted, url, 'the URL to be saved');
  if (await ui.eval((win) => Boolean(win.document.querySelector('[data-testid="bridge-connect"]')), null)) await ui.click('[data-testid="bridge-connect"]');
  await waitForBridgeState(ui, ['connected', 'paired']);
}

/** Approves the pairing request showing `code` (and only that one). */
export async function approvePairing(ui: Sidebar, code: string, timeoutMs = 15_000): Promise<void> {
  await ui.waitFor(
    (win, wanted) => Array.from(win.document.querySelectorAll('[data-testid="pairing-code"]')).some((element) => element.textContent === wanted),
    code,
    `a pairing request with code ${code}`,
    timeoutMs,
  );
  const clicked = await ui.eval((win, wanted) => {
    const request = Array.from(win.document.querySelectorAll('[data-testid="pairing-request"]')).find((element) => element.querySelector('[data-testid="pairing-code"]')?.textContent === wanted);
    const button = request?.querySelector('[data-testid="approve-pairing"]') as HTMLButtonElement | null | undefined;
    button?.click();
    return Boolean(button);
  }, code);
  if (!clicked) throw new Error(`No approve button for code ${code}`);
}

export interface PromptSeen {
  tool: string;
  critical: boolean;
  client: string;
}

/** Waits for a permission prompt, reads it, and answers it with `decide`'s decision. */
export async function answerPrompt(ui: Sidebar, decide: (prompt: PromptSeen) => Decision, timeoutMs = 15_000): Promise<PromptSeen> {
  // waitFor only returns once the prompt was read (a truthy value).
  const seen = (await ui.waitFor(
    (win) => {
      const prompt = win.document.querySelector('[data-testid="permission-prompt"]');
      if (!prompt || prompt.getAttribute('aria-busy') === 'true') return undefined;
      return {
        id: prompt.getAttribute('data-step-id') ?? '',
        tool: prompt.querySelector('h2 code')?.textContent ?? '',
        critical: prompt.getAttribute('data-critical') === 'true',
        client: prompt.querySelector('[data-testid="prompt-client"]')?.textContent ?? '',
      };
    },
    null,
    'a permission prompt',
    timeoutMs,
  ))!;
  const decision = decide(seen);
  await ui.click(`[data-testid="permission-prompt"][data-step-id="${seen.id}"] [data-testid="decision-${decision}"]`);
  await ui.waitFor((win, id) => !win.document.querySelector(`[data-testid="permission-prompt"][data-step-id="${id}"]`), seen.id, 'the prompt to close');
  return { tool: seen.tool, critical: seen.critical, client: seen.client };
}
