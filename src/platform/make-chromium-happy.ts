/**
 * Chromium-only behaviour. `chrome.sidePanel` has no Firefox equivalent (and no
 * webextension-polyfill typing), so its minimal shape is declared here.
 */
interface ChromeApis {
  sidePanel: {
    setPanelBehavior(behavior: { openPanelOnActionClick: boolean }): Promise<void>;
    open(options: { windowId: number }): Promise<void>;
  };
}
declare const chrome: ChromeApis;

/** The toolbar button and the keyboard shortcut (`_execute_action`) open the side panel. */
export function setUpPanelOpening(): void {
  chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
}

/** Must run inside a click handler (a user gesture), before any await. */
export function openPanel(windowId: number): Promise<void> {
  return chrome.sidePanel.open({ windowId });
}

/** Chromium reports a request an action started before the page's answer arrives (−9 to 0 ms here). */
export const REQUEST_REPORT_LAG_MS = 0;
/** Nor later before a snapshot. */
export const REQUEST_REPORT_LAG_BEFORE_SNAPSHOT_MS = 0;

/** Chromium reports a page's load before the tab shows the page. */
export const PAGE_LOAD_REPORT_LAG_MS = 0;
