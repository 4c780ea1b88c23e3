/**
 * The page snapshot: one walk over the composed tree (light DOM, open and extension-reachable
 * closed shadow roots, slots) that lists every element a user can act on with a stable ref, plus
 * the visible text around them, in a compact outline. Hidden content never appears.
 */
import { MASK_TAG } from '../mask-tag';
import { JawadError } from '../../protocol/errors';
import type { PageSnapshot, SnapshotRef } from '../../protocol/messages';
import { accessibleName } from './name';
import type { RefRegistry } from './refs';
import { isInteractive, roleOf } from './roles';
import { BackgroundFinder, hasInvisibleInk, isPushedOffPage } from '../visibility';

export interface SnapshotOptions {
  maxRefs: number;
  timeBudgetMs: number;
  /** Tags a visible <iframe> so the background can tell which frame goes where. */
  frameTokenFor?: (frame: Element) => string | undefined;
  /** Which window of every long list to show: rows (page-1)*LIST_WINDOW+1 … page*LIST_WINDOW. */
  page?: number;
}

/** Lists longer than this are summarised: a window of rows plus a count. */
export const LONG_LIST = 40;
export const LIST_WINDOW = 20;
const LIST_TAGS = new Set(['ul', 'ol', 'tbody', 'table', 'dl', 'menu']);
const LIST_ROLES = new Set(['list', 'listbox', 'grid', 'table', 'rowgroup', 'tree', 'feed', 'menu', 'treegrid']);

// MASK_TAG: Jawad's own overlay over a tab it drives is not part of the page.
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'object', 'embed', MASK_TAG]);
const FRAMES = new Set(['iframe', 'frame']);
const MAX_TEXT = 160;
const BUDGET_CHECK_EVERY = 64;

interface Walk {
  refs: RefRegistry;
  options: SnapshotOptions;
  lines: string[];
  found: SnapshotRef[];
  elementCount: number;
  partial: boolean;
  deadline: number;
  view: Window;
  backgrounds: BackgroundFinder;
  /** Boxes of out-of-flow elements (fixed, sticky, absolute): what can sit on top of others. */
  overlays: DOMRect[];
  /** Ref lines to check for coverage once every overlay is known (a cookie banner comes last). */
  coverChecks: Array<{ line: number; element: Element; rect: DOMRect }>;
}

/** The only elements attachShadow() accepts (HTML spec): these and custom elements. */
const SHADOW_HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);

/** Extensions may open closed shadow roots: chrome.dom in Chromium, openOrClosedShadowRoot in Firefox. */
function shadowRootOf(element: Element): ShadowRoot | null {
  if (element.shadowRoot) return element.shadowRoot;
  // Asking the extension API costs a call per element: only ask where a root can be.
  if (!SHADOW_HOSTS.has(element.localName) && !element.localName.includes('-')) return null;
  const firefox = (element as Element & { openOrClosedShadowRoot?: ShadowRoot | null }).openOrClosedShadowRoot;
  if (firefox) return firefox;
  const chromeDom = (globalThis as { chrome?: { dom?: { openOrClosedShadowRoot?: (e: Element) => ShadowRoot | null } } }).chrome?.dom;
  return chromeDom?.openOrClosedShadowRoot?.(element) ?? null;
}

function childrenOf(element: Element): ArrayLike<Node> {
  const shadow = shadowRootOf(element);
  if (shadow) return shadow.childNodes;
  if (element.localName === 'slot') {
    const assigned = (element as HTMLSlotElement).assignedNodes({ flatten: true });
    return assigned.length > 0 ? assigned : element.childNodes;
  }
  return element.childNodes;
}

function clip(text: string, max = MAX_TEXT): string {
  const value = text.replace(/\s+/g, ' ').trim();
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

function quote(text: string): string {
  return JSON.stringify(text);
}

/** The visible area left by ancestors that clip (overflow hidden or clip), in viewport pixels. */
interface Clip {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function intersect(clip: Clip | undefined, rect: DOMRect): Clip {
  if (!clip) return { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
  return { left: Math.max(clip.left, rect.left), top: Math.max(clip.top, rect.top), right: Math.min(clip.right, rect.right), bottom: Math.min(clip.bottom, rect.bottom) };
}

/** Visible within the clip by more than a pixel each way. */
function visibleIn(rect: DOMRect, clip: Clip | undefined): boolean {
  const area = intersect(clip, rect);
  return area.right - area.left > 1 && area.bottom - area.top > 1;
}

/**
 * The clip this element imposes on its descendants. Hidden or clipped overflow cuts content off for
 * good; a scroll box shows its content by scrolling, unless the box itself has no area.
 */
function clipFor(style: CSSStyleDeclaration, rect: DOMRect, inherited: Clip | undefined): Clip | undefined {
  const overflow = `${style.overflowX} ${style.overflowY}`;
  if (/hidden|clip/.test(overflow)) return intersect(inherited, rect);
  if (/auto|scroll/.test(overflow) && (rect.width < 1 || rect.height < 1)) return intersect(inherited, rect);
  return inherited;
}

/** Shown: `painted` (rendered, not visibility:hidden, not transparent), not pushed out of the page or clipped away. */
function isShown(painted: boolean, rect: DOMRect, view: Window, clip: Clip | undefined): boolean {
  if (!painted) return false;
  if (isPushedOffPage(rect, view)) return false;
  return rect.width > 1 && rect.height > 1 && visibleIn(rect, clip);
}

/** A native checkbox or radio hidden behind a styled label still works through that label. */
export function isStyledChoice(element: Element): boolean {
  if (element.localName !== 'input') return false;
  const input = element as HTMLInputElement;
  if (input.type !== 'checkbox' && input.type !== 'radio') return false;
  if (!input.checkVisibility({ visibilityProperty: true })) return false;
  return Array.from(input.labels ?? []).some((label) => label.checkVisibility({ opacityProperty: true, visibilityProperty: true }));
}

function states(element: Element, role: string): string[] {
  const out: string[] = [];
  const input = element as HTMLInputElement;
  const ariaChecked = element.getAttribute('aria-checked');
  if ((element.localName === 'input' && (input.type === 'checkbox' || input.type === 'radio') && input.checked) || ariaChecked === 'true') out.push('checked');
  if (ariaChecked === 'mixed' || (element.localName === 'input' && input.indeterminate)) out.push('mixed');
  if (input.disabled === true || element.getAttribute('aria-disabled') === 'true') out.push('disabled');
  const expanded = element.getAttribute('aria-expanded');
  if (expanded === 'true') out.push('expanded');
  if (expanded === 'false') out.push('collapsed');
  if (element.getAttribute('aria-selected') === 'true' || (element.localName === 'option' && (element as HTMLOptionElement).selected)) out.push('selected');
  if (input.required === true || element.getAttribute('aria-required') === 'true') out.push('required');
  if ((element as HTMLElement).isContentEditable || (role === 'textbox' && !input.readOnly)) out.push('editable');
  return out;
}

function valueOf(element: Element): string | undefined {
  if (element.localName === 'select') {
    const select = element as HTMLSelectElement;
    return select.selectedOptions[0]?.text;
  }
  if (element.localName === 'textarea') return (element as HTMLTextAreaElement).value;
  if (element.localName === 'input') {
    const input = element as HTMLInputElement;
    if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'password'].includes(input.type)) return undefined;
    return input.value;
  }
  return undefined;
}

function contains(ancestor: Element, node: Element): boolean {
  for (let current: Node | null = node; current; current = (current as Element).assignedSlot ?? current.parentNode ?? (current as ShadowRoot).host ?? null) {
    if (current === ancestor) return true;
  }
  return false;
}

/** What sits over an element's centre and would take a click meant for it, described briefly. */
export function coveredBy(element: Element, rect: DOMRect, view: Window): string | undefined {
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) return undefined;
  const root = element.getRootNode() as Document | ShadowRoot;
  // Jawad's mask keeps the user's clicks off the page, not the agent's: look through it.
  const hit = root.elementsFromPoint(x, y).find((candidate) => candidate.localName !== MASK_TAG);
  if (!hit || contains(element, hit) || contains(hit, element)) return undefined;
  if (Array.from((element as HTMLInputElement).labels ?? []).some((label) => contains(label, hit))) return undefined;
  const owner = hit.closest('[role=dialog],[role=alertdialog],dialog,[aria-modal],[aria-label],[id]') ?? hit;
  const name = accessibleName(owner, roleOf(owner)) || clip(owner.textContent ?? '', 40);
  return `${roleOf(owner) === 'generic' ? owner.localName : roleOf(owner)}${name ? ` ${quote(clip(name, 40))}` : ''}`;
}

const OUT_OF_FLOW = new Set(['fixed', 'sticky', 'absolute']);

function overlaps(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * Adds `[covered by …]` to ref lines. Something painted over an element is, in practice, taken out
 * of the flow (a fixed banner, a sticky header, an absolute menu or dialog); hit-testing only the
 * refs under such a box spares a hit test per ref. Actions hit-test again before every click.
 */
function markCovered(walk: Walk): void {
  if (walk.overlays.length === 0) return;
  for (const { line, element, rect } of walk.coverChecks) {
    if (!walk.overlays.some((overlay) => overlaps(overlay, rect))) continue;
    const cover = coveredBy(element, rect, walk.view);
    if (cover) walk.lines[line] += ` [covered by ${cover}]`;
  }
}

function emitRef(walk: Walk, element: Element, role: string, rect: DOMRect): void {
  const ref = walk.refs.refFor(element);
  const name = accessibleName(element, role);
  const parts = [`- ${role}`];
  if (name) parts.push(quote(name));
  parts.push(`[ref=${ref}]`);
  for (const state of states(element, role)) parts.push(`[${state}]`);
  const value = valueOf(element);
  if (value) parts.push(`value=${quote(clip(value, 60))}`);
  walk.coverChecks.push({ line: walk.lines.length, element, rect });
  walk.lines.push(parts.join(' '));
  const testid = element.getAttribute('data-testid') ?? element.getAttribute('data-t') ?? undefined;
  walk.found.push({ ref, role, name, tag: element.localName, ...(element.id ? { id: element.id } : {}), ...(testid ? { testid } : {}) });
}

function ownText(element: Element): string {
  let text = '';
  for (let child = element.firstChild; child; child = child.nextSibling) if (child.nodeType === Node.TEXT_NODE) text += (child as Text).data;
  return text ? clip(text) : '';
}

function outOfBudget(walk: Walk): boolean {
  if (walk.partial) return true;
  if (walk.found.length >= walk.options.maxRefs || (walk.elementCount % BUDGET_CHECK_EVERY === 0 && performance.now() > walk.deadline)) {
    walk.partial = true;
  }
  return walk.partial;
}

interface Inherited {
  insideControl: boolean;
  parentPointer: boolean;
  clip: Clip | undefined;
}

function isRepeating(element: Element): boolean {
  return LIST_TAGS.has(element.localName) || LIST_ROLES.has(element.getAttribute('role') ?? '');
}

/**
 * A 2,000-row table would drown the model: long lists show one window of rows and say how many
 * there are and how to see the next ones.
 */
function listWindow(walk: Walk, element: Element, rows: Element[]): Element[] {
  if (rows.length <= LONG_LIST || !isRepeating(element)) return rows;
  const pages = Math.ceil(rows.length / LIST_WINDOW);
  const page = Math.min(Math.max(walk.options.page ?? 1, 1), pages);
  const start = (page - 1) * LIST_WINDOW;
  const shown = rows.slice(start, start + LIST_WINDOW);
  const next = page < pages ? ` Snapshot with page: ${page + 1} for the next ${LIST_WINDOW}.` : '';
  walk.lines.push(`- note: ${rows.length} rows here; showing ${start + 1}–${start + shown.length}.${next}`);
  return shown;
}

/** An element still to visit, with what its ancestors pass down. */
interface Pending {
  element: Element;
  inherited: Inherited;
}

/** The element children the walk descends into (a window of them in long lists). */
function childrenToVisit(walk: Walk, element: Element): Element[] {
  const children = childrenOf(element);
  // The common case (no shadow root, no slot): the browser's own list of element children.
  const elements = children === element.childNodes ? Array.from(element.children) : Array.from(children).filter((child): child is Element => child.nodeType === Node.ELEMENT_NODE);
  return listWindow(walk, element, elements);
}

/**
 * Writes the element's own line, if any, and returns its children to visit next (none when
 * nothing inside it can show). The walk is a loop over a stack, not recursion: a page nested
 * thousands of levels deep must not overflow the call stack.
 */
function visit(walk: Walk, element: Element, inherited: Inherited): Pending[] {
  walk.elementCount++;
  if (outOfBudget(walk) || SKIPPED.has(element.localName) || element.getAttribute('aria-hidden') === 'true') return [];
  // One check answers both questions for most elements: painted implies rendered.
  const painted = element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  if (!painted && !element.checkVisibility()) {
    // display:contents (slots, framework wrappers) has no box but its children do: see through it.
    // Anything else that fails here is display:none or content-visibility:hidden: nothing shows.
    if (getComputedStyle(element).display !== 'contents') return [];
    return childrenToVisit(walk, element).map((child) => ({ element: child, inherited }));
  }
  const rect = element.getBoundingClientRect();
  const view = walk.view;
  const style = getComputedStyle(element);
  if (isPushedOffPage(rect, view) && style.position !== 'static') return [];
  const { insideControl, parentPointer } = inherited;
  const clip = style.position === 'fixed' ? undefined : inherited.clip; // fixed escapes ancestors' overflow
  const role = roleOf(element);
  const shown = isShown(painted, rect, view, clip);
  if (FRAMES.has(element.localName)) {
    if (shown) framePlaceholder(walk, element);
    return [];
  }
  if (shown && OUT_OF_FLOW.has(style.position)) walk.overlays.push(rect);
  const pointer = shown && style.cursor === 'pointer';
  const acts = (shown || (isStyledChoice(element) && labelShown(element, clip))) && isInteractive(element, role, pointer && !parentPointer && !insideControl);
  // Text no one can read (font-size: 0, the colour of its background) is left out like hidden text.
  const readable = () => !hasInvisibleInk(style, walk.backgrounds.of(element));
  if (acts) emitRef(walk, element, role, rect);
  else if (shown && role === 'heading') {
    if (readable()) walk.lines.push(`- heading ${quote(accessibleName(element, role))} [level=${element.getAttribute('aria-level') ?? element.localName.slice(1)}]`);
  } else if (shown && !insideControl) {
    const text = ownText(element);
    if (text && readable()) walk.lines.push(`- text: ${text}`);
  }
  // A heading's text is its name: inside it, only what can be acted on (a link) gets a line.
  const named = acts || (role === 'heading' && shown);
  const passed: Inherited = { insideControl: insideControl || named, parentPointer: pointer, clip: clipFor(style, rect, clip) };
  return childrenToVisit(walk, element).map((child) => ({ element: child, inherited: passed }));
}

/** Visits the tree in document order (depth first), children in the order they appear. */
function walkFrom(walk: Walk, root: Element): void {
  const stack: Pending[] = [{ element: root, inherited: { insideControl: false, parentPointer: false, clip: undefined } }];
  while (stack.length > 0 && !walk.partial) {
    const { element, inherited } = stack.pop()!;
    const children = visit(walk, element, inherited);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/** Marks where a visible frame's own outline goes; a hidden frame gets no line, so none of it shows. */
function framePlaceholder(walk: Walk, frame: Element): void {
  const token = walk.options.frameTokenFor?.(frame);
  if (!token) return;
  const title = accessibleName(frame, 'iframe') || frame.getAttribute('name') || '';
  walk.lines.push(`- iframe${title ? ` ${quote(title)}` : ''} [frame=${token}]`);
}

/** A styled choice counts only when one of its labels is itself on screen. */
function labelShown(element: Element, clip: Clip | undefined): boolean {
  return Array.from((element as HTMLInputElement).labels ?? []).some((label) => visibleIn(label.getBoundingClientRect(), clip));
}

/**
 * A frame whose page has not arrived still shows the blank document every frame starts with; its
 * outline would be empty and look final. (The blank document has its parent's origin, so its
 * <iframe> element is reachable.)
 */
function awaitingItsPage(doc: Document): boolean {
  if (doc.URL !== 'about:blank') return false;
  const src = (doc.defaultView?.frameElement as HTMLIFrameElement | null)?.src;
  return Boolean(src) && src !== 'about:blank';
}

export function takeSnapshot(doc: Document, refs: RefRegistry, options: SnapshotOptions): PageSnapshot {
  if (awaitingItsPage(doc)) throw new JawadError('PAGE_UNREADABLE', 'This frame has not loaded its page yet.');
  const walk: Walk = {
    refs,
    options,
    lines: [],
    found: [],
    elementCount: 0,
    partial: false,
    deadline: performance.now() + options.timeBudgetMs,
    view: doc.defaultView ?? window,
    backgrounds: new BackgroundFinder(),
    overlays: [],
    coverChecks: [],
  };
  if (doc.body) walkFrom(walk, doc.body);
  markCovered(walk);
  refs.rememberListed(walk.found.map((found) => found.ref));
  if (walk.partial) walk.lines.push(`- note: partial snapshot (stopped after ${walk.found.length} refs / ${options.timeBudgetMs} ms); scroll or narrow the task and snapshot again`);
  return {
    url: doc.location?.href ?? '',
    title: doc.title,
    text: walk.lines.join('\n'),
    refs: walk.found,
    elementCount: walk.elementCount,
    partial: walk.partial,
  };
}
