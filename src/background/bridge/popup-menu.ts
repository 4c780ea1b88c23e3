/**
 * The toolbar button opens the sidebar (Jawad's main surface, unchanged); its right-click menu
 * opens the bridge popup in a small window. Setting `default_popup` instead would take the
 * button away from the sidebar in both browsers.
 */
import browser from 'webextension-polyfill';
import { POPUP_PAGE } from '../../protocol/bridge';

const MENU_ID = 'jawad-bridge-popup';

/** Menus persist across background restarts: create it once, at install or update. */
export function createPopupMenu(): void {
  browser.contextMenus.create({ id: MENU_ID, title: 'Agent bridge…', contexts: ['action'] }, () => void browser.runtime.lastError);
}

/** Registered at the top level so the click wakes the background. */
export function listenForPopupMenu(): void {
  browser.contextMenus.onClicked.addListener((info) => {
    if (info.menuItemId !== MENU_ID) return;
    void browser.windows.create({ url: browser.runtime.getURL(POPUP_PAGE), type: 'popup', width: 400, height: 640 });
  });
}
