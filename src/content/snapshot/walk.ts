/**
 * The page snapshot: one walk over the composed tree (light DOM, open and extension-reachable
 * closed shadow roots, slots) that lists every element a user can act on with a stable ref, plus
 * the visible text around them, in a compact outline. Hidden content never appears.
 */
import { clickPoint } from '../click-point';
import { shadowRootOf } from '../shadow-root';
import { MASK_TAG } from '../mask-tag';
import { JawadError } from '../../protocol/errors';
import { CAPS, clipText, fold, oneLine } from '../../protocol/caps';
import type { PageSnapshot, SnapshotRef } from '../../protocol/messages';
import { layOutRow, type RowCell } from './columns';
import { inlineRuns, inlineText, isInlineBlock, isTableRow, rowLine, rowSpanOf, spanOf, type InlinePart } from './inline';
import { clip, pageText, quote } from './page-text';
import { accessibleName, ariaName, editorText, visibleContent } from './name';
import { popupOwners } from './popups';
import type { RefRegistry } from './refs';
import { isInteractive, isTextEditor, roleOf, shownRole, typedThrough } from './roles';
import { isListRow, isScroller } from './rows';
import { destinationOf, iconOf, optionsOf, states, valueOf } from './states';
import { BackgroundFinder, boxOf, type ChildSpan, type Clip, type ClipChains, clipFor, clippersBelow, contentShows, hasInvisibleInk, intersect, isPushedOffPage, type JudgedRoot, nodesIn, overflowClipOf, overflowOf, paintClip, scaleOf, viewportOf, visibleIn, visibleText, VisibleTree, type Viewport } from '../visibility';

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
// Line breaks are read by the lines around them and have nothing of their own to list.
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'object', 'embed', 'br', 'wbr', MASK_TAG]);
const FRAMES = new Set(['iframe', 'frame']);
const BUDGET_CHECK_EVERY = 64;
/** A field's value shows this much on its line, enough to tell what it holds; past it, the line says get gives all. */
const VALUE_SHOWN = 60;
/** A nameless link's address shows this much: the path that tells it apart, not a tracking query. */
const URL_SHOWN = 100;

interface Walk {
  refs: RefRegistry;
  options: SnapshotOptions;
  lines: string[];
  found: SnapshotRef[];
  elementCount: number;
  partial: boolean;
  deadline: number;
  view: Viewport;
  backgrounds: BackgroundFinder;
  /** One range for measuring elements' content, reused: a new one per element is garbage for nothing. */
  range: Range;
  /** Boxes of out-of-flow elements (fixed, sticky, absolute): what can sit on top of others. */
  overlays: DOMRect[];
  /** Ref lines to check for coverage once every overlay is known (a cookie banner comes last). */
  coverChecks: CoverCheck[];
  /** Elements whose text is the name of a control already listed (its aria-labelledby): not repeated. */
  naming: WeakSet<Element>;
  /** Popups shown away from their owner (a portal) → that owner. */
  popupOwners: Map<Element, Element>;
  /** The owners of such popups → where their line was written. */
  ownerLines: Map<Element, { host: string[]; line: number }>;
  /** Popups' lines, to show right after their owner's line. */
  attached: Array<{ host: string[]; line: number; segment: Segment }>;
  /** The last table row written as a line, and the columns its cells or those above still hold for the rows under it. */
  heldColumns?: { after: Element; held: number[] };
  /** The last ref written on a line of its own, where, and what it was listed as. */
  lastRefLine?: { element: Element; host: string[]; line: number; listed: SnapshotRef };
}

interface CoverCheck {
  line: number;
  element: Element;
  rect: DOMRect;
  /** The part of the page the scroll boxes around the element show: outside it, scrolling brings it out, nothing covers it. */
  scrolledInto?: Clip;
}

/** Lines written apart from the main outline (a popup's), with their coverage checks. */
interface Segment {
  lines: string[];
  coverChecks: CoverCheck[];
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

/** A painted element's box is shown: not pushed out of the page, bigger than a pixel, and not clipped away. */
function isShown(rect: DOMRect, view: Viewport, clip: Clip | undefined): boolean {
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

function contains(ancestor: Element, node: Element): boolean {
  for (let current: Node | null = node; current; current = (current as Element).assignedSlot ?? current.parentNode ?? (current as ShadowRoot).host ?? null) {
    if (current === ancestor) return true;
  }
  return false;
}

/** What sits where the element is clicked (click-point.ts) and would take the click meant for it, if anything. */
export function coverOf(element: Element, rect: DOMRect, view: Viewport): Element | undefined {
  const { x, y } = clickPoint(element, rect);
  if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) return undefined;
  const root = element.getRootNode() as Document | ShadowRoot;
  // Jawad's mask keeps the user's clicks off the page, not the agent's: look through it.
  const hit = root.elementsFromPoint(x, y).find((candidate) => candidate.localName !== MASK_TAG);
  if (!hit || contains(element, hit) || contains(hit, element)) return undefined;
  if (Array.from((element as HTMLInputElement).labels ?? []).some((label) => contains(label, hit))) return undefined;
  return hit;
}

/**
 * The box a covering element belongs to, as a person names what is in the way: the dialog, menu or
 * list that popped up (not one of its rows: Jupyter's menu items are `<li id=run_cell>`), else
 * the named box it is part of, else itself.
 */
function coverOwner(hit: Element): Element {
  return hit.closest('[role=dialog],[role=alertdialog],dialog,[aria-modal],[role=menu],[role=listbox],[role=tooltip]') ?? hit.closest('[aria-label],[id]') ?? hit;
}

/** A covering element described briefly: the role and name of the dialog or named box it is part of, or its tag and first words. */
export function describeCover(hit: Element): string {
  return describeBriefly(coverOwner(hit));
}

const BRIEF = 40;
const PRESENTATIONAL = new Set(['none', 'presentation']);

/**
 * `dialog "Cookie consent"`; a box without a role by its tag and first words: `div "Subscribe to our…"`.
 * A box's name from its content falls back on text that does not show (as an icon button's must),
 * but a box over the page is no control: it says the words it shows, judged as the snapshot's
 * are, or nothing (a clear click-catcher's off-window words once reached the model this way).
 */
export function describeBriefly(element: Element): string {
  // A box whose role the page took away (role=none) is a box all the same.
  const role = PRESENTATIONAL.has(roleOf(element)) ? 'generic' : roleOf(element);
  const name = clip((role === 'generic' ? ariaName(element) : accessibleName(element, role)) || visibleText(new VisibleTree(element)), BRIEF);
  return `${role === 'generic' ? element.localName : role}${name ? ` ${quote(name)}` : ''}`;
}

const OUT_OF_FLOW = new Set(['fixed', 'sticky', 'absolute']);

function overlaps(a: DOMRect, b: DOMRect | Clip): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * Adds `[covered by …]` to ref lines. Something painted over an element is, in practice, taken out
 * of the flow (a fixed banner, a sticky header, an absolute menu or dialog); hit-testing only the
 * refs under such a box spares a hit test per ref. Actions hit-test again before every click.
 */
function markCovered(walk: Walk, segment: Segment): void {
  if (walk.overlays.length === 0) return;
  // A banner over thirty links is described once.
  const described = new Map<Element, string>();
  for (const { line, element, rect, scrolledInto } of segment.coverChecks) {
    if (!walk.overlays.some((overlay) => overlaps(overlay, rect))) continue;
    if (scrolledInto && !visibleIn(rect, scrolledInto)) continue;
    const hit = coverOf(element, rect, walk.view);
    if (!hit) continue;
    const owner = coverOwner(hit);
    const cover = described.get(owner) ?? describeBriefly(owner);
    described.set(owner, cover);
    segment.lines[line] += ` [covered by ${cover}]`;
  }
}

/**
 * Registers a ref for the element and returns how it reads: on its own line
 * `role "name" [ref=e1] [state] value="…"`, inline `[role "name" ref=e1 state value="…"]`.
 */
function describeRef(walk: Walk, element: Element, role: string, judged: { inline: VisibleTree } | { root: JudgedRoot }): string {
  const ref = walk.refs.refFor(element);
  // Inside a block written as one line, the block's tree has judged the control's text already;
  // on a line of its own, the walk has judged the control itself.
  const inline = 'inline' in judged ? judged.inline : undefined;
  const read = { backgrounds: walk.backgrounds, view: walk.view, range: walk.range, tree: inline, judgedRoot: 'root' in judged ? judged.root : undefined };
  // By the element's own role: a clickable row of a list is shown as `row` but is still a container.
  const container = isContainer(element, roleOf(element));
  // A long editor is a container too, but is named as the text box it is.
  const name = container && role !== 'textbox' ? accessibleName(element, 'group', read) : accessibleName(element, role, read);
  const mark = (text: string) => (inline ? text : `[${text}]`);
  const shown = shownRole(element, role);
  const parts = [shown];
  if (name) parts.push(quote(name));
  parts.push(mark(`ref=${ref}`));
  for (const state of states(element, role)) parts.push(mark(state));
  // A nameless link tells where it goes, whatever role it plays (a toolkit's icon button is often a
  // link with role=button: Roundcube's Settings, its label hidden in a narrow window).
  const destination = !name && (role === 'link' || LINK_TAGS.has(element.localName)) ? destinationOf(element) : undefined;
  if (destination) parts.push(`url=${quote(destination, URL_SHOWN, 'get with attribute href gives all')}`);
  // A box holding a page's worth of content is not told by an icon somewhere inside it.
  const icon = name || container ? undefined : iconOf(element);
  if (icon) parts.push(`icon=${quote(icon)}`);
  // An editor's value is the text in it; a long one is listed as content below its line instead.
  const value = valueOf(element, container ? undefined : () => (typedThrough(element) ? editorText(element, read) : visibleContent(element, read)));
  if (value) parts.push(`value=${quote(value, VALUE_SHOWN, 'get gives all')}`);
  const options = optionsOf(element);
  if (options) parts.push(options);
  for (const id of (element.getAttribute('aria-labelledby') ?? '').split(/\s+/)) {
    const label = id ? element.ownerDocument.getElementById(id) : null;
    if (label) walk.naming.add(label);
  }
  const testid = element.getAttribute('data-testid') ?? element.getAttribute('data-t') ?? undefined;
  walk.found.push({ ref, role: shown, name: clipText(name, CAPS.name), tag: element.localName, ...(element.id ? { id: element.id } : {}), ...(testid ? { testid } : {}) });
  return parts.join(' ');
}

function emitRef(walk: Walk, element: Element, role: string, rect: DOMRect, scrolledInto: Clip | undefined, judged: JudgedRoot): void {
  const line = `- ${describeRef(walk, element, role, { root: judged })}`;
  if (role === 'link' && isTwinOfLastLine(walk, element, line)) {
    walk.found.pop();
    return;
  }
  const listed = walk.found.at(-1)!;
  const item = itemOfLastLine(walk, element, listed);
  // A box inside an item that only holds the focus for it: the item stands for both.
  if (item && listed.role === 'generic') {
    walk.found.pop();
    return;
  }
  const at = item ? standInForItem(walk, item, element, role, line) : walk.lines.push(line) - 1;
  walk.coverChecks.push({ line: at, element, rect, scrolledInto });
  if (walk.popupOwners.size > 0) walk.ownerLines.set(element, { host: walk.lines, line: at });
  walk.lastRefLine = { element, host: walk.lines, line: at, listed };
}

/** Items of a menu, tree, list or tab bar: what the page marks as one entry, which a link or button inside may do the work of. */
const ITEM_ROLES = new Set(['menuitem', 'treeitem', 'tab', 'option', 'listitem', 'row', 'gridcell']);

/** The item's line becomes the control's, with the item's states; returns the line's index. */
function standInForItem(walk: Walk, item: NonNullable<Walk['lastRefLine']>, control: Element, role: string, line: string): number {
  const own = states(control, role);
  const from = states(item.element, item.listed.role).filter((state) => !own.includes(state));
  walk.lines[item.line] = line + from.map((state) => ` [${state}]`).join('');
  walk.found.splice(walk.found.indexOf(item.listed), 1);
  walk.coverChecks = walk.coverChecks.filter((check) => check.element !== item.element || check.line !== item.line);
  return item.line;
}

/** What inside an item may read as it does: the control doing its work, or a box holding its focus. */
const INSIDE_ITEM_ROLES = new Set(['link', 'button', 'generic']);

/**
 * The item listed on the line just before, when this control inside it reads the same: a menu's
 * item holding its button "Reply", a folder tree's item holding its link "Inbox", a settings
 * list's option holding a focusable cell "User Interface". A person sees one entry; a link or
 * button is what takes the click and says whether it can (disabled).
 */
function itemOfLastLine(walk: Walk, element: Element, listed: SnapshotRef): Walk['lastRefLine'] {
  const last = refLineJustWritten(walk);
  if (!last || !ITEM_ROLES.has(last.listed.role) || !INSIDE_ITEM_ROLES.has(listed.role)) return undefined;
  return listed.name !== '' && listed.name === last.listed.name && last.element.contains(element) ? last : undefined;
}

/** The last ref's line when it is the line just written, in the lines being written now (nothing came between). */
function refLineJustWritten(walk: Walk): Walk['lastRefLine'] {
  const last = walk.lastRefLine;
  return last && last.host === walk.lines && last.line === walk.lines.length - 1 ? last : undefined;
}

const REF_MARK = / \[ref=[^\]]+\]/;
const LINK_TAGS = new Set(['a', 'area']);

/**
 * A link right after one to the same address that reads the same: an icon and its label linked
 * apart (phpMyAdmin's tree: an icon "New" and the text "New"; a product's picture and its title).
 * A person sees one item, and either goes to the same place: the first stands for both.
 */
function isTwinOfLastLine(walk: Walk, element: Element, line: string): boolean {
  const last = refLineJustWritten(walk);
  if (!last) return false;
  // An address the page's script stands in for (`#`, `javascript:`) says nothing of where a link goes.
  const written = element.getAttribute('href') ?? '';
  if (written === '' || written.startsWith('#') || /^\s*javascript:/i.test(written)) return false;
  const href = (element as HTMLAnchorElement).href;
  if (typeof href !== 'string' || (last.element as HTMLAnchorElement).href !== href) return false;
  return walk.lines[last.line]!.replace(REF_MARK, '') === line.replace(REF_MARK, '');
}

/**
 * A native control made transparent but left where it takes clicks — the checkbox of a CSS-only
 * menu laid over its label, an opacity:0 file input over a styled button. It is what a click on
 * that spot reaches, so it is listed and clicked like any visible control.
 */
export function takesClicksUnseen(element: Element): boolean {
  if (!['input', 'select', 'button'].includes(element.localName) || (element as HTMLInputElement).type === 'hidden') return false;
  if (element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) || !element.checkVisibility({ visibilityProperty: true })) return false;
  // Itself made transparent, inside something painted: a faded-out toast's buttons are not on offer.
  const style = getComputedStyle(element);
  if (style.pointerEvents === 'none' || Number(style.opacity) > 0.01) return false;
  if (element.parentElement && !element.parentElement.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
  const rect = element.getBoundingClientRect();
  return rect.width > 1 && rect.height > 1;
}

/**
 * How each element inside a block written as one line shows in it: skipped, read, or its ref.
 * The one visibility rule holds inside the block too: clipped, scaled-away or invisible-ink parts stay out.
 */
function inlineParts(walk: Walk, tree: VisibleTree, clip: Clip | undefined): (child: Element) => InlinePart {
  const line = walk.lines.length;
  return (child: Element): InlinePart => {
    if (SKIPPED.has(child.localName) || child.getAttribute('aria-hidden') === 'true') return 'skip';
    const painted = tree.isPainted(child);
    const unseen = !painted && (isStyledChoice(child) || takesClicksUnseen(child));
    if ((!painted || tree.isHidden(child)) && !unseen) return 'skip';
    const role = roleOf(child);
    // Text is judged by the tree (a screen-reader-only 1×1 box clips its text away); a control by its box.
    if (!actsInline(child, role) || wrapsLink(child, role)) return 'read';
    const box = child.getBoundingClientRect();
    if (painted && box.width <= 1 && box.height <= 1) return 'skip';
    // Clipped away like the text around it: a link past a box's hidden overflow, or a fixed bar's past the viewport.
    if (painted && clip && !overlaps(box, clip)) return 'skip';
    walk.coverChecks.push({ line, element: child, rect: box });
    if (walk.popupOwners.size > 0) walk.ownerLines.set(child, { host: walk.lines, line });
    return `[${describeRef(walk, child, role, { inline: tree })}]`;
  };
}

/**
 * Whether an element inside a line is a control: by tag, role or handler, or by a pointer cursor
 * of its own (not one it inherits), as a row of tabs drawn as spans with a click listener each
 * (Fossil's wiki editor). The cursor is read only for what is no control otherwise.
 */
function actsInline(child: Element, role: string): boolean {
  if (isInteractive(child, role, false)) return true;
  const pointer = getComputedStyle(child).cursor === 'pointer' && (!child.parentElement || getComputedStyle(child.parentElement).cursor !== 'pointer');
  return pointer && isInteractive(child, role, true);
}

const LINKS = 'a[href],area[href],[role=link]';

/**
 * A role-less element that takes focus or clicks around a link: a list's current cell holding the
 * keyboard focus (roving tabindex) around the row's subject link, a clickable card around its
 * title link. The link is where a click on it leads; the element is read through, so the link
 * keeps its ref — as one control, its content would fold into a name and the link drop out of a
 * row's line, or be listed twice on lines of its own. (One around buttons or boxes only, a row
 * that opens on a click beside its checkbox, stays a control; so does a box of a page's worth of
 * text, whose content is listed as content anyway — a skip link's target.)
 */
function wrapsLink(element: Element, role: string): boolean {
  return role === 'generic' && element.querySelector(LINKS) !== null && !isContainer(element, role);
}

/** Widgets made of items: a person acts on an item, never on the whole. */
const COMPOSITES = new Set(['menu', 'menubar', 'tablist', 'tree', 'treegrid', 'grid', 'toolbar', 'radiogroup', 'table']);
const ITEMS = `${LINKS},button,input,select,textarea,tr,[role=button],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=tab],[role=treeitem],[role=radio],[role=row],[role=gridcell]`;

/**
 * A menu, tab list or table that takes the keyboard focus to move it between its items (a news
 * site's account menu, a webmail's message list): its items are listed, each with its ref; the
 * whole, listed as a control too, would be a ref that does nothing. A scroll box keeps its ref:
 * it is what scrolling moves. (So does one whose pointer says a click on it means something.)
 */
function focusMovesAmongItems(element: Element, role: string, overflowY: string): boolean {
  return (COMPOSITES.has(role) || (role === 'generic' && element.localName === 'table')) && !isScroller(element, overflowY) && element.querySelector(ITEMS) !== null;
}

/** The visible parts of an element the walk lists as one line, judged with what the walk has read already. */
function treeOf(walk: Walk, root: Element, judgedRoot: JudgedRoot): VisibleTree {
  // Its text is read by inlineText, which keeps the words of a block (a flex item) apart.
  return new VisibleTree(root, { rootShown: true, backgrounds: walk.backgrounds, view: walk.view, range: walk.range, judgedRoot });
}

/** A block's text and inline controls (all of them, or one run between its blocks) as one line, the controls' refs in place. */
function emitInline(walk: Walk, element: Element, judged: JudgedRoot): void {
  const tree = treeOf(walk, element, judged);
  const text = inlineText(judged.span ? nodesIn(judged.span) : element.childNodes, inlineParts(walk, tree, judged.contentClip), (node) => !tree.mutes(node), (child) => tree.isBlock(child));
  if (text) walk.lines.push(fold(text));
}

/** A table row as one line of cells, each cell's controls' refs in place (a clickable cell is its own ref). */
function emitRow(walk: Walk, row: Element, judged: JudgedRoot): void {
  const tree = treeOf(walk, row, judged);
  const partOf = inlineParts(walk, tree, judged.contentClip);
  const shows = (node: Text) => !tree.mutes(node);
  const isBlock = (child: Element) => tree.isBlock(child);
  const cells: RowCell[] = [];
  for (const cell of Array.from(row.children)) {
    const part = partOf(cell);
    if (part === 'skip') continue;
    cells.push({ text: part === 'read' ? inlineText(cell.childNodes, partOf, shows, isBlock) : part, columns: spanOf(cell), rows: rowSpanOf(cell) });
  }
  // Columns a cell of the row above still holds (rowspan), when that row was written as a line too.
  const above = walk.heldColumns?.after === row.previousElementSibling ? walk.heldColumns.held : [];
  const laidOut = layOutRow(cells, above);
  walk.heldColumns = { after: row, held: laidOut.held };
  if (laidOut.cells.some((cell) => cell !== '')) walk.lines.push(fold(rowLine(laidOut.cells)));
}

/** The element's own text; where an element stood between two pieces (a `<br>`), a space keeps their words apart. */
function ownText(element: Element): string {
  let text = '';
  let apart = false;
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === Node.ELEMENT_NODE) apart = text !== '';
    if (child.nodeType !== Node.TEXT_NODE) continue;
    text += (apart ? ' ' : '') + (child as Text).data;
    apart = false;
  }
  return text ? fold(oneLine(pageText(text))) : '';
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
  /** What clip-path, `clip` and filters of ancestors leave: unlike overflow, fixed position does not escape it. */
  paint: Clip | undefined;
  /** The boxes clipping overflow above: out-of-flow descendants may be drawn past them. */
  clippers: ClipChains | undefined;
  /** Inside a scroll box of the page (rows of a list may be what a click means). */
  inScroller: boolean;
  /** What the scroll boxes around show now. */
  scrolledInto: Clip | undefined;
}

function isRepeating(element: Element): boolean {
  return LIST_TAGS.has(element.localName) || LIST_ROLES.has(element.getAttribute('role') ?? '');
}

/**
 * A 2,000-row table would drown the model: long lists show one window of rows and say how many
 * there are and how to see the next ones.
 */
function listWindow(walk: Walk, element: Element, rows: Element[]): Element[] {
  if (rows.length <= LONG_LIST || !isRepeating(element) || !rowsAreRecords(rows)) return rows;
  const pages = Math.ceil(rows.length / LIST_WINDOW);
  const page = Math.min(Math.max(walk.options.page ?? 1, 1), pages);
  const start = (page - 1) * LIST_WINDOW;
  const shown = rows.slice(start, start + LIST_WINDOW);
  const next = page < pages ? ` Snapshot with page: ${page + 1} for the next ${LIST_WINDOW}.` : '';
  walk.lines.push(`- note: ${rows.length} rows here; showing ${start + 1}–${start + shown.length}.${next}`);
  return shown;
}

const ACTIONABLE = 'a[href],button,input,select,textarea,[role=button],[role=link],[role=checkbox],[role=option],[tabindex],[onclick]';
const SAMPLE_ROWS = 10;

/**
 * Records (table rows with their buttons, a list of products or stations): what a window of rows
 * summarises well. Rows that are only text (the lines of a poem, of a code listing) are what the
 * page says, and stay whole.
 */
function rowsAreRecords(rows: readonly Element[]): boolean {
  const sample = rows.slice(0, SAMPLE_ROWS);
  return sample.filter((row) => row.matches(ACTIONABLE) || row.querySelector(ACTIONABLE) !== null).length * 2 >= sample.length;
}

/**
 * A run of a block's inline content between its block children (`Intro <a>link</a> text` before a
 * `<div>`), written as one line where it stands, judged as its block was.
 */
interface PendingRun {
  parent: Element;
  judged: JudgedRoot;
}

/** What the walk meets next: an element to visit, or a run of inline content to write. */
type WalkItem = Element | PendingRun;

/** The children to visit next, and what their ancestors pass down to every one of them. */
interface Descent {
  children: readonly WalkItem[];
  inherited: Inherited;
}

/** What the walk passes to the page's root element. */
const TOP: Inherited = { insideControl: false, parentPointer: false, clip: undefined, paint: undefined, clippers: undefined, inScroller: false, scrolledInto: undefined };
const NOTHING_INSIDE: Descent = { children: [], inherited: TOP };

/** The element children the walk descends into (a window of them in long lists). */
function childrenToVisit(walk: Walk, element: Element): Element[] {
  const children = childrenOf(element);
  const elements: Element[] = [];
  if (children === element.childNodes) {
    // The common case (no shadow root, no slot): the element children, by sibling links (cheaper than copying a live collection).
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) elements.push(child);
  } else {
    for (const child of Array.from(children)) if (child.nodeType === Node.ELEMENT_NODE) elements.push(child as Element);
  }
  return listWindow(walk, element, element.localName === 'table' ? inDrawnOrder(elements) : elements);
}

/**
 * A table draws its footer below its body wherever the markup puts it (phpMyAdmin's forms write
 * their Go button's `<tfoot>` first): read in the order a person sees, the footer comes last.
 */
function inDrawnOrder(parts: Element[]): Element[] {
  const footers = parts.filter((part) => part.localName === 'tfoot' && getComputedStyle(part).display === 'table-footer-group');
  return footers.length === 0 ? parts : [...parts.filter((part) => !footers.includes(part)), ...footers];
}

/**
 * Writes the element's own line, if any, and returns its children to visit next (none when
 * nothing inside it can show). The walk is a loop over a stack, not recursion: a page nested
 * thousands of levels deep must not overflow the call stack.
 */
function visit(walk: Walk, element: Element, inherited: Inherited): Descent {
  walk.elementCount++;
  if (outOfBudget(walk) || SKIPPED.has(element.localName) || element.getAttribute('aria-hidden') === 'true') return NOTHING_INSIDE;
  if (attachToOwner(walk, element)) return NOTHING_INSIDE;
  // One check answers both questions for most elements: painted implies rendered.
  const painted = element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  if (!painted && !element.checkVisibility()) {
    // display:contents (slots, framework wrappers) has no box but its children do: see through it.
    // Anything else that fails here is display:none or content-visibility:hidden: nothing shows.
    if (getComputedStyle(element).display !== 'contents') return NOTHING_INSIDE;
    return { children: childrenToVisit(walk, element), inherited };
  }
  const view = walk.view;
  const style = getComputedStyle(element);
  // Each read of a style property or a box crosses into the browser, for every element of the
  // page: each is read once, and the box only when a rule needs it (most elements are containers).
  const position = style.position;
  const box = boxOf(element);
  // A box pushed off the page takes its content along (a box of no size, like a toolkit's overlay
  // layer at the origin, is no such box: what it holds is placed on its own).
  if (position !== 'static' && isPushedOffPage(box(), view)) return NOTHING_INSIDE;
  const { insideControl, parentPointer } = inherited;
  // Out-of-flow boxes escape the clips of boxes around their containing block.
  const overflowClip = overflowClipOf(element, position, inherited.clip, inherited.clippers, view);
  const around = inherited.paint ? intersect(overflowClip, inherited.paint) : overflowClip; // what ancestors leave
  const own = paintClip(style, box, position);
  const clip = own ? intersect(around, own) : around;
  const paint = own ? intersect(inherited.paint, own) : inherited.paint;
  let seen: boolean | undefined;
  const shown = () => (seen ??= painted && isShown(box(), view, clip));
  if (FRAMES.has(element.localName)) {
    if (shown()) framePlaceholder(walk, element);
    return NOTHING_INSIDE;
  }
  if (OUT_OF_FLOW.has(position) && shown()) walk.overlays.push(box());
  const role = roleOf(element);
  // The cursor is inherited: only the outermost pointer counts, and never inside a control.
  const pointer = !insideControl && style.cursor === 'pointer' && shown();
  // A row of a list a click means (a virtualised inbox's) reads as a row; any other clickable or
  // focusable element without a role (a card, the main content a skip link focuses) as generic.
  const overflow = overflowOf(style);
  const interactive = isInteractive(element, role, pointer && !parentPointer) && !wrapsLink(element, role) && (pointer || !focusMovesAmongItems(element, role, overflow.y));
  // Whether it is a list's row matters only to what is not a control already, or to how a role-less one reads.
  const listRow = (!interactive || role === 'generic') && !insideControl && isListRow(element, style, inherited.inScroller);
  const candidate = interactive || listRow;
  const acts = candidate && (shown() || (isStyledChoice(element) && labelShown(element, around)) || (!painted && takesClicksUnseen(element) && visibleIn(box(), clip)));
  // Text no one can read (font-size: 0, the colour of its background) is left out like hidden
  // text. Text is judged where it is drawn, not by its element's box: text overflowing a box of no
  // height shows, text clipped away or pushed off the page does not.
  const contentClip = clipFor(overflow, box, clip, element);
  const clippers = clippersBelow(element, position, clip, contentClip, inherited.clippers);
  let judgedReadable: boolean | undefined;
  const readable = () => (judgedReadable ??= !hasInvisibleInk(style, walk.backgrounds.of(element, style), scaleOf(element, box())) && contentShows(element, contentClip, view, walk.range));
  const judged: JudgedRoot = { contentClip, paint, clippers, textReadable: readable };
  let runs: Array<ChildSpan | Element> | undefined;
  if (acts) emitRef(walk, element, listRow && role === 'generic' ? 'row' : role, box(), inherited.scrolledInto, judged);
  else if (role === 'heading' && painted) {
    const legible = readable();
    const judgedRoot = { ...judged, textReadable: () => legible };
    // Its own ink judges its own text only: a child may set its own size inside a font-size: 0 heading.
    const tree = !legible && element.firstElementChild ? treeOf(walk, element, judgedRoot) : undefined;
    if (legible || (tree && visibleText(tree) !== '')) {
      const read = { backgrounds: walk.backgrounds, view: walk.view, range: walk.range, tree, judgedRoot };
      walk.lines.push(headingLine(accessibleName(element, role, read), element.getAttribute('aria-level') ?? element.localName.slice(1)));
    }
  } else if (!insideControl && isTableRow(element, role) && shown()) {
    emitRow(walk, element, judged);
    return NOTHING_INSIDE;
  } else if (!insideControl && !namesControl(walk, element) && isInlineBlock(element) && painted) {
    // The block's ink judges its own text only: inside a `font-size: 0` row of links (a layout
    // trick) or an invisible paragraph, a child that sets its own size or colour shows.
    emitInline(walk, element, judged);
    return NOTHING_INSIDE;
  } else if (!insideControl && !namesControl(walk, element)) {
    // Text between blocks (a post's lines beside a `<div>`) is read run by run, in place.
    runs = painted && !isRepeating(element) && childrenOf(element) === element.childNodes ? inlineRuns(element) : undefined;
    const text = runs ? '' : ownText(element);
    if (text && painted && readable()) walk.lines.push(text);
  }
  // A heading's text is its name: inside it, only what can be acted on (a link) gets a line.
  const named = (acts && !isContainer(element, role)) || (role === 'heading' && painted) || namesControl(walk, element);
  if (named && !holdsMore(element)) return NOTHING_INSIDE;
  if (element.localName === 'svg' && !element.querySelector(LISTED_IN_SVG)) return NOTHING_INSIDE;
  const scroller = isScroller(element, overflow.y);
  const passed: Inherited = {
    insideControl: insideControl || named,
    parentPointer: pointer,
    clip: contentClip,
    paint,
    clippers,
    inScroller: inherited.inScroller || scroller,
    scrolledInto: scroller ? intersect(inherited.scrolledInto, box()) : inherited.scrolledInto,
  };
  return { children: runs ? withRuns(runs, element, judged) : childrenToVisit(walk, element), inherited: passed };
}

/** A mixed block's children to visit, each run of its inline content to be written where it stands. */
function withRuns(items: Array<ChildSpan | Element>, parent: Element, judged: JudgedRoot): WalkItem[] {
  return items.map((item) => ('first' in item ? { parent, judged: { ...judged, span: item } } : item));
}

/**
 * What inside a named element (a link, a button, a heading, a label) can still have a line of its
 * own: something to act on, a heading, a frame, a popup. Text there is the element's name already.
 */
const LISTED_INSIDE_NAMED = 'a[href],area[href],button,input,select,textarea,summary,iframe,frame,h1,h2,h3,h4,h5,h6,[role],[tabindex],[onclick],[contenteditable],slot';

/** An icon's shapes have nothing to list; text, links and controls drawn in SVG do. */
const LISTED_IN_SVG = 'a,text,foreignObject,[role],[tabindex],[onclick]';

/** One query instead of judging every element of a link's or a label's content, which has nothing to list. */
function holdsMore(named: Element): boolean {
  return shadowRootOf(named) !== null || named.querySelector(LISTED_INSIDE_NAMED) !== null;
}

/** `## Title`: a heading as markdown writes it (levels 1–6). */
function headingLine(name: string, level: string): string {
  const depth = Math.min(Math.max(Number.parseInt(level, 10) || 2, 1), 6);
  return `${'#'.repeat(depth)} ${fold(pageText(name))}`;
}

/** More text than a name holds: a clickable card is named by its text, not a whole article. */
const CONTAINER_TEXT = 200;

/**
 * A role-less element that can be focused or clicked but holds a page's worth of text (the skip
 * link's target `<div id=maincontent tabindex=0>`, a clickable card with a story), or an editor
 * holding one (a post being written): it keeps its ref, but its content is listed as content, not
 * folded into a name or a value.
 */
function isContainer(element: Element, role: string): boolean {
  if ((element.textContent?.length ?? 0) <= CONTAINER_TEXT) return false;
  if (role === 'generic') return true;
  // By the text it shows: a code editor keeps hidden boxes of text to measure its characters with (Ace).
  return role === 'textbox' && isTextEditor(element) && (element as HTMLElement).innerText.length > CONTAINER_TEXT;
}

/** A label of a rendered control, or the element a listed control is labelled by: its text is that control's name. */
function namesControl(walk: Walk, element: Element): boolean {
  if (walk.naming.has(element)) return true;
  if (element.localName !== 'label') return false;
  const control = (element as HTMLLabelElement).control;
  if (!control?.checkVisibility()) return false;
  // A control made a pixel or less (the visually-hidden select a Select2 box stands in for) is not
  // listed: its label's words stay on the page.
  const { width, height } = control.getBoundingClientRect();
  return (width > 1 && height > 1) || isStyledChoice(control);
}

/** Visits the tree in document order (depth first), children in the order they appear. */
function walkFrom(walk: Walk, root: Element): void {
  // Two stacks side by side, not an object per element: a page has thousands.
  const elements: WalkItem[] = [root];
  const passed: Inherited[] = [TOP];
  while (elements.length > 0 && !walk.partial) {
    const item = elements.pop()!;
    const inheritedByItem = passed.pop()!;
    if ('judged' in item) {
      emitInline(walk, item.parent, item.judged);
      continue;
    }
    const { children, inherited } = visit(walk, item, inheritedByItem);
    for (let i = children.length - 1; i >= 0; i--) {
      elements.push(children[i]!);
      passed.push(inherited);
    }
  }
}

/**
 * A popup whose owner is already listed is walked on its own and its lines kept to show right
 * after the owner's line. (A popup met before its owner stays where it is.)
 */
function attachToOwner(walk: Walk, popup: Element): boolean {
  const owner = walk.popupOwners.get(popup);
  const at = owner && walk.ownerLines.get(owner);
  if (!at) return false;
  walk.popupOwners.delete(popup);
  const main: Segment = { lines: walk.lines, coverChecks: walk.coverChecks };
  const segment: Segment = { lines: [], coverChecks: [] };
  walk.lines = segment.lines;
  walk.coverChecks = segment.coverChecks;
  try {
    walkFrom(walk, popup);
  } finally {
    walk.lines = main.lines;
    walk.coverChecks = main.coverChecks;
  }
  if (segment.lines.length > 0) walk.attached.push({ ...at, segment });
  return true;
}

/** The outline with each popup's lines indented under its owner's line. */
function assemble(walk: Walk, lines: string[], indent: string, out: string[]): string[] {
  lines.forEach((text, index) => {
    out.push(indent + text);
    for (const { host, line, segment } of walk.attached) if (host === lines && line === index) assemble(walk, segment.lines, `${indent}  `, out);
  });
  return out;
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

/** Chromium's PDF viewer sits in a document of this type, its pages drawn where no script of a page reaches. */
const PDF_NOTE = '- note: this tab shows a PDF in the browser’s viewer: nothing in it can be clicked or filled here; read_page reads its text';

export function takeSnapshot(doc: Document, refs: RefRegistry, options: SnapshotOptions): PageSnapshot {
  if (awaitingItsPage(doc)) throw new JawadError('PAGE_UNREADABLE', 'This frame has not loaded its page yet.');
  const page = {
    url: clipText(doc.location?.href ?? '', CAPS.url),
    // Printed first by the agent: a multi-megabyte <title> would push every ref out of the prompt.
    title: clipText(doc.title, CAPS.title),
  };
  if (doc.contentType === 'application/pdf') return { ...page, text: PDF_NOTE, refs: [], elementCount: 0, partial: false };
  const walk: Walk = {
    refs,
    options,
    lines: [],
    found: [],
    elementCount: 0,
    partial: false,
    deadline: performance.now() + options.timeBudgetMs,
    view: viewportOf(doc.defaultView ?? window),
    backgrounds: new BackgroundFinder(),
    range: doc.createRange(),
    overlays: [],
    coverChecks: [],
    naming: new WeakSet(),
    popupOwners: popupOwners(doc, refs.lastClicked()),
    ownerLines: new Map(),
    attached: [],
  };
  if (doc.body) walkFrom(walk, doc.body);
  markCovered(walk, walk);
  for (const { segment } of walk.attached) markCovered(walk, segment);
  refs.rememberListed(walk.found.map((found) => found.ref));
  const lines = assemble(walk, walk.lines, '', []);
  if (walk.partial) lines.push(`- note: partial snapshot (stopped after ${walk.found.length} refs / ${options.timeBudgetMs} ms); scroll or narrow the task and snapshot again`);
  return {
    ...page,
    text: lines.join('\n'),
    refs: walk.found,
    elementCount: walk.elementCount,
    partial: walk.partial,
  };
}
