/**
 * Injected into a tab a research step drives (seed 001's mask): while the background says so, an
 * overlay keeps the user's pointer and keys off the page, with a "Jawad is working — Stop" button.
 * The agent's own actions are dispatched to their targets directly and hit tests look through the
 * overlay, so it never makes them fail. A reload removes it; the background injects it again.
 */
import { extensionApi } from './extension-api';
import { MASK_INSTALLED, MASK_TAG } from './mask-tag';

const BLOCKED_KEYS = ['keydown', 'keypress', 'keyup'] as const;

function build(): { host: HTMLElement; stop: HTMLButtonElement } {
  const host = document.createElement(MASK_TAG);
  host.hidden = true;
  host.style.cssText = 'all: initial; position: fixed; inset: 0; z-index: 2147483647; display: block;';
  const shadow = host.attachShadow({ mode: 'closed' });
  const style = document.createElement('style');
  style.textContent = `
    :host([hidden]) { display: none !important; }
    .veil { position: fixed; inset: 0; background: rgb(30 64 175 / 0.08); box-shadow: inset 0 0 0 3px rgb(37 99 235 / 0.7); cursor: not-allowed; }
    .bar { position: fixed; left: 50%; bottom: 16px; transform: translateX(-50%); display: flex; gap: 10px; align-items: center;
      font: 14px system-ui, sans-serif; color: #fff; background: #1e3a8a; border-radius: 999px; padding: 6px 8px 6px 16px; cursor: default; }
    button { font: inherit; border: 0; border-radius: 999px; padding: 4px 12px; background: #fff; color: #1e3a8a; cursor: pointer; }`;
  const veil = document.createElement('div');
  veil.className = 'veil';
  const bar = document.createElement('div');
  bar.className = 'bar';
  bar.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = 'Jawad is working';
  const stop = document.createElement('button');
  stop.type = 'button';
  stop.textContent = 'Stop';
  bar.append(text, stop);
  shadow.append(style, veil, bar);
  return { host, stop };
}

function install(): void {
  const scope = globalThis as typeof globalThis & { [MASK_INSTALLED]?: boolean };
  if (scope[MASK_INSTALLED]) return;
  scope[MASK_INSTALLED] = true;
  const { host, stop } = build();
  document.documentElement.append(host);
  stop.addEventListener('click', () => void extensionApi().runtime.sendMessage({ type: 'MASK_STOP' }).catch(() => undefined));
  // Only the user's own keys (trusted events) are held back, and never those aimed at the Stop button.
  for (const type of BLOCKED_KEYS) {
    window.addEventListener(type, (event) => {
      if (host.hidden || !event.isTrusted || event.composedPath().includes(stop)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    }, true);
  }
  extensionApi().runtime.onMessage.addListener((message, sender, sendResponse) => {
    const request = message as { type?: unknown; visible?: unknown };
    if (sender.id !== extensionApi().runtime.id || request?.type !== 'MASK' || typeof request.visible !== 'boolean') return undefined;
    host.hidden = !request.visible;
    // A page that replaced the whole document element took the mask with it: put it back.
    if (!host.isConnected) document.documentElement.append(host);
    sendResponse({ ok: true, data: { visible: !host.hidden } });
    return undefined;
  });
}

install();
