/**
 * Who may talk to the background. Pages and other extensions must never reach privileged handlers:
 * the sidebar Port is accepted only from this extension's own pages, by name.
 */
import type { Runtime } from 'webextension-polyfill';
import { SIDEBAR_PORT_NAME } from '../protocol';

export interface ExtensionIdentity {
  id: string;
  /** The extension's base URL, e.g. `chrome-extension://abc/` or `moz-extension://uuid/`. */
  baseUrl: string;
}

/** True when the sender is a page of this extension (sidebar, options, welcome), not a web page. */
export function isOwnExtensionPage(sender: Runtime.MessageSender | undefined, self: ExtensionIdentity): boolean {
  if (!sender || sender.id !== self.id) return false;
  const url = sender.url ?? '';
  return url.startsWith(self.baseUrl);
}

export function isSidebarPort(port: Runtime.Port, self: ExtensionIdentity): boolean {
  return port.name === SIDEBAR_PORT_NAME && isOwnExtensionPage(port.sender, self);
}
