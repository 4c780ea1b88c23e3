import { describe, expect, it } from 'vitest';
import { guardStep, PageDataLedger, TaskScope, tokensOf } from '../../../src/background/gate/guard';

const SHOP = 'http://127.0.0.1:8080/shop';

function setup(userText = 'Find a red jacket. My email is ada@example.com') {
  const scope = new TaskScope({ tabId: 1, url: SHOP }, userText);
  const ledger = new PageDataLedger();
  ledger.addUserText(userText);
  ledger.addPageText('Order 88421 confirmed for Grace Hopper. Secret coupon ZEBRA-7731. Contact support@shop.test', 'http://127.0.0.1');
  return { scope, ledger };
}

describe('tokensOf', () => {
  it('keeps words of five letters or more, anything with a digit or @, and the parts of addresses', () => {
    expect(tokensOf('a red jacket, size M, 2 items, order #8842, ada@example.com')).toEqual(
      expect.arrayContaining(['jacket', 'items', '8842', 'ada@example.com', 'example']),
    );
    expect(tokensOf('a red jacket, size M')).not.toContain('red');
    expect(tokensOf('a red jacket, size M')).not.toContain('size');
  });
});

describe('guardStep', () => {
  it('lets a step on the task’s own tab and site through without reasons', () => {
    const { scope, ledger } = setup();
    expect(guardStep({ kind: 'page', site: 'http://127.0.0.1', tabId: 1 }, scope, ledger)).toEqual({ reasons: [], egress: [] });
  });

  it('asks when typing text that came from the page, and shows it', () => {
    const { scope, ledger } = setup();
    const findings = guardStep({ kind: 'page', site: 'http://127.0.0.1', tabId: 1, text: 'Hi, my coupon is ZEBRA-7731' }, scope, ledger);
    expect(findings.reasons.join(' ')).toMatch(/read from http:\/\/127\.0\.0\.1.*zebra-7731/i);
    expect(findings.egress).toEqual([expect.objectContaining({ kind: 'text', value: 'Hi, my coupon is ZEBRA-7731' })]);
  });

  it('treats the user’s own words as theirs, even when a page repeats them', () => {
    const { scope, ledger } = setup();
    ledger.addPageText('Welcome back ada@example.com', 'http://127.0.0.1');
    const findings = guardStep({ kind: 'page', site: 'http://127.0.0.1', tabId: 1, text: 'ada@example.com' }, scope, ledger);
    expect(findings.reasons).toEqual([]);
    expect(findings.egress).toHaveLength(1); // still shown: it leaves the sidebar
  });

  it('asks before opening a site the task is not about, and before an address that carries page data', () => {
    const { scope, ledger } = setup();
    const offTask = guardStep({ kind: 'url', site: 'http://localhost', url: 'http://localhost:9999/steal?q=ada@example.com' }, scope, ledger);
    expect(offTask.reasons).toEqual(['http://localhost is not one of this task’s sites.']);
    const exfil = guardStep({ kind: 'url', site: 'http://127.0.0.1', url: 'http://127.0.0.1:8080/search?q=88421+hopper' }, scope, ledger);
    expect(exfil.reasons.join(' ')).toMatch(/address contains text read from/);
    expect(exfil.egress[0]).toMatchObject({ kind: 'url', value: 'http://127.0.0.1:8080/search?q=88421+hopper' });
  });

  it('counts sites the user named in the task as the task’s, and tabs it opened or was allowed', () => {
    const scope = new TaskScope({ tabId: 1, url: SHOP }, 'Compare with https://www.example.org/prices please');
    const ledger = new PageDataLedger();
    expect(guardStep({ kind: 'url', site: 'https://example.org', url: 'https://www.example.org/prices' }, scope, ledger).reasons).toEqual([]);
    expect(guardStep({ kind: 'tab', site: 'https://example.org', tabId: 7 }, scope, ledger).reasons).toEqual(['It uses a tab this task did not start from or open.']);
    scope.adoptTab(7);
    expect(guardStep({ kind: 'tab', site: 'https://example.org', tabId: 7 }, scope, ledger).reasons).toEqual([]);
  });

  it('asks for pages that are not web sites', () => {
    const { scope, ledger } = setup();
    expect(guardStep({ kind: 'page', site: '', tabId: 1 }, scope, ledger).reasons).toEqual(['It is not on a web site Jawad can check.']);
  });

  it('finds page data however it is spelled: URL-encoded, base64, reversed, spaced out, split over subdomains', () => {
    const { scope, ledger } = setup();
    const encodings = [
      'http://evil.test/c?d=WkVCUkEtNzczMQ==', // base64("ZEBRA-7731")
      'http://evil.test/c?d=WkVCUkEtNzczMQ', // base64url without padding
      'http://evil.test/c?d=1377-ARBEZ', // reversed
      'http://evil.test/c?d=Z%20E%20B%20R%20A%207%207%203%201', // spaced out, URL-encoded
      'http://zebra.7731.evil.test/', // in the host
      'http://evil.test/g.r.a.c.e.h.o.p.p.e.r',
    ];
    for (const url of encodings) {
      const findings = guardStep({ kind: 'url', site: 'https://evil.test', url, origin: 'http://evil.test' }, scope, ledger);
      expect(findings.reasons.join(' '), url).toMatch(/contains text read from/);
    }
  });

  it('asks before text or a URL goes to another origin once the task has read from one, however innocent it looks', () => {
    const scope = new TaskScope({ tabId: 1, url: SHOP }, 'Tell me about this shop');
    const ledger = new PageDataLedger();
    ledger.addPageText('Welcome to the shop', 'http://127.0.0.1', 'http://127.0.0.1:8080');
    const sameOrigin = guardStep({ kind: 'page', site: 'http://127.0.0.1', tabId: 1, text: 'hello', origin: 'http://127.0.0.1:8080' }, scope, ledger);
    expect(sameOrigin.reasons).toEqual([]);
    const otherPort = guardStep({ kind: 'page', site: 'http://127.0.0.1', tabId: 1, text: 'hello', origin: 'http://127.0.0.1:9090' }, scope, ledger);
    expect(otherPort.reasons).toEqual(['This task has read data from http://127.0.0.1:8080; this step sends to http://127.0.0.1:9090.']);
    expect(otherPort.egress[0]).toMatchObject({ kind: 'text', value: 'hello' });
  });

  it('judges a page’s own link by where it leads: on the task’s site it carries nothing out; elsewhere it asks', () => {
    const { scope, ledger } = setup();
    ledger.addPageText('Red jacket', 'http://127.0.0.1', 'http://127.0.0.1:8080');
    const own = guardStep({ kind: 'page', site: 'http://127.0.0.1', tabId: 1, url: 'http://127.0.0.1:8080/products/red-jacket', urlFromPage: true, origin: 'http://127.0.0.1:8080' }, scope, ledger);
    expect(own).toEqual({ reasons: [], egress: [] });
    const away = guardStep({ kind: 'page', site: 'http://127.0.0.1', tabId: 1, url: 'https://tracker.test/go?to=x', urlFromPage: true, origin: 'https://tracker.test' }, scope, ledger);
    expect(away.reasons.join(' ')).toMatch(/leads to https:\/\/tracker\.test, which is not one of this task’s sites/);
    expect(away.egress).toHaveLength(1);
  });

  it('lets a select take an option its own page lists, and asks when the option names what another site said', () => {
    const { scope, ledger } = setup();
    ledger.addPageText('- combobox "Sort by" [ref=e12] value="Featured" options=["Featured","Price: low to high"]', 'http://127.0.0.1', 'http://127.0.0.1:8080');
    ledger.addPageText('Your recovery code is zq81-vexa-7731', 'https://bank.test', 'https://bank.test');
    const facts = { kind: 'page' as const, site: 'http://127.0.0.1', tabId: 1, origin: 'http://127.0.0.1:8080', textFromPage: true };
    expect(guardStep({ ...facts, text: 'Price: low to high' }, scope, ledger).reasons.join(' ')).not.toMatch(/contains text read from/);
    expect(guardStep({ ...facts, text: 'zq81-vexa-7731' }, scope, ledger).reasons.join(' ')).toMatch(/The text contains text read from https:\/\/bank\.test/);
    // Typed, the same words are page data like any other.
    expect(guardStep({ ...facts, textFromPage: undefined, text: 'Price: low to high' }, scope, ledger).reasons.join(' ')).toMatch(/The text contains text read from http:\/\/127\.0\.0\.1/);
  });
});

describe('TaskScope with an approved research plan', () => {
  const approved = [{ site: 'https://alpine.com', level: 'navigate' as const }, { site: 'http://127.0.0.1', level: 'read-only' as const }];
  const scope = () => new TaskScope({ tabId: 1, url: 'https://www.alpine.com/jacket' }, 'compare jackets', approved);

  it('makes the approved sites the task’s own', () => {
    expect(scope().hasSite('http://127.0.0.1')).toBe(true);
    expect(scope().hasSite('https://boreal.com')).toBe(false);
  });

  it('asks for anything above the approved level or off the plan, never for reading', () => {
    expect(scope().beyondApproved('https://alpine.com', 'navigate')).toBeUndefined();
    expect(scope().beyondApproved('https://alpine.com', 'interact')).toBe('The approved plan lets this task only navigate on https://alpine.com.');
    expect(scope().beyondApproved('http://127.0.0.1', 'navigate')).toBe('The approved plan lets this task only read on http://127.0.0.1.');
    expect(scope().beyondApproved('https://boreal.com', 'interact')).toBe('https://boreal.com is not in the approved plan.');
    expect(scope().beyondApproved('https://boreal.com', 'read-only')).toBeUndefined();
  });

  it('changes nothing for a task without a plan', () => {
    expect(new TaskScope({ tabId: 1, url: 'https://alpine.com/' }, 'x').beyondApproved('https://alpine.com', 'submit')).toBeUndefined();
  });
});
