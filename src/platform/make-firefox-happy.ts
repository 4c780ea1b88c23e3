/** Firefox-only behaviour: the sidebar is `sidebarAction`. */
import browser from 'webextension-polyfill';

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
