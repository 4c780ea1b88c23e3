/**
 * Ollama (and other local servers) answer 403 to extension origins (`chrome-extension://`,
 * `moz-extension://`). A declarativeNetRequest session rule (./session-rules.ts) sets the
 * Origin of the extension's own requests to the provider to the provider's origin. The browser
 * applies it in its network stack: no listener of Jawad's sits in the path of any request.
 */
import browser from 'webextension-polyfill';
import { sessionRules, type SessionRule } from './session-rules';

const ORIGIN_RULE_ID = 1;

export async function allowProviderOrigin(baseUrl: string | undefined): Promise<void> {
  // Chromium's initiator is the extension's id; Firefox's is the host of its moz-extension:// URLs
  // (a per-install UUID, not the add-on id) — the host of the extension's own URL is both.
  const ownHost = new URL(browser.runtime.getURL('/')).host;
  const origin = baseUrl ? new URL(baseUrl).origin : undefined;
  const addRules: SessionRule[] = origin
    ? [
        {
          id: ORIGIN_RULE_ID,
          priority: 1,
          action: { type: 'modifyHeaders', requestHeaders: [{ header: 'origin', operation: 'set', value: origin }] },
          condition: { urlFilter: `|${origin}/`, initiatorDomains: [ownHost], resourceTypes: ['xmlhttprequest', 'other'] },
        },
      ]
    : [];
  await sessionRules().updateSessionRules({ removeRuleIds: [ORIGIN_RULE_ID], addRules });
}
