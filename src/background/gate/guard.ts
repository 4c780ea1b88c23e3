/**
 * The agent's guard rails on top of Harbor's per-site policy: a task keeps to its own sites and
 * tabs, and text read from pages never leaves through a URL or a form field without the user
 * seeing it. Pure: the agent tells it what was read and what is about to happen.
 *
 * It assumes the model obeys whatever it reads, so it judges the data, not the model's intent.
 */
import type { Egress, PermissionLevel } from '../../protocol';
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

/** Lower-case letters and digits only: "a d a . e x a m p l e" and "ada-example" both read "adaexample". */
const compact = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
const reversed = (text: string) => [...text].reverse().join('');
/** Page tokens this long are looked for inside any spelling of a value (shorter ones are too common). */
const MIN_HIDDEN_TOKEN = 6;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Runs that look like base64 or base64url, decoded (printable results only). */
function base64Decoded(text: string): string[] {
  const decoded: string[] = [];
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{8,}={0,2}/g)) {
    try {
      const plain = atob(run.replace(/-/g, '+').replace(/_/g, '/'));
      if (/^[\x20-\x7e\s]+$/.test(plain)) decoded.push(plain);
    } catch {
      // not base64 after all
    }
  }
  return decoded;
}

/** Every spelling of a value data could hide in: as written, URL-decoded, base64-decoded, reversed. */
function spellingsOf(value: string): string[] {
  const decoded = safeDecode(value);
  return [value, decoded, ...base64Decoded(value), ...base64Decoded(decoded), reversed(value)];
}

/**
 * What the agent has read from pages (and from the user), so it can tell where a piece of text it
 * is about to send came from. A token the user wrote is the user's, even if a page has it too.
 * It looks through encodings (URL, base64, reversed, spaced out, split over subdomains), and it
 * remembers every origin data was read from: the rule the ledger cannot be fooled about is by
 * origin (see guardStep).
 */
export class PageDataLedger {
  private readonly fromPages = new Map<string, string>();
  private readonly fromUser = new Set<string>();
  /** Long page tokens by their compact spelling, for finding them inside encoded values. */
  private readonly compactPageTokens = new Map<string, string>();
  private readonly origins = new Set<string>();

  addUserText(text: string): void {
    for (const token of tokensOf(text)) this.fromUser.add(token);
  }

  /** `origin`: scheme, host and port it was read from, when known (earlier turns' pages are not). */
  addPageText(text: string, site: string, origin?: string): void {
    if (origin) this.origins.add(origin);
    for (const token of tokensOf(text)) {
      if (!this.fromPages.has(token)) this.fromPages.set(token, site);
      const squeezed = compact(token);
      if (squeezed.length >= MIN_HIDDEN_TOKEN && !this.compactPageTokens.has(squeezed)) this.compactPageTokens.set(squeezed, token);
    }
  }

  /** The origins this task has read page data from. */
  originsRead(): string[] {
    return [...this.origins];
  }

  /** The tokens of `value`, in any of its spellings, that came from a page (other than `except`) and not from the user. */
  pageDataIn(value: string, except?: string): PageDataHit[] {
    const hits = new Map<string, string>();
    const note = (token: string) => {
      if (!this.fromUser.has(token) && this.fromPages.has(token)) hits.set(token, this.fromPages.get(token)!);
    };
    const spellings = spellingsOf(value);
    for (const spelling of spellings) for (const token of tokensOf(spelling)) note(token);
    const squeezed = spellings.map(compact).join(' ');
    const userSqueezed = [...this.fromUser].map(compact);
    for (const [token, original] of this.compactPageTokens) {
      if (hits.has(original) || !squeezed.includes(token)) continue;
      // Part of something the user wrote ("adaexamplecom") is the user's.
      if (!userSqueezed.some((mine) => mine.includes(token))) note(original);
    }
    return [...hits].filter(([, site]) => site !== except).map(([token, site]) => ({ token, site }));
  }
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"'`)\]]+/gi;

/** A site an approved research plan may visit, and the most it may do there. */
export interface ApprovedSite {
  site: string;
  level: PermissionLevel;
}

const LEVEL_RANK: readonly PermissionLevel[] = ['read-only', 'navigate', 'interact', 'submit'];

/** The sites and tabs a task may use without asking: where it started, what the user named, what the user approved. */
export class TaskScope {
  private readonly sites = new Set<string>();
  private readonly tabs = new Set<number>();
  /** Set for a research plan's task: the approved sites and levels; a level above asks. */
  private readonly approved: Map<string, PermissionLevel> | undefined;

  constructor(start: { tabId: number; url: string }, userText: string, approved?: readonly ApprovedSite[]) {
    this.tabs.add(start.tabId);
    this.allowSite(siteOf(start.url));
    for (const url of userText.match(URL_IN_TEXT) ?? []) this.allowSite(siteOf(url));
    if (approved) {
      this.approved = new Map(approved.map(({ site, level }) => [site, level]));
      for (const { site } of approved) this.allowSite(site);
    }
  }

  /** Why a step asks although Harbor's grants might let it run: it goes beyond what the user approved in the plan. */
  beyondApproved(site: string, level: PermissionLevel): string | undefined {
    if (!this.approved || level === 'read-only') return undefined;
    const allowed = this.approved.get(site);
    if (allowed && LEVEL_RANK.indexOf(level) <= LEVEL_RANK.indexOf(allowed)) return undefined;
    return allowed ? `The approved plan lets this task only ${allowed === 'read-only' ? 'read' : allowed} on ${site}.` : `${site} is not in the approved plan.`;
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

  tabList(): number[] {
    return [...this.tabs];
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
  /** The URL the browser would go to: opened, or a link followed. */
  url?: string;
  /**
   * The URL is the page's own link (or form action), on `site`: its words are that page's, so only
   * data read elsewhere counts against it.
   */
  urlFromPage?: boolean;
  /**
   * The text is one the page itself offers (an option of the select it is chosen in): its words are
   * that page's, so only data read elsewhere counts against it.
   */
  textFromPage?: boolean;
  /** Where the text or the URL would go: scheme, host and port. */
  origin?: string;
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

/** The part of a URL that can carry data: all of it but the scheme and the port (subdomains carry data too). */
function payloadOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname} ${parsed.pathname} ${parsed.search} ${parsed.hash} ${parsed.username} ${parsed.password}`;
  } catch {
    return url;
  }
}

/**
 * The rule no encoding gets round: once a task has read data from one origin, sending text or
 * opening a URL toward another origin asks — the user sees what and where.
 */
function crossOriginReason(facts: StepFacts, ledger: PageDataLedger): string | undefined {
  if (!facts.origin || (facts.text === undefined && facts.url === undefined) || facts.text === '') return undefined;
  const others = ledger.originsRead().filter((origin) => origin !== facts.origin);
  if (others.length === 0) return undefined;
  return `This task has read data from ${others.slice(0, 3).join(', ')}${others.length > 3 ? ' and more' : ''}; this step sends to ${facts.origin}.`;
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
  const leadsTo = facts.urlFromPage && facts.url ? siteOf(facts.url) : '';
  if (leadsTo && leadsTo !== facts.site && !scope.hasSite(leadsTo)) reasons.push(`It leads to ${leadsTo}, which is not one of this task’s sites.`);
  if ((facts.kind === 'page' || facts.kind === 'url') && !facts.site) reasons.push('It is not on a web site Jawad can check.');
  const crossOrigin = crossOriginReason(facts, ledger);
  if (crossOrigin) reasons.push(crossOrigin);
  if (facts.url !== undefined) {
    const hits = ledger.pageDataIn(payloadOf(facts.url), facts.urlFromPage ? facts.site : undefined);
    if (hits.length) reasons.push(`The address ${describeHits(hits)}.`);
    // Following a page's own link on its own origin sends nothing the page did not have.
    if (!facts.urlFromPage || hits.length || crossOrigin || !scope.hasSite(siteOf(facts.url))) {
      egress.push({ kind: 'url', value: facts.url, reason: hits.length ? `The address ${describeHits(hits)}.` : crossOrigin ?? `Opens ${siteOf(facts.url) || facts.url}.` });
    }
  }
  if (facts.text !== undefined && facts.text !== '') {
    const hits = ledger.pageDataIn(facts.text, facts.textFromPage ? facts.site : undefined);
    if (hits.length) reasons.push(`The text ${describeHits(hits)}.`);
    egress.push({ kind: 'text', value: facts.text, reason: hits.length ? `The text ${describeHits(hits)}.` : `Typed into ${facts.site || 'the page'}.` });
  }
  return { reasons, egress };
}
