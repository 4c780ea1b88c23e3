/**
 * Model output → safe DOM. marked renders, DOMPurify sanitises (no script, no event handlers, no
 * `javascript:` or `data:` links), and remote images are not loaded until the user asks: an image
 * URL in an answer can carry data out (the model may have read it from a hostile page).
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';

const SAFE_URL = /^(?:https?:|mailto:|#)/i;

let hooksInstalled = false;

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node instanceof HTMLAnchorElement) {
      node.target = '_blank';
      node.rel = 'noopener noreferrer nofollow';
    }
    if (node instanceof HTMLImageElement) node.replaceWith(blockedImage(node));
  });
}

/** A button standing in for an image; Markdown's click handler loads it on request. */
function blockedImage(image: HTMLImageElement): HTMLElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'blocked-image';
  const src = image.getAttribute('src') ?? '';
  if (/^https?:/i.test(src)) button.dataset.src = src;
  button.textContent = `Load image${image.alt ? `: ${image.alt}` : ''}`;
  button.title = src;
  return button;
}

export function renderMarkdown(markdown: string): DocumentFragment {
  installHooks();
  const html = marked.parse(markdown, { async: false, gfm: true });
  return DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    ALLOWED_URI_REGEXP: SAFE_URL,
    FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
    FORBID_ATTR: ['style', 'srcset'],
  });
}

/** Click handler for rendered markdown: loads a blocked image the user chose to see. */
export function loadImageOnClick(event: MouseEvent): void {
  const button = (event.target as Element | null)?.closest?.('button.blocked-image');
  if (!(button instanceof HTMLButtonElement) || !button.dataset.src) return;
  const image = document.createElement('img');
  image.src = button.dataset.src;
  image.alt = button.textContent?.replace(/^Load image:?\s*/, '') ?? '';
  image.referrerPolicy = 'no-referrer';
  button.replaceWith(image);
}
