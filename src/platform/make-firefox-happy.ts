/** Firefox-only behaviour: the sidebar is `sidebarAction`, headers are rewritten with webRequest. */
import browser, { type WebRequest } from 'webextension-polyfill';

let providerOrigin: string | undefined;

/** The toolbar button toggles the sidebar (the shortcut is `_execute_sidebar_action`). */
export function setUpPanelOpening(): void {
  browser.action.onClicked.addListener(() => {
    void browser.sidebarAction.toggle();
  });
}

/** Must run inside a click handler (a user gesture), before any await. */
export function openPanel(): Promise<void> {
  return browser.sidebarAction.open();
}

/**
 * Ollama answers 403 to `moz-extension://` origins. This blocking listener, registered at start-up
 * (event pages need their listeners registered synchronously), rewrites the Origin of the
 * background's requests to the configured provider (only the background talks to providers).
 */
export function installOriginRewrite(): void {
  const ownOrigin = new URL(browser.runtime.getURL('/')).origin;
  browser.webRequest.onBeforeSendHeaders.addListener(
    (details: WebRequest.OnBeforeSendHeadersDetailsType) => {
      if (!providerOrigin || !details.requestHeaders) return {};
      if (!details.originUrl?.startsWith(ownOrigin) || new URL(details.url).origin !== providerOrigin) return {};
      const target = providerOrigin;
      const requestHeaders = details.requestHeaders.map((header) =>
        header.name.toLowerCase() === 'origin' ? { name: header.name, value: target } : header,
      );
      return { requestHeaders };
    },
    // tabId -1: requests of no tab — the background's. Without it every page's fetch and XHR in the
    // browser would wait on this blocking listener, and wake the event page to be waved through.
    { urls: ['<all_urls>'], types: ['xmlhttprequest'], tabId: -1 },
    ['blocking', 'requestHeaders'],
  );
}

export async function allowProviderOrigin(baseUrl: string | undefined): Promise<void> {
  providerOrigin = baseUrl ? new URL(baseUrl).origin : undefined;
}
