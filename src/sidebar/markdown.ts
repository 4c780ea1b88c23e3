/**
 * Model output → safe DOM. marked renders and DOMPurify keeps only what markdown itself produces
 * (an allowlist of tags and attributes): no script, no event handlers, no `javascript:` or `data:`
 * links, and no element that fetches anything by itself. A model that read a hostile page can be
 * made to write `<video poster>`, `<audio src>`, `<source srcset>`, `background=` or an image whose
 * URL carries the conversation out; none of them survives. Images become buttons, and an image is
 * fetched only when the user clicks it. The extension pages' CSP (no remote img-src/media-src) is the
 * second wall.
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';

const SAFE_URL = /^(?:https?:|mailto:|#)/i;

/** Everything marked emits for GFM markdown, and nothing that loads a resource (img is swapped out below). */
const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's',
  'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'sup', 'sub', 'kbd', 'span',
];
const ALLOWED_ATTR = ['href', 'title', 'alt', 'src', 'start', 'align', 'class', 'colspan', 'rowspan'];

/**
 * Each block takes its direction from its own text: an answer in Arabic or Hebrew reads right to
 * left, an English line inside it left to right. Code is always left to right.
 */
const TEXT_BLOCKS = 'p, h1, h2, h3, h4, h5, h6, li, th, td';
/**
 * Blocks of blocks (a list's bullets, a table's columns) follow their first words. `dir="auto"`
 * cannot tell them: it skips text inside children that have a direction of their own.
 */
const BLOCKS_OF_BLOCKS = 'ul, ol, table, blockquote';
/** Text whose first letter is of a script written right to left. */
const RIGHT_TO_LEFT = /^[^\p{L}]*[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}]/u;

/** The direction text reads in, by its first letter (digits and punctuation before it have none). */
export function directionOf(text: string): 'rtl' | 'ltr' {
  return RIGHT_TO_LEFT.test(text) ? 'rtl' : 'ltr';
}

let hooksInstalled = false;

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node instanceof HTMLAnchorElement) {
      node.target = '_blank';
      node.rel = 'noopener noreferrer nofollow';
    }
    // Only markdown's own code-highlighting classes are kept.
    if (node instanceof Element && node.hasAttribute('class') && !/^language-[\w-]+$/.test(node.getAttribute('class') ?? '')) node.removeAttribute('class');
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
  const fragment = DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    ALLOWED_URI_REGEXP: SAFE_URL,
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  });
  // After sanitising: a button swapped in during the walk would itself be removed (not markdown).
  for (const image of fragment.querySelectorAll('img')) image.replaceWith(blockedImage(image));
  for (const block of fragment.querySelectorAll(TEXT_BLOCKS)) block.setAttribute('dir', 'auto');
  for (const block of fragment.querySelectorAll(BLOCKS_OF_BLOCKS)) block.setAttribute('dir', directionOf(block.textContent ?? ''));
  for (const code of fragment.querySelectorAll('pre')) code.setAttribute('dir', 'ltr');
  return fragment;
}

/**
 * Click handler for rendered markdown: loads a blocked image the user chose to see. The CSP allows
 * no remote images, so it is fetched here (without cookies or referrer) and shown from a blob.
 */
export async function loadImageOnClick(event: MouseEvent): Promise<void> {
  const button = (event.target as Element | null)?.closest?.('button.blocked-image');
  if (!(button instanceof HTMLButtonElement) || !button.dataset.src || button.disabled) return;
  button.disabled = true;
  const alt = button.textContent?.replace(/^Load image:?\s*/, '') ?? '';
  try {
    const response = await fetch(button.dataset.src, { credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store' });
    const blob = await response.blob();
    if (!response.ok || !blob.type.startsWith('image/')) throw new Error(response.ok ? 'not an image' : `HTTP ${response.status}`);
    const image = document.createElement('img');
    image.src = URL.createObjectURL(blob);
    image.alt = alt;
    button.replaceWith(image);
  } catch (error) {
    button.disabled = false;
    button.textContent = `Image could not be loaded (${error instanceof Error ? error.message : 'error'}): ${alt}`;
  }
}
