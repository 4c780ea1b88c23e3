/**
 * Chromium-only behaviour. `chrome.sidePanel` and `declarativeNetRequest` have no Firefox
 * equivalent (and no webextension-polyfill typing), so their minimal shapes are declared here.
 */
interface ChromeApis {
  runtime: { id: string };
  sidePanel: {
    setPanelBehavior(behavior: { openPanelOnActionClick: boolean }): Promise<void>;
    open(options: { windowId: number }): Promise<void>;
  };
  declarativeNetRequest: {
    updateSessionRules(update: { removeRuleIds: number[]; addRules: unknown[] }): Promise<void>;
  };
}
declare const chrome: ChromeApis;

const ORIGIN_RULE_ID = 1;

/** The toolbar button and the keyboard shortcut (`_execute_action`) open the side panel. */
export function setUpPanelOpening(): void {
  chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
}

/** Must run inside a click handler (a user gesture), before any await. */
export function openPanel(windowId: number): Promise<void> {
  return chrome.sidePanel.open({ windowId });
}

/**
 * Ollama (and other local servers) answer 403 to `chrome-extension://` origins. A session rule
 * rewrites the Origin of the extension's own requests to the provider to the provider's origin.
 */
export async function allowProviderOrigin(baseUrl: string | undefined): Promise<void> {
  const addRules = baseUrl
    ? [
        {
          id: ORIGIN_RULE_ID,
          priority: 1,
          action: {
            type: 'modifyHeaders',
            requestHeaders: [{ header: 'origin', operation: 'set', value: new URL(baseUrl).origin }],
          },
          condition: {
            urlFilter: `|${new URL(baseUrl).origin}/`,
            initiatorDomains: [chrome.runtime.id],
            resourceTypes: ['xmlhttprequest', 'other'],
          },
        },
      ]
    : [];
  await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: [ORIGIN_RULE_ID], addRules });
}
