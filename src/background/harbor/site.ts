/**
 * What Harbor calls a site: the scheme plus the registrable domain, so one grant covers
 * shop.example.com and www.example.com but never example.com.evil.test or a look-alike.
 */
import { parse } from 'tldts';

const WEB_SCHEMES = new Set(['http:', 'https:']);

/**
 * Private suffixes count (foo.github.io and bar.github.io belong to different people), and a host
 * whose suffix is on no list (localhost, intranet, evil.test) is its own site, as it is for the
 * browser's own notion of "site".
 */
const TLDTS_OPTIONS = { allowPrivateDomains: true, extractHostname: false } as const;

/**
 * "https://example.com": lower-case scheme + registrable domain (eTLD+1 via tldts, punycode/ASCII
 * form). For IP addresses, `localhost` and other hosts with no public suffix: scheme + hostname (no
 * port). '' for anything that is not an http(s) URL or does not parse.
 */
export function siteOf(url: string): string {
  const parsed = parseWebUrl(url);
  if (!parsed) return '';
  return `${parsed.protocol}//${registrableHost(parsed.hostname)}`;
}

/** Both non-empty and equal: '' (no site) never matches anything, not even ''. */
export function sameSite(a: string, b: string): boolean {
  return a !== '' && a === b;
}

/** Scheme, host and port: where data would go, and whose service worker serves a page. '' for an address with no origin. */
export function originOf(url: string): string {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? '' : origin;
  } catch {
    return '';
  }
}

/** The URL, when it is an http(s) address with a host; else undefined. */
export function parseWebUrl(url: string): URL | undefined {
  try {
    // The WHATWG parser lower-cases, punycodes IDNs and drops userinfo from `hostname` for us.
    const parsed = new URL(url);
    return WEB_SCHEMES.has(parsed.protocol) && parsed.hostname !== '' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A fully-qualified "example.com." is a different host to the browser (its own cookies, its own
 * origin), so the trailing dot is kept rather than folded into example.com. Hosts with empty
 * labels ("example.com..", "a..example.com") are odd enough to be only themselves.
 */
function registrableHost(hostname: string): string {
  const trailingDot = hostname.endsWith('.') ? '.' : '';
  const bare = trailingDot ? hostname.slice(0, -1) : hostname;
  if (bare.split('.').includes('')) return hostname;
  const info = parse(bare, TLDTS_OPTIONS);
  const listedSuffix = info.isIcann === true || info.isPrivate === true;
  if (info.isIp || !listedSuffix || !info.domain) return hostname;
  return info.domain + trailingDot;
}
