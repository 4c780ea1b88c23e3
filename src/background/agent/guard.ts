/**
 * The agent's guard rails on top of Harbor's per-site policy: a task keeps to its own sites and
 * tabs, and text read from pages never leaves through a URL or a form field without the user
 * seeing it. Pure: the agent tells it what was read and what is about to happen.
 *
 * It assumes the model obeys whatever it reads, so it judges the data, not the model's intent.
 */
import type { Egress } from '../../protocol';
import { siteOf } from '../harbor/site';

/** Words short enough to be everywhere carry no information; anything with a digit or @ does. */
function isDistinctive(token: string): boolean {
  return token.length >= 5 || (token.length >= 3 && /[\d@]/.test(token));
}

/** The distinctive tokens of a text, lower-cased: words, numbers, e-mail addresses. */
export function tokensOf(text: string): string[] {
  const tokens = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}@._%+-]+/gu)) {
    const token = match[0].replace(/^[._%+-]+|[._%+-]+$/g, '');
    if (isDistinctive(token)) tokens.add(token);
    // "ada@example.com" and "red-jacket-m" also count by their parts.
    for (const part of token.split(/[@._%+-]+/)) if (isDistinctive(part)) tokens.add(part);
  }
  return [...tokens];
}

export interface PageDataHit {
  token: string;
  /** Where it was read ("https://example.com"). */
  site: string;
}

/**
 * What the agent has read from pages (and from the user), so it can tell where a piece of text it
 * is about to send came from. A token the user wrote is the user's, even if a page has it too.
 */
export class PageDataLedger {
  private readonly fromPages = new Map<string, string>();
  private readonly fromUser = new Set<string>();

  addUserText(text: string): void {
    for (const token of tokensOf(text)) this.fromUser.add(token);
  }

  addPageText(text: string, site: string): void {
    for (const token of tokensOf(text)) if (!this.fromPages.has(token)) this.fromPages.set(token, site);
  }

  /** The tokens of `value` that came from a page and not from the user. */
  pageDataIn(value: string): PageDataHit[] {
    return tokensOf(value)
      .filter((token) => !this.fromUser.has(token) && this.fromPages.has(token))
      .map((token) => ({ token, site: this.fromPages.get(token)! }));
  }
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"'`)\]]+/gi;

/** The sites and tabs a task may use without asking: where it started, what the user named, what the user approved. */
export class TaskScope {
  private readonly sites = new Set<string>();
  private readonly tabs = new Set<number>();

  constructor(start: { tabId: number; url: string }, userText: string) {
    this.tabs.add(start.tabId);
    this.allowSite(siteOf(start.url));
    for (const url of userText.match(URL_IN_TEXT) ?? []) this.allowSite(siteOf(url));
  }

  allowSite(site: string): void {
    if (site) this.sites.add(site);
  }

  adoptTab(tabId: number): void {
    this.tabs.add(tabId);
  }

  hasSite(site: string): boolean {
    return this.sites.has(site);
  }

  hasTab(tabId: number): boolean {
    return this.tabs.has(tabId);
  }
}

/** What a step would do, as far as the guard cares. */
export interface StepFacts {
  /** page: acts in the tab (tabId) on `site` · url: opens `url` · tab: switches to or closes tabId · none: touches no page. */
  kind: 'page' | 'url' | 'tab' | 'none';
  site: string;
  tabId?: number;
  /** Text the step would put into the page (fill, type, select). */
  text?: string;
  url?: string;
}

export interface GuardFindings {
  /** Why the user must be asked, whatever Harbor's grants say. Empty: nothing for the guard. */
  reasons: string[];
  /** Data that would leave: shown to the user in the prompt. */
  egress: Egress[];
}

function describeHits(hits: PageDataHit[]): string {
  const sites = [...new Set(hits.map((hit) => hit.site || 'a page'))].join(', ');
  const sample = hits.slice(0, 3).map((hit) => `“${hit.token}”`).join(', ');
  return `contains text read from ${sites} (${sample})`;
}

/** The part of a URL that can carry data: everything after the host. */
function payloadOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname} ${parsed.search} ${parsed.hash} ${parsed.username} ${parsed.password}`;
  } catch {
    return url;
  }
}

export function guardStep(facts: StepFacts, scope: TaskScope, ledger: PageDataLedger): GuardFindings {
  const reasons: string[] = [];
  const egress: Egress[] = [];
  if (facts.kind === 'page' || facts.kind === 'tab') {
    if (facts.tabId !== undefined && !scope.hasTab(facts.tabId)) reasons.push('It uses a tab this task did not start from or open.');
  }
  if ((facts.kind === 'page' || facts.kind === 'url') && facts.site && !scope.hasSite(facts.site)) {
    reasons.push(`${facts.site} is not one of this task’s sites.`);
  }
  if ((facts.kind === 'page' || facts.kind === 'url') && !facts.site) reasons.push('It is not on a web site Jawad can check.');
  if (facts.url !== undefined) {
    const hits = ledger.pageDataIn(payloadOf(facts.url));
    if (hits.length) reasons.push(`The address ${describeHits(hits)}.`);
    egress.push({ kind: 'url', value: facts.url, reason: hits.length ? `The address ${describeHits(hits)}.` : `Opens ${facts.site || facts.url}.` });
  }
  if (facts.text !== undefined && facts.text !== '') {
    const hits = ledger.pageDataIn(facts.text);
    if (hits.length) reasons.push(`The text ${describeHits(hits)}.`);
    egress.push({ kind: 'text', value: facts.text, reason: hits.length ? `The text ${describeHits(hits)}.` : `Typed into ${facts.site || 'the page'}.` });
  }
  return { reasons, egress };
}
