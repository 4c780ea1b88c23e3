import { describe, expect, it } from 'vitest';
import type { Runtime } from 'webextension-polyfill';
import { isOwnExtensionPage, isSidebarPort, type ExtensionIdentity } from '../../src/background/messenger';
import { SIDEBAR_PORT_NAME } from '../../src/protocol';
import { fakePort } from './fake-port';

const self: ExtensionIdentity = { id: 'jawad@example.org', baseUrl: 'moz-extension://1111-2222/' };
const sidebar: Runtime.MessageSender = { id: self.id, url: 'moz-extension://1111-2222/src/sidebar/index.html' };
const contentScript: Runtime.MessageSender = { id: self.id, url: 'https://example.com/page', tab: { id: 7 } as Runtime.MessageSender['tab'] };

describe('isOwnExtensionPage', () => {
  it('accepts this extension’s own pages only', () => {
    expect(isOwnExtensionPage(sidebar, self)).toBe(true);
    expect(isOwnExtensionPage(contentScript, self)).toBe(false);
    expect(isOwnExtensionPage({ ...sidebar, id: 'other@example.org' }, self)).toBe(false);
    expect(isOwnExtensionPage({ id: self.id }, self)).toBe(false);
    expect(isOwnExtensionPage(undefined, self)).toBe(false);
  });

  it('is not fooled by a look-alike extension URL', () => {
    expect(isOwnExtensionPage({ id: self.id, url: 'moz-extension://1111-2222.evil/x.html' }, self)).toBe(false);
    expect(isOwnExtensionPage({ id: self.id, url: 'https://evil.example/moz-extension://1111-2222/' }, self)).toBe(false);
  });
});

describe('isSidebarPort', () => {
  it('needs both the sidebar name and an own extension page', () => {
    expect(isSidebarPort(fakePort(SIDEBAR_PORT_NAME, sidebar).port, self)).toBe(true);
    expect(isSidebarPort(fakePort('other', sidebar).port, self)).toBe(false);
    expect(isSidebarPort(fakePort(SIDEBAR_PORT_NAME, contentScript).port, self)).toBe(false);
  });
});
