import { describe, expect, it } from 'vitest';
import { sameSite, siteOf } from '../../../src/background/harbor/site';

describe('siteOf', () => {
  it.each([
    ['https://example.com', 'https://example.com'],
    ['https://www.example.com/path?q=1#top', 'https://example.com'],
    ['https://a.b.c.example.com/', 'https://example.com'],
    ['HTTPS://WWW.EXAMPLE.COM/', 'https://example.com'],
    ['https://example.com:8443/admin', 'https://example.com'],
    ['  https://example.com  ', 'https://example.com'],
    ['http://example.com', 'http://example.com'],
    ['https://shop.example.co.uk/basket', 'https://example.co.uk'],
    ['https://example.co.uk', 'https://example.co.uk'],
    // A trailing dot is another host to the browser.
    ['https://example.com.', 'https://example.com.'],
    ['https://www.example.com./', 'https://example.com.'],
    ['https://example.com..', 'https://example.com..'],
    // Look-alikes are punycoded by the URL parser and stay apart.
    ['https://exаmple.com', 'https://xn--exmple-4nf.com'],
    ['https://xn--exmple-cua.com', 'https://xn--exmple-cua.com'],
    ['https://münchen.de', 'https://xn--mnchen-3ya.de'],
    // Fullwidth letters and an ideographic full stop are the real example.com to the browser too.
    ['https://ｅｘａｍｐｌｅ.com', 'https://example.com'],
    ['https://example。com', 'https://example.com'],
    // Userinfo and paths are not the host.
    ['https://example.com@evil.test/', 'https://evil.test'],
    ['https://example.com:pass@evil.test', 'https://evil.test'],
    ['https://evil.com/https://example.com', 'https://evil.com'],
    ['https://example.com.evil.com/', 'https://evil.com'],
    // Private suffixes: each tenant is its own site.
    ['https://alice.github.io/page', 'https://alice.github.io'],
    ['https://s3.amazonaws.com/bucket', 'https://s3.amazonaws.com'],
    // IPs, localhost and unlisted suffixes: the whole host, no port.
    ['http://127.0.0.1:8080/fixture.html', 'http://127.0.0.1'],
    ['http://0x7f.1/', 'http://127.0.0.1'],
    ['http://[::1]:8080/', 'http://[::1]'],
    ['http://localhost:3000/app', 'http://localhost'],
    ['https://intranet/wiki', 'https://intranet'],
    ['https://a.evil.test/', 'https://a.evil.test'],
  ])('%s → %s', (url, site) => {
    expect(siteOf(url)).toBe(site);
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,<h1>hi</h1>',
    'file:///etc/passwd',
    'chrome://settings',
    'about:blank',
    'chrome-extension://abcdefghijklmnop/sidebar.html',
    'moz-extension://0f1e2d3c/sidebar.html',
    'blob:https://example.com/9a8b7c6d',
    'ftp://example.com/file',
    'ws://example.com/socket',
    'view-source:https://example.com',
    '',
    'example.com',
    'not a url',
    'https://',
  ])('%s has no site', (url) => {
    expect(siteOf(url)).toBe('');
  });
});

describe('sameSite', () => {
  it.each([
    ['https://a.example.com/x', 'https://b.example.com/y'],
    ['https://example.com', 'https://www.example.com:444/'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:9090/'],
    ['https://shop.example.co.uk', 'https://example.co.uk/account'],
  ])('%s and %s are the same site', (a, b) => {
    expect(sameSite(siteOf(a), siteOf(b))).toBe(true);
  });

  it.each([
    ['http://example.com', 'https://example.com'],
    ['https://example.com', 'https://example.com.'],
    ['https://example.com', 'https://exаmple.com'],
    ['https://example.com', 'https://example.com@evil.test/'],
    ['https://example.co.uk', 'https://other.co.uk'],
    ['https://alice.github.io', 'https://bob.github.io'],
    ['http://127.0.0.1', 'http://localhost'],
    ['https://evil.test', 'https://a.evil.test'],
  ])('%s and %s are different sites', (a, b) => {
    expect(sameSite(siteOf(a), siteOf(b))).toBe(false);
  });

  it('never matches "no site", not even with itself', () => {
    expect(sameSite('', '')).toBe(false);
    expect(sameSite(siteOf('javascript:void 0'), siteOf('about:blank'))).toBe(false);
    expect(sameSite('https://example.com', '')).toBe(false);
  });
});
