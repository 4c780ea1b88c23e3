/**
 * The copy of a page the reader works on: only what shows (visibility.ts decides), laid out as the
 * browser draws it. Each frame from the page's own site gives way to its document's visible copy,
 * and each shadow root's content stands in its host, the host's own content in the slots it fills.
 */
import { CAPS, clipText } from '../protocol/caps';
import { shadowRootOf } from './shadow-root';
import { isPushedOffPage, pruneCopy, viewportOf, VisibleTree } from './visibility';

const DROP_TAGS = 'script, style, noscript, template, iframe, svg, canvas, object, embed, link, meta';

/** How deep frames inside frames are read: a page that nests its own frames without end stops here. */
const FRAME_DEPTH = 4;

/**
 * A document as the reader sees it: what shows of it, and the frames inside it that show a
 * document of the same origin (a webmail's open message, a frameset's pages), each read the same way.
 */
export interface ShownDocument {
  doc: Document;
  tree: VisibleTree | undefined;
  frames: Map<Element, ShownDocument>;
}

export function shownDocument(doc: Document, depth = 0): ShownDocument {
  const tree = doc.body ? new VisibleTree(doc.body) : undefined;
  const frames = new Map<Element, ShownDocument>();
  if (tree && depth < FRAME_DEPTH) {
    for (const frame of doc.body!.querySelectorAll('iframe, frame')) {
      // Neither browser gives a content script another origin's document (nor a sandboxed frame's).
      const inner = frameShown(tree, frame) ? (frame as HTMLIFrameElement).contentDocument : null;
      if (inner?.body) frames.set(frame, shownDocument(inner, depth + 1));
    }
  }
  return { doc, tree, frames };
}

/** The frame's box shows (a frame of no size, or pushed off the page, shows nothing of its document). */
function frameShown(tree: VisibleTree, frame: Element): boolean {
  if (tree.hides(frame) || !frame.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
  const box = frame.getBoundingClientRect();
  const view = frame.ownerDocument.defaultView;
  return box.width > 1 && box.height > 1 && !isPushedOffPage(box, view && viewportOf(view));
}

/**
 * Clones the document and removes from the clone everything that is not visible in the page, and
 * comments, frames and shadow roots laid out in place. The title is cut to size first: Readability works on it.
 */
export function visibleClone(shown: ShownDocument): Document {
  const { doc, tree } = shown;
  const clone = doc.cloneNode(true) as Document;
  if (tree && clone.body) copyVisible(tree.root, clone.body, tree, shown);
  clone.querySelectorAll(DROP_TAGS).forEach((element) => element.remove());
  clone.title = clipText(doc.title, CAPS.title);
  return clone;
}

/** A copy of the tree's root with only what shows, shadow roots laid out in place (`get html`). */
export function visibleCopyOf(tree: VisibleTree): Element {
  const copy = tree.root.cloneNode(true) as Element;
  copyVisible(tree.root, copy, tree, { doc: tree.root.ownerDocument, tree, frames: new Map() });
  return copy;
}

/** A shadow host found in a copy, with its children paired with the copy's (slots are filled from them). */
interface HostInCopy {
  live: Element;
  root: ShadowRoot;
  copy: Element;
  light: Map<Node, Node>;
}

/**
 * Prunes `copy`, a deep copy of `live` made since `tree` judged it, to what shows; then puts each
 * shown frame's document and each shadow root's content in place. Returns the copy of each element.
 */
function copyVisible(live: Element, copy: Element, tree: VisibleTree, shown: ShownDocument): Map<Element, Element> {
  // Both hold the same elements in the same order until pruning starts.
  const lives = [live, ...live.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  const copyOf = new Map<Element, Element>();
  const hosts: HostInCopy[] = [];
  lives.forEach((element, index) => {
    const elementCopy = copies[index]!;
    copyOf.set(element, elementCopy);
    const root = shadowRootOf(element);
    if (root) hosts.push({ live: element, root, copy: elementCopy, light: new Map(Array.from(element.childNodes, (node, at) => [node, elementCopy.childNodes[at]!])) });
  });
  pruneCopy(tree, live, copy);
  for (const [frame, inner] of shown.frames) {
    const frameCopy = copyOf.get(frame);
    if (!frameCopy || !copy.contains(frameCopy)) continue;
    const content = copy.ownerDocument.createElement('div');
    const body = visibleClone(inner).body;
    // Adopting takes each node out of the list it came from: copy the list first.
    if (body) content.append(...[...body.childNodes].map((node) => copy.ownerDocument.adoptNode(node)));
    frameCopy.replaceWith(content);
  }
  for (const host of hosts) if (!tree.hides(host.live) && copy.contains(host.copy)) layOutShadow(host, shown);
  return copyOf;
}

/**
 * The host's copy gets its shadow root's visible content, each slot holding the host's own
 * (visible) nodes the browser put in it, or its fallback when none. Text at the root's top level
 * (outside any element of the root) has no element to judge it by, and is left out.
 */
function layOutShadow({ root, copy, light }: HostInCopy, shown: ShownDocument): void {
  const into = copy.ownerDocument;
  /** What shows in a slot: the host's visible nodes the browser put in it, else its own fallback content. */
  const filling = (slot: HTMLSlotElement, slotCopy: Element): Node[] => {
    const assigned = slot.assignedNodes();
    if (assigned.length === 0) return Array.from(slotCopy.childNodes);
    return assigned.map((node) => light.get(node)).filter((node): node is Node => node?.parentNode === copy);
  };
  const drawn: Node[] = [];
  for (const child of root.children) {
    const tree = new VisibleTree(child);
    if (tree.isHidden(child)) continue;
    const childCopy = into.importNode(child, true);
    const copyOf = copyVisible(child, childCopy, tree, { ...shown, frames: new Map() });
    if (child.localName === 'slot') {
      drawn.push(...filling(child as HTMLSlotElement, childCopy));
      continue;
    }
    for (const slot of child.querySelectorAll('slot')) {
      const slotCopy = copyOf.get(slot);
      if (slotCopy && childCopy.contains(slotCopy)) slotCopy.replaceWith(...filling(slot, slotCopy));
    }
    drawn.push(childCopy);
  }
  copy.replaceChildren(...drawn);
}
