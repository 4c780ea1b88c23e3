/**
 * Turns the live page into markdown for the model: hidden content is dropped first (a page must not
 * be able to whisper to the model in text the user cannot see), then Readability finds the main
 * content and Turndown writes it as markdown.
 */
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { CAPS, clipText } from '../protocol/caps';
import { NO_READABLE_TEXT, type PageContent } from '../protocol/messages';
import { extractProduct } from './product';
import { landmarkAroundPick, mainLandmarks } from './reader-main';
import { addTableRule, markTables, restoreCutTables } from './reader-tables';
import { shownDocument, visibleClone, type ShownDocument } from './visible-copy';
import { visibleText } from './visibility';

/** V8 throws a RangeError ("Maximum call stack size exceeded"), Gecko an InternalError ("too much recursion"). */
const isStackOverflow = (error: unknown) => error instanceof RangeError || (error instanceof Error && error.name === 'InternalError' && /recursion/i.test(error.message));

/** A link's destination as markdown may show it: web and mail addresses only, cut to size. */
function linkTarget(href: string | null): string | undefined {
  if (!href || /^\s*(?:javascript|data|vbscript|blob):/i.test(href)) return undefined;
  return clipText(href.trim(), CAPS.url).replace(/([()])/g, '\\$1');
}

function markdownOf(root: Node): string {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // Images become their alt text: remote images are not the model's business and URLs waste tokens.
  turndown.addRule('imageAlt', { filter: 'img', replacement: (_content, node) => {
    const alt = (node as HTMLImageElement).getAttribute('alt')?.trim();
    return alt ? `[image: ${alt}]` : '';
  } });
  // A link keeps its text and its address, cut to size; its title attribute is text no one sees.
  turndown.addRule('link', { filter: (node) => node.nodeName === 'A' && node.hasAttribute('href'), replacement: (content, node) => {
    const target = linkTarget((node as HTMLAnchorElement).getAttribute('href'));
    return target && content.trim() ? `[${content}](${target})` : content;
  } });
  addTableRule(turndown);
  try {
    return turndown.turndown(root as HTMLElement).replace(/\n{3,}/g, '\n\n').trim();
  } catch (error) {
    // Turndown recurses once per level of nesting: a page nested thousands deep overflows the stack.
    // Its text, without the markdown, is still the page.
    if (!isStackOverflow(error)) throw error;
    return (root.textContent ?? '').replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
  }
}

/**
 * Deeper than any page the HTML parser builds (Blink stops nesting at 512 levels, Gecko sooner):
 * only a script makes such a DOM. Readability looks up every node's ancestors, which costs depth
 * squared there — seconds on a page 5,000 levels deep — so such a page is read whole instead.
 */
const READABILITY_MAX_DEPTH = 512;

function deeperThan(root: Element, limit: number): boolean {
  const pending: [Element, number][] = [[root, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [element, depth] = next;
    if (depth > limit) return true;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * Readability's pick of the main content, or the whole visible page when it finds none. The byline
 * it takes out of the content ("By … · date") is the page's visible text (the clone holds no
 * metadata), and the model is asked who wrote a page and when: it is given back, unless a main
 * landmark read instead of the pick holds it (reader-main.ts).
 */
function mainContent(shown: ShownDocument): { title: string; byline?: string; root: Node | null } {
  const clone = visibleClone(shown);
  if (clone.body && deeperThan(clone.body, READABILITY_MAX_DEPTH)) return { title: '', root: clone.body };
  try {
    markTables(clone);
    const landmarks = mainLandmarks(clone);
    const article = new Readability(clone, { serializer: (element: Node) => element, charThreshold: 300 }).parse();
    const pick = article?.content as unknown as Element | null | undefined;
    const landmark = pick ? landmarkAroundPick(pick, landmarks) : undefined;
    const content = landmark ?? pick;
    // A fresh copy of the page holds its tables as they were, in the same order.
    if (content) restoreCutTables(content, () => visibleClone(shown).querySelectorAll('table'));
    const byline = article?.byline?.trim();
    const bylineApart = byline && !landmark?.textContent?.replace(/\s+/g, ' ').includes(byline);
    return { title: article?.title ?? '', ...(bylineApart ? { byline } : {}), root: content ?? clone.body };
  } catch (error) {
    // Some of Readability's clean-up recurses once per level of nesting (a page thousands of levels
    // deep overflows the stack), and it has taken the clone apart by then: start from a fresh one.
    if (!isStackOverflow(error)) throw error;
    return { title: '', root: visibleClone(shown).body };
  }
}

/** The most of a selection that reaches the model (a selected page is read as the page already). */
const SELECTION_MAX = 10_000;

/**
 * What the user has selected on the page or in a frame it shows, as far as it shows: a page's
 * script can select text no one sees, which must no more reach the model than the rest of such
 * text. A selection inside a form field is not the document's (its ranges stop at the field) and
 * stays out, secrets with it.
 */
function visibleSelection({ doc, tree, frames }: ShownDocument): string {
  const selection = doc.getSelection();
  const parts: string[] = [];
  for (let index = 0; tree && selection && !selection.isCollapsed && index < selection.rangeCount; index++) {
    const range = selection.getRangeAt(index);
    const top = range.commonAncestorContainer;
    const holder = top.nodeType === Node.ELEMENT_NODE ? (top as Element) : top.parentElement;
    // The walk judges what is under the range's top; what holds it is judged here.
    if (holder && tree.root.contains(holder) && !tree.hides(holder)) parts.push(visibleText(tree, top, range));
  }
  for (const frame of frames.values()) parts.push(visibleSelection(frame));
  return clipText(parts.filter(Boolean).join('\n\n'), SELECTION_MAX);
}

const withSelection = (selection: string | undefined) => (selection ? { selection } : {});

/**
 * The page's text and facts. Its refs (interactiveElements) come from the page agent, whose
 * registry the actions resolve refs in: the read_page tool asks both and combines the answers.
 */
export function extractPage(doc: Document, maxChars: number): Omit<PageContent, 'interactiveElements'> {
  const shown = shownDocument(doc);
  const product = extractProduct(doc, shown.tree); // before Readability, which discards scripts and metadata
  const { title, byline, root } = mainContent(shown);
  // Nothing visible is nothing: the page's raw text (innerText) would carry what is hidden.
  const text = root ? markdownOf(root) : '';
  const markdown = (byline && text ? `${byline}\n\n${text}` : text) || NO_READABLE_TEXT;
  const truncated = markdown.length > maxChars;
  return {
    title: clipText((title || doc.title || '').trim(), CAPS.title),
    url: clipText(doc.location?.href ?? '', CAPS.url),
    markdown: truncated ? markdown.slice(0, maxChars) : markdown,
    truncated,
    ...(doc.documentElement.lang ? { lang: doc.documentElement.lang.slice(0, 35) } : {}),
    product,
    ...withSelection(visibleSelection(shown)),
  };
}
