/**
 * Text and inline elements of one block belong on one line: `Delivery: <b>3–5 days</b>` is
 * "Delivery: 3–5 days", not two lines a model cannot pair up once a list holds several. Controls
 * inside the block (a link in a sentence) keep their refs, written inline where they stand.
 */
import { pageText } from './page-text';

const PHRASING = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'br', 'button', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'img', 'input',
  'ins', 'kbd', 'label', 'mark', 'nobr', 'output', 'q', 's', 'samp', 'select', 'small', 'span', 'strike', 'strong', 'sub', 'sup',
  'svg', 'textarea', 'time', 'tt', 'u', 'var', 'wbr',
]);
const CONTROLS = new Set(['a', 'button', 'input', 'select', 'textarea', 'label']);
const UNREAD = new Set(['script', 'style', 'template', 'noscript', 'svg', 'img', 'wbr']);

/** Plain inline text (a <b>, a <span>), not something to act on. */
function isPlainInline(element: Element): boolean {
  return !CONTROLS.has(element.localName) && !element.hasAttribute('role') && !element.hasAttribute('tabindex') && !element.hasAttribute('onclick');
}

/**
 * A block to write as one line: only text and inline elements inside, at least two pieces, and
 * some of it text that is not a control (a row of links stays a row of ref lines).
 */
export function isInlineBlock(element: Element): boolean {
  if (element.shadowRoot || element.localName === 'slot') return false;
  let pieces = 0;
  let plainText = false;
  const plainElements: Element[] = [];
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === Node.TEXT_NODE) {
      if (/\S/.test((child as Text).data)) {
        pieces++;
        plainText = true;
      }
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      const tag = (child as Element).localName;
      if (!PHRASING.has(tag) || (child as Element).shadowRoot) return false;
      if (UNREAD.has(tag)) continue;
      pieces++;
      if (isPlainInline(child as Element)) plainElements.push(child as Element);
    }
  }
  // Reading the children's text only now keeps a lone wrapper (nested thousands deep) cheap.
  return pieces >= 2 && (plainText || plainElements.some((child) => /\S/.test(child.textContent ?? '')));
}

/**
 * How an inline element shows in the line: a string for a control (its ref, written in place),
 * 'skip' for what cannot be seen, 'read' to read its text.
 */
export type InlinePart = string | 'skip' | 'read';

/** The block's line: its visible text with each control's part where the control stands. */
export function inlineText(element: Element, partOf: (child: Element) => InlinePart, shows: (text: Text) => boolean = () => true): string {
  let text = '';
  // A loop over a stack, not recursion: inline elements can nest thousands deep.
  const stack: Node[] = Array.from(element.childNodes).reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType === Node.TEXT_NODE && shows(node as Text)) text += pageText((node as Text).data);
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const inner = node as Element;
    if (inner.localName === 'br') text += ' ';
    if (inner.localName === 'br' || (UNREAD.has(inner.localName) && inner.localName !== 'img')) continue;
    const part = partOf(inner);
    if (part === 'read') for (let i = inner.childNodes.length - 1; i >= 0; i--) stack.push(inner.childNodes[i]!);
    else if (part !== 'skip') text += ` ${part} `;
  }
  return text.replace(/\s+/g, ' ').trim();
}
