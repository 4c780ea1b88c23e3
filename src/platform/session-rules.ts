/**
 * declarativeNetRequest's session rules, the same in both browsers: rules the browser applies in
 * its network stack until it closes, with no listener of Jawad's in the path of any request.
 */
import browser from 'webextension-polyfill';

/** A session rule as Jawad writes and reads it (the fields it uses). */
export interface SessionRule {
  id: number;
  priority: number;
  action: { type: 'modifyHeaders'; requestHeaders?: HeaderChange[]; responseHeaders?: HeaderChange[] };
  condition: { urlFilter?: string; initiatorDomains?: string[]; tabIds?: number[]; excludedTabIds?: number[]; resourceTypes: string[] };
}

interface HeaderChange {
  header: string;
  operation: 'set' | 'append' | 'remove';
  value?: string;
}

interface SessionRules {
  getSessionRules(): Promise<SessionRule[]>;
  updateSessionRules(update: { removeRuleIds: number[]; addRules: SessionRule[] }): Promise<void>;
}

/** The minimal shape used here: webextension-polyfill has no declarativeNetRequest typing. */
export const sessionRules = (): SessionRules => (browser as unknown as { declarativeNetRequest: SessionRules }).declarativeNetRequest;
