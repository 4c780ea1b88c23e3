import { describe, expect, it } from 'vitest';
import { handedToServiceWorker, serviceWorkerOrigin } from '../../../src/background/tools/service-worker';

describe('requests a service worker takes', () => {
  it('tells Firefox’s hand-off to a worker (a redirect to its own address, no status) from a real redirect', () => {
    const url = 'https://notes.example/api/notes';
    expect(handedToServiceWorker({ url, redirectUrl: url, statusCode: 0 })).toBe(true);
    expect(handedToServiceWorker({ url, redirectUrl: url, statusCode: 302 })).toBe(false);
    // An upgrade to https is the browser's own redirect, with no status either: the load goes on.
    expect(handedToServiceWorker({ url: 'http://notes.example/', redirectUrl: 'https://notes.example/', statusCode: 0 })).toBe(false);
  });

  it('names the origin whose worker made a request, in either browser’s words, and none for a tab’s own', () => {
    expect(serviceWorkerOrigin({ tabId: -1, initiator: 'https://notes.example' })).toBe('https://notes.example');
    expect(serviceWorkerOrigin({ tabId: -1, originUrl: 'https://notes.example:8443/sw.js' })).toBe('https://notes.example:8443');
    expect(serviceWorkerOrigin({ tabId: 4, initiator: 'https://notes.example' })).toBe('');
    expect(serviceWorkerOrigin({ tabId: -1 })).toBe('');
    expect(serviceWorkerOrigin({ tabId: -1, initiator: 'null' })).toBe('');
  });
});
