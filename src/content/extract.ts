/**
 * Turns the live page into markdown for the model: hidden content is dropped first (a page must not
 * be able to whisper to the model in text the user cannot see), then Readability finds the main
 * content and Turndown writes it as markdown.
 */
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import type { PageContent } from '../protocol/messages';
import { extractProduct } from './product';
import { BackgroundFinder, hasInvisibleInk, isMarkedHidden, isPushedOffPage } from './visibility';

const DROP_TAGS = 'script, style, noscript, template, iframe, svg, canvas, object, embed, link, meta';

function isNotRendered(element: Element): boolean {
  return !element.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: false });
}

/** display: contents (framework wrappers): no box of its own, so it looks hidden, but its children show. */
function isSeeThrough(element: Element): boolean {
  return getComputedStyle(element).display === 'contents';
}

function isClippedAway(element: Element): boolean {
  const rect = element.getBoundingClientRect();
  if (isPushedOffPage(rect, element.ownerDocument.defaultView)) return true;
  if (rect.width > 1 || rect.height > 1) return false;
  // A 1×1 (or 0×0) box with overflow hidden is the "visually hidden" trick; real text cannot fit.
  const style = getComputedStyle(element);
  return style.overflow === 'hidden' || style.clip !== 'auto' || style.clipPath !== 'none';
}

function hasOwnText(element: Element): boolean {
  for (const node of Array.from(element.childNodes)) if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) return true;
  return false;
}

/**
 * Clones the document and removes from the clone every element that is not visible in the page.
 * The clone is made in one synchronous step, so the live and cloned element lists line up.
 */
export function visibleClone(doc: Document): Document {
  const clone = doc.cloneNode(true) as Document;
  const live = doc.body ? Array.from(doc.body.getElementsByTagName('*')) : [];
  const copied = clone.body ? Array.from(clone.body.getElementsByTagName('*')) : [];
  const doomed: Element[] = [];
  const unreadable: Element[] = [];
  const backgrounds = new BackgroundFinder();
  for (let i = 0; i < live.length && i < copied.length; i++) {
    const element = live[i]!;
    if (isMarkedHidden(element) || ((isNotRendered(element) || isClippedAway(element)) && !isSeeThrough(element))) doomed.push(copied[i]!);
    else if (hasOwnText(element) && hasInvisibleInk(getComputedStyle(element), backgrounds.of(element))) unreadable.push(copied[i]!);
  }
  // Only the element's own text goes: its children may set a readable size or colour of their own
  // (font-size: 0 on a row of inline blocks is a common layout trick).
  for (const element of unreadable) for (const node of Array.from(element.childNodes)) if (node.nodeType === Node.TEXT_NODE) node.remove();
  for (const element of doomed) element.remove();
  clone.querySelectorAll(DROP_TAGS).forEach((element) => element.remove());
  return clone;
}

function markdownOf(root: Node): string {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // Images become their alt text: remote images are not the model's business and URLs waste tokens.
  turndown.addRule('imageAlt', { filter: 'img', replacement: (_content, node) => {
    const alt = (node as HTMLImageElement).getAttribute('alt')?.trim();
    return alt ? `[image: ${alt}]` : '';
  } });
  try {
    return turndown.turndown(root as HTMLElement).replace(/\n{3,}/g, '\n\n').trim();
  } catch (error) {
    // Turndown recurses once per level of nesting: a page nested thousands deep overflows the stack.
    // Its text, without the markdown, is still the page.
    if (!(error instanceof RangeError)) throw error;
    return (root.textContent ?? '').replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
  }
}

/** Readability's pick of the main content, or the whole visible page when it finds none. */
function mainContent(doc: Document): { title: string; root: Node | null } {
  const clone = visibleClone(doc);
  try {
    const article = new Readability(clone, { serializer: (element: Node) => element, charThreshold: 300 }).parse();
    return { title: article?.title ?? '', root: (article?.content as unknown as Node | null | undefined) ?? clone.body };
  } catch (error) {
    // Some of Readability's clean-up recurses once per level of nesting (a page thousands of levels
    // deep overflows the stack), and it has taken the clone apart by then: start from a fresh one.
    if (!(error instanceof RangeError)) throw error;
    return { title: '', root: visibleClone(doc).body };
  }
}

/**
 * The page's text and facts. Its refs (interactiveElements) come from the page agent, whose
 * registry the actions resolve refs in: the read_page tool asks both and combines the answers.
 */
export function extractPage(doc: Document, maxChars: number): Omit<PageContent, 'interactiveElements'> {
  const product = extractProduct(doc); // before Readability, which discards scripts and metadata
  const { title, root } = mainContent(doc);
  let markdown = root ? markdownOf(root) : '';
  if (!markdown) markdown = (doc.body?.innerText ?? '').trim();
  const truncated = markdown.length > maxChars;
  return {
    title: (title || doc.title || '').trim(),
    url: doc.location?.href ?? '',
    markdown: truncated ? markdown.slice(0, maxChars) : markdown,
    truncated,
    ...(doc.documentElement.lang ? { lang: doc.documentElement.lang } : {}),
    product,
  };
}
