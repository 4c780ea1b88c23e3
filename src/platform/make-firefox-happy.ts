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
 * extension's own requests to the configured provider.
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
    { urls: ['<all_urls>'], types: ['xmlhttprequest'] },
    ['blocking', 'requestHeaders'],
  );
}

export async function allowProviderOrigin(baseUrl: string | undefined): Promise<void> {
  providerOrigin = baseUrl ? new URL(baseUrl).origin : undefined;
}
