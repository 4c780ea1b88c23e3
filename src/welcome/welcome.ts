import browser from 'webextension-polyfill';
import { openPanel, PANEL_NAME } from '../platform';

document.getElementById('panel-name')!.textContent = PANEL_NAME;

let windowId: number | undefined;
void browser.windows.getCurrent().then((window) => (windowId = window.id));

document.getElementById('open-panel')!.addEventListener('click', () => {
  // Opening the panel needs the click's user gesture: no await may come before this call.
  openPanel(windowId ?? browser.windows.WINDOW_ID_CURRENT).catch((error: unknown) => {
    document.getElementById('open-error')!.textContent = `Could not open the ${PANEL_NAME}: ${String(error)}`;
  });
});
