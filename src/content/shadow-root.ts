/**
 * The shadow root behind an element, as far as an extension may see it: open roots, and closed
 * ones where the browser lets an extension in. Shared by the snapshot, the actions and the reader.
 */

/** The only elements attachShadow() accepts (HTML spec): these and custom elements. */
const SHADOW_HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);

const chromeDom = (globalThis as { chrome?: { dom?: { openOrClosedShadowRoot?: (e: Element) => ShadowRoot | null } } }).chrome?.dom;

/**
 * Where a closed shadow root may be: in a custom element, or in a built-in element with nothing
 * of its own that a widget draws into (its light content would not show beside the root).
 * Asking the extension API costs a call into it per element: most elements are not asked.
 */
function mayHostClosedRoot(element: Element): boolean {
  if (element.localName.includes('-')) return true;
  if (!SHADOW_HOSTS.has(element.localName) || element.firstElementChild) return false;
  for (let child = element.firstChild; child; child = child.nextSibling) if (child.nodeType === Node.TEXT_NODE && /\S/.test((child as Text).data)) return false;
  return true;
}

/** Extensions may open closed shadow roots: chrome.dom in Chromium, openOrClosedShadowRoot in Firefox. */
export function shadowRootOf(element: Element): ShadowRoot | null {
  if (element.shadowRoot) return element.shadowRoot;
  if (!mayHostClosedRoot(element)) return null;
  const firefox = (element as Element & { openOrClosedShadowRoot?: ShadowRoot | null }).openOrClosedShadowRoot;
  if (firefox) return firefox;
  return chromeDom?.openOrClosedShadowRoot?.(element) ?? null;
}
