/**
 * What a person cannot see must not reach the model: the one rule every path that reads the page
 * applies (the reader, the snapshot, `get`, product facts, frames). The browser answers display,
 * visibility and opacity; this module adds what it does not know about: clipping of every kind
 * (overflow, `clip`, `clip-path`, a `filter: opacity(0)`), scaling to nothing (transform, scale,
 * zoom), text too small to read, and text the colour of what it sits on.
 */

import { shadowRootOf } from './shadow-root';

/** Characters editors put in their text to hold the caret or an empty line (CKEditor's fillers, CodeMirror 5's zero-width space), which nobody sees or typed. */
export const INVISIBLE = /[\u200b\ufeff]/g;

/** Hidden on purpose, whatever the styles say. */
export function isMarkedHidden(element: Element): boolean {
  return element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('hidden');
}

/**
 * The window's scroll offsets and size, read once per walk: each read of a window property from
 * the isolated world is a round through the bindings, and a walk needs them for every element.
 */
export interface Viewport {
  scrollX: number;
  scrollY: number;
  innerWidth: number;
  innerHeight: number;
}

export function viewportOf(view: Window): Viewport {
  return { scrollX: view.scrollX, scrollY: view.scrollY, innerWidth: view.innerWidth, innerHeight: view.innerHeight };
}

/**
 * Moved out past the page's left or top edge (`left: -9999px`), taking its content along. A box
 * with no width (or height) is no measure that way: what it holds overflows it to the right (or
 * down), into the page. WordPress's block editor hangs in a `position: relative` box of no height
 * at the top of the page.
 */
export function isPushedOffPage(rect: DOMRect, view: Viewport | null): boolean {
  return (rect.width > 0 && rect.right + (view?.scrollX ?? 0) <= 0) || (rect.height > 0 && rect.bottom + (view?.scrollY ?? 0) <= 0);
}

interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** Computed colours come as rgb()/rgba(); anything else (oklch(), color()) is not judged. */
export function parseColor(value: string): Rgba | undefined {
  // A page uses a handful of colours, and a walk reads one or two per element: parse each once.
  if (parsedColours.has(value)) return parsedColours.get(value);
  const match = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value.trim());
  const alpha = match?.[4] === undefined ? 1 : match[4].endsWith('%') ? Number(match[4].slice(0, -1)) / 100 : Number(match[4]);
  const colour = match ? { r: Number(match[1]), g: Number(match[2]), b: Number(match[3]), a: alpha } : undefined;
  if (parsedColours.size >= PARSED_COLOURS_KEPT) parsedColours.clear();
  parsedColours.set(value, colour);
  return colour;
}

const parsedColours = new Map<string, Rgba | undefined>();
const PARSED_COLOURS_KEPT = 512;

function luminance({ r, g, b }: Rgba): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio: 1 for the same colour, 21 for black on white. */
export function contrast(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Below this, text is the colour of its background to the eye (readable text needs 4.5). */
const INVISIBLE_CONTRAST = 1.1;
/** Text this small (font-size: 0 and its cousins) shows nothing a person can read. */
const MIN_READABLE_FONT_PX = 2;

/**
 * The colour an element's text sits on, as far as the DOM tells: the nearest ancestor background
 * that is opaque. Unknown (undefined) under a background image, or when nothing sets one on a
 * dark-scheme page. Cached per pass: ancestors are shared by many text elements.
 */
export class BackgroundFinder {
  private readonly known = new WeakMap<Element, string | null>();

  /** `own`: the element's computed style, when the caller has it already. */
  of(element: Element, own?: CSSStyleDeclaration): string | undefined {
    const chain: Element[] = [];
    let found: string | null | undefined;
    for (let current: Element | null = element; current; current = current.parentElement) {
      found = this.known.get(current);
      if (found !== undefined) break;
      chain.push(current);
      const style = current === element && own ? own : getComputedStyle(current);
      if (style.backgroundImage !== 'none') found = null;
      else {
        const colour = style.backgroundColor;
        if ((parseColor(colour)?.a ?? 0) > 0.9) found = colour;
      }
      if (found !== undefined) break;
    }
    if (found === undefined) found = canvasColour(element.ownerDocument);
    for (const seen of chain) this.known.set(seen, found);
    return found ?? undefined;
  }
}

/** The page's canvas when nothing paints a background: white, unless the page asks for a dark scheme. */
function canvasColour(doc: Document): string | null {
  const scheme = getComputedStyle(doc.documentElement).colorScheme;
  return /dark/.test(scheme) ? null : 'rgb(255, 255, 255)';
}

/**
 * Text of this element that no one can read: too small (`scale` is how much transforms and zoom
 * shrink it), transparent, or the colour of its background. Text painted with a background image
 * (gradient text: `background-clip: text`) shows whatever its fill colour says.
 */
export function hasInvisibleInk(style: CSSStyleDeclaration, background: string | undefined, scale = 1): boolean {
  if (parseFloat(style.fontSize) * scale < MIN_READABLE_FONT_PX) return true;
  // The image first: most text has none, and then how the background is clipped does not matter.
  if (style.backgroundImage !== 'none' && /\btext\b/.test(`${style.getPropertyValue('background-clip')} ${style.getPropertyValue('-webkit-background-clip')}`)) return false;
  const ink = parseColor(style.getPropertyValue('-webkit-text-fill-color')) ?? parseColor(style.color);
  if (!ink) return false;
  if (ink.a < 0.1) return true;
  const ground = background === undefined ? undefined : parseColor(background);
  return ground !== undefined && contrast(ink, ground) < INVISIBLE_CONTRAST;
}

// ---- Clipping and scaling ---------------------------------------------------------------------

/** A visible area in viewport pixels: what the clips of an element and its ancestors leave. */
export interface Clip {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The box an element's own clipping is measured against (its border box, as laid out). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export function intersect(clip: Clip | undefined, area: Clip | DOMRect): Clip {
  if (!clip) return { left: area.left, top: area.top, right: area.right, bottom: area.bottom };
  return { left: Math.max(clip.left, area.left), top: Math.max(clip.top, area.top), right: Math.min(clip.right, area.right), bottom: Math.min(clip.bottom, area.bottom) };
}

/** Nothing inside can show: the area is a pixel or less either way. */
export function isEmptyClip(clip: Clip | undefined): boolean {
  return clip !== undefined && (clip.right - clip.left <= 1 || clip.bottom - clip.top <= 1);
}

/** Visible within the clip by more than a pixel each way. */
export function visibleIn(rect: Clip | DOMRect, clip: Clip | undefined): boolean {
  return !isEmptyClip(intersect(clip, rect));
}

/** The element's box, measured the first time a rule asks for it (a measurement crosses into the browser). */
export function boxOf(element: Element): () => DOMRect {
  let measured: DOMRect | undefined;
  return () => (measured ??= element.getBoundingClientRect());
}

/** An element's computed overflow, read once: several rules ask. */
export interface Overflow {
  x: string;
  y: string;
}

export function overflowOf(style: CSSStyleDeclaration): Overflow {
  // The shorthand is one read for both ("visible", or "hidden auto" when they differ).
  const [x = '', y = x] = style.overflow.split(' ');
  return x ? { x, y } : { x: style.overflowX, y: style.overflowY };
}

/**
 * The clip this element imposes on its descendants. Hidden or clipped overflow cuts content off for
 * good; a scroll box shows its content by scrolling, unless the box itself has no area. `box` is
 * measured only when the overflow is not simply visible.
 */
export function clipFor(overflow: Overflow, box: () => DOMRect, inherited: Clip | undefined, element: Element): Clip | undefined {
  if (overflow.x === 'visible' && overflow.y === 'visible') return inherited;
  const both = `${overflow.x} ${overflow.y}`;
  if (/hidden|clip/.test(both)) return intersect(inherited, box());
  if (/auto|scroll/.test(both) && (box().width < 1 || box().height < 1)) return intersect(inherited, box());
  return inherited && scrollableInto(intersect(inherited, box()), element);
}

/**
 * What a scroll box's content can be scrolled into view through: the part of the box that shows,
 * open to the end of its scrolling (right and down), and back to where its scrolling started
 * (left and up by what it has scrolled already). Content laid before that start never shows.
 */
function scrollableInto(shown: Clip, element: Element): Clip {
  if (isEmptyClip(shown)) return shown;
  return { left: shown.left - element.scrollLeft, top: shown.top - element.scrollTop, right: Infinity, bottom: Infinity };
}

/**
 * The boxes that clip their overflow, as the walk goes down from them. Overflow clips what a box
 * contains in flow, but an out-of-flow descendant is clipped only by the boxes around its
 * containing block: when that block lies further out, the descendant is drawn past the box's edge.
 * DokuWiki's media manager puts both its panes (absolutely positioned) in a static `height: 0;
 * overflow: hidden` wrapper; a fixed element is drawn past every box unless one around it places
 * it (a transform does).
 */
export interface ClipChains {
  /** Static clippers since the nearest positioned box, which places its absolute descendants itself. */
  sincePositioned: StaticClipper | undefined;
  /** Every clipper, innermost first. */
  all: Clipper | undefined;
}

interface StaticClipper {
  clipper: Element;
  /** The clip in force around the clipper: what its escaping descendants are still inside. */
  around: Clip | undefined;
  outer: StaticClipper | undefined;
}

interface Clipper {
  clipper: Element;
  /** The clip in force inside it. */
  content: Clip | undefined;
  outer: Clipper | undefined;
}

/** The chains an element passes to its children (`contentClip` is `clip` itself when it does not clip). */
export function clippersBelow(element: Element, position: string, clip: Clip | undefined, contentClip: Clip | undefined, inherited: ClipChains | undefined): ClipChains | undefined {
  if (contentClip === clip) {
    if (position === 'static' || !inherited?.sincePositioned) return inherited;
    return { sincePositioned: undefined, all: inherited.all };
  }
  return {
    sincePositioned: position === 'static' ? { clipper: element, around: clip, outer: inherited?.sincePositioned } : undefined,
    all: { clipper: element, content: contentClip, outer: inherited?.all },
  };
}

/** The element's parent in the flat tree: a slotted element's slot, a shadow root's host. */
export function flatParent(element: Element): Element | null {
  return element.assignedSlot ?? element.parentElement ?? ((element.parentNode as ShadowRoot | null)?.host ?? null);
}

/**
 * Whether an element with this style places its fixed descendants (is their containing block,
 * instead of the viewport), and so its absolute ones too. Anything that might make it one counts:
 * wrongly counting it keeps clips on them; wrongly not counting it could show what is hidden.
 */
function placesFixed(style: CSSStyleDeclaration): boolean {
  return (
    style.transform !== 'none' ||
    style.translate !== 'none' ||
    style.rotate !== 'none' ||
    style.scale !== 'none' ||
    style.filter !== 'none' ||
    style.perspective !== 'none' ||
    style.contain !== 'none' ||
    style.willChange !== 'auto' ||
    style.getPropertyValue('backdrop-filter') !== 'none' ||
    style.getPropertyValue('container-type') !== 'normal' ||
    style.getPropertyValue('content-visibility') !== 'visible'
  );
}

function placesAbsolute(element: Element): boolean {
  const style = getComputedStyle(element);
  return style.position !== 'static' || placesFixed(style);
}

/**
 * The overflow clip over an absolutely positioned element: `clip` (what its parent's content
 * gets), less the static clippers it is drawn past because its containing block is further out.
 */
function absoluteClip(element: Element, clip: Clip | undefined, chains: ClipChains | undefined): Clip | undefined {
  let result = clip;
  let ancestor = flatParent(element);
  for (let link = chains?.sincePositioned; link; link = link.outer) {
    // A box that places it, at or inside the clipper, keeps the clipper's clip on it.
    for (; ancestor && ancestor !== link.clipper; ancestor = flatParent(ancestor)) if (placesAbsolute(ancestor)) return result;
    if (!ancestor || placesAbsolute(ancestor)) return result;
    result = link.around;
    ancestor = flatParent(ancestor);
  }
  return result;
}

/**
 * The clip over a fixed element: when a box around it places it, the clip in force inside that
 * box (none past the outermost clipper). Otherwise the viewport places it, and clips it: it stays
 * put as the page scrolls, so what lies past the viewport's edges never shows (phpMyAdmin's
 * console keeps its closed panels just past the bottom right corner).
 */
function fixedClip(element: Element, chains: ClipChains | undefined, view: Viewport | null): Clip | undefined {
  let link = chains?.all;
  for (let ancestor = flatParent(element); ancestor; ancestor = flatParent(ancestor)) {
    if (placesFixed(getComputedStyle(ancestor))) return link?.content;
    if (ancestor === link?.clipper) link = link.outer;
  }
  return view ? { left: 0, top: 0, right: view.innerWidth, bottom: view.innerHeight } : undefined;
}

/** The overflow clip of an element's ancestors that applies to it, by how it is positioned. */
export function overflowClipOf(element: Element, position: string, clip: Clip | undefined, chains: ClipChains | undefined, view: Viewport | null): Clip | undefined {
  if (position === 'fixed') return fixedClip(element, chains, view);
  if (position === 'absolute' && chains?.sincePositioned) return absoluteClip(element, clip, chains);
  return clip;
}

const LENGTH = /^(-?[\d.]+(?:e-?\d+)?)(px|%)?$/;

/** A computed length (px, or % of `reference`); undefined for calc() and keywords. */
function length(text: string | undefined, reference: number): number | undefined {
  const match = LENGTH.exec(text ?? '');
  if (!match) return undefined;
  const value = Number(match[1]);
  return match[2] === '%' ? (value / 100) * reference : value;
}

const POSITION_KEYWORDS: Record<string, string> = { left: '0%', top: '0%', center: '50%', right: '100%', bottom: '100%' };

/** `at X Y` of circle() and ellipse(), relative to the box; the centre when absent or not understood. */
function centre(args: string, box: Box): { x: number; y: number } {
  const [x, y] = (/\bat\s+(.+)$/.exec(args)?.[1] ?? '').split(/\s+/).map((part) => POSITION_KEYWORDS[part] ?? part);
  return { x: box.left + (length(x, box.width) ?? box.width / 2), y: box.top + (length(y, box.height) ?? box.height / 2) };
}

function insetArea(args: string, box: Box): Clip | undefined {
  const values = args.replace(/\s+round\s.*$/, '').trim().split(/\s+/);
  const [top, right = top, bottom = top, left = right] = values;
  const t = length(top, box.height);
  const r = length(right, box.width);
  const b = length(bottom, box.height);
  const l = length(left, box.width);
  if (t === undefined || r === undefined || b === undefined || l === undefined) return undefined;
  return { left: box.left + l, top: box.top + t, right: box.left + box.width - r, bottom: box.top + box.height - b };
}

function ellipseArea(args: string, box: Box, circle: boolean): Clip | undefined {
  const radii = args.replace(/\bat\s.*$/, '').trim().split(/\s+/).filter(Boolean);
  const diagonal = Math.hypot(box.width, box.height) / Math.SQRT2;
  const rx = length(radii[0], circle ? diagonal : box.width);
  const ry = circle ? rx : length(radii[1], box.height);
  if (rx === undefined || ry === undefined) return undefined; // closest-side and friends: not judged
  const { x, y } = centre(args, box);
  return { left: x - rx, top: y - ry, right: x + rx, bottom: y + ry };
}

function polygonArea(args: string, box: Box): Clip | undefined {
  const points = args.replace(/^\s*(?:nonzero|evenodd)\s*,/, '').split(',').map((point) => point.trim().split(/\s+/));
  const xs = points.map(([x]) => length(x, box.width));
  const ys = points.map(([, y]) => length(y, box.height));
  if (xs.some((x) => x === undefined) || ys.some((y) => y === undefined)) return undefined;
  const x = xs as number[];
  const y = ys as number[];
  return { left: box.left + Math.min(...x), top: box.top + Math.min(...y), right: box.left + Math.max(...x), bottom: box.top + Math.max(...y) };
}

/**
 * The area a computed `clip-path` leaves visible (the bounding box of its shape), or undefined when
 * it clips nothing or cannot be judged here (url(), path(), calc()).
 */
export function clipPathArea(value: string, box: Box): Clip | undefined {
  const shape = /^(inset|circle|ellipse|polygon)\((.*)\)/.exec(value.trim());
  if (!shape) return undefined;
  const [, kind, args = ''] = shape;
  if (kind === 'inset') return insetArea(args, box);
  if (kind === 'polygon') return polygonArea(args, box);
  return ellipseArea(args, box, kind === 'circle');
}

/** The area a computed `clip: rect(top, right, bottom, left)` leaves visible, or undefined for `auto`. */
export function cssClipArea(value: string, box: Box): Clip | undefined {
  const edges = /^rect\((.*)\)$/.exec(value.trim())?.[1]?.split(/\s*,\s*|\s+/);
  if (!edges || edges.length !== 4) return undefined;
  const [top, right, bottom, left] = edges.map((edge) => (edge === 'auto' ? undefined : length(edge, 0)));
  return { left: box.left + (left ?? 0), top: box.top + (top ?? 0), right: box.left + (right ?? box.width), bottom: box.top + (bottom ?? box.height) };
}

/** How much `filter: opacity(…)` lets through (1 when it has none). */
export function filterOpacity(filter: string): number {
  let through = 1;
  for (const match of filter.matchAll(/opacity\(\s*([\d.]+)(%)?\s*\)/g)) through *= Number(match[1]) / (match[2] ? 100 : 1);
  return through;
}

/** Below this, a filter's opacity shows nothing a person can make out. */
const INVISIBLE_FILTER_OPACITY = 0.05;

/**
 * The area the element's own painting clips itself and its descendants to (CSS `clip` on a
 * positioned box, `clip-path`; a filter that makes it transparent leaves none), or undefined.
 */
export function paintClip(style: CSSStyleDeclaration, box: () => DOMRect, position: string): Clip | undefined {
  // Every element of a walk comes here: each style property read crosses into the browser, so each
  // is read once, and the box is measured only when something clips.
  const filter = style.filter;
  if (filter !== 'none' && filterOpacity(filter) < INVISIBLE_FILTER_OPACITY) return { left: box().left, top: box().top, right: box().left, bottom: box().top };
  let clip: Clip | undefined;
  if (position === 'absolute' || position === 'fixed') {
    const cssClip = style.clip;
    if (cssClip !== 'auto') clip = cssClipArea(cssClip, box());
  }
  const clipPath = style.clipPath;
  const path = clipPath === 'none' ? undefined : clipPathArea(clipPath, box());
  return path ? intersect(clip, path) : clip;
}

/**
 * How much transforms and zoom shrink the element (1: not at all): its drawn box against its
 * laid-out one, so `scale(0.01)` or `zoom: 0.05` text reads as the speck it is. (The drawn text's
 * own height is no measure: many lines of specks add up to a readable height.)
 */
export function scaleOf(element: Element, rect: DOMRect): number {
  const laidOut = laidOutSize(element);
  return laidOut ? Math.sqrt((rect.width * rect.height) / (laidOut.width * laidOut.height)) : 1;
}

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/**
 * The element's size before transforms: its layout box, or for SVG its box in its own user units,
 * which a viewBox draws at any size (its font sizes are in those units too).
 */
function laidOutSize(element: Element): { width: number; height: number } | undefined {
  const size = element.namespaceURI === SVG_NAMESPACE ? svgBox(element as SVGGraphicsElement) : { width: (element as HTMLElement).offsetWidth, height: (element as HTMLElement).offsetHeight };
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

function svgBox(element: SVGGraphicsElement): DOMRect | undefined {
  try {
    return typeof element.getBBox === 'function' ? element.getBBox() : undefined;
  } catch {
    return undefined; // Firefox throws for an element it does not render
  }
}

/** Text drawn where it can be seen: inside `clip`, and not pushed out of the page (text-indent: -9999px). */
export function textShowsIn(rect: DOMRect, clip: Clip | undefined, view: Viewport | null): boolean {
  return !isPushedOffPage(rect, view) && visibleIn(rect, clip);
}

/** Whether what the element contains is drawn where it can be seen (textShowsIn), inside the clip its own overflow leaves. */
export function contentShows(element: Element, contentClip: Clip | undefined, view: Viewport | null, range = element.ownerDocument.createRange()): boolean {
  range.selectNodeContents(element);
  return textShowsIn(range.getBoundingClientRect(), contentClip, view);
}

// ---- The rule, applied to a whole subtree (reader, `get`, product facts) ------------------------

/** Tags whose content is never shown as text. */
const NEVER_SHOWN = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link']);

/** How a VisibleTree is judged, and what its caller lends it (see the constructor). */
export interface TreeOptions {
  rootShown?: boolean;
  backgrounds?: BackgroundFinder;
  view?: Viewport;
  range?: Range;
  /** The caller has judged the root where it sits: the clips it leaves its content, and whether its own text can be read. */
  judgedRoot?: JudgedRoot;
  /**
   * What shows to the eye is read even where the page hides it from assistive technology
   * (aria-hidden): an editor that draws its text for the eye and gives it to screen readers through its field.
   */
  drawnForTheEye?: boolean;
}

export interface JudgedRoot {
  contentClip: Clip | undefined;
  paint: Clip | undefined;
  /** The clippers its out-of-flow descendants may be drawn past (see ClipChains). */
  clippers?: ClipChains;
  textReadable: () => boolean;
  /** Only these of the root's children, first to last (a run of a block's inline content); default: all. */
  span?: ChildSpan;
}

/** Consecutive children of one parent, `first` to `last` inclusive. */
export interface ChildSpan {
  first: ChildNode;
  last: ChildNode;
}

export function nodesIn({ first, last }: ChildSpan): ChildNode[] {
  const nodes: ChildNode[] = [];
  for (let node: ChildNode | null = first; node; node = node === last ? null : node.nextSibling) nodes.push(node);
  return nodes;
}

/** A node to scan, with what its ancestors' clipping leaves (overflow, and paint that fixed cannot escape). */
interface ScanItem {
  element: Element;
  clip: Clip | undefined;
  paint: Clip | undefined;
  clippers: ClipChains | undefined;
}

/**
 * Which parts of a subtree a person can see, decided once for the whole subtree in one top-down
 * pass (each element's clip depends on its ancestors'): hidden elements go with everything inside
 * them; text nodes that do not show (too small, transparent, clipped or pushed away) go on their own.
 */
export class VisibleTree {
  private readonly hidden = new Set<Element>();
  /** Rendered but not painted (visibility: hidden, opacity 0; display: contents): what is inside may still show. */
  private readonly unpainted = new Set<Element>();
  private readonly mutedText = new Set<Text>();
  private readonly blocks = new Set<Element>();
  private readonly backgrounds: BackgroundFinder;
  private readonly range: Range;
  /** The caller's (the walk lends its own), else read once, at the first element the scan judges. */
  private viewport: Viewport | null | undefined;
  private readonly drawnForTheEye: boolean;

  /**
   * `rootShown`: the caller has already judged the root visible where it sits (the snapshot walk
   * naming an element it lists), so its ancestors are not judged again; only what is inside it is.
   * `judgedRoot`: the caller has judged the root itself too (the walk writing a block as one line),
   * so the scan starts from what is inside it, within the clips the root leaves.
   * `backgrounds`: a finder shared with the caller's pass, whose cache spares a walk up the tree.
   * `view`: the window's viewport, when the caller has read it already; `range`: a range the caller
   * lends for measuring text (each measurement selects, then reads at once).
   */
  constructor(readonly root: Element, { rootShown = false, backgrounds = new BackgroundFinder(), view, range, judgedRoot, drawnForTheEye = false }: TreeOptions = {}) {
    this.drawnForTheEye = drawnForTheEye;
    this.backgrounds = backgrounds;
    this.viewport = view;
    this.range = range ?? root.ownerDocument.createRange();
    if (!rootShown && this.insideMarkedHidden(root)) {
      this.hidden.add(root);
      return;
    }
    const stack: ScanItem[] = judgedRoot ? this.insideJudged(judgedRoot) : [{ element: root, ...(rootShown ? { clip: undefined, paint: undefined, clippers: undefined } : this.ancestorClips(root)) }];
    while (stack.length > 0) {
      const children = this.visit(stack.pop()!);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }

  /** The root's own text judged as the caller says; its children to scan, within the clips it leaves. */
  private insideJudged({ contentClip, paint, clippers, textReadable, span }: JudgedRoot): ScanItem[] {
    const first = span?.first ?? this.root.firstChild;
    const stop = span ? span.last.nextSibling : null;
    this.judgeText(first, stop, textReadable, contentClip);
    const children: ScanItem[] = [];
    for (let child = first; child && child !== stop; child = child.nextSibling) {
      if (child.nodeType === Node.ELEMENT_NODE) children.push({ element: child as Element, clip: contentClip, paint, clippers });
    }
    return children.reverse();
  }

  /** The element itself was found hidden (its subtree goes with it). */
  isHidden(element: Element): boolean {
    return this.hidden.has(element);
  }

  /** Painted, as checkVisibility with opacity and visibility says, for an element the scan reached. */
  isPainted(element: Element): boolean {
    return !this.unpainted.has(element);
  }

  /** The element is hidden, or lies inside something hidden (for elements outside the scanned root: unknown, so false). */
  hides(element: Element): boolean {
    for (let current: Element | null = element; current; current = current.parentElement) {
      if (this.hidden.has(current)) return true;
      if (current === this.root) return false;
    }
    return false;
  }

  /** This text node, in an element that shows, does not show itself. */
  mutes(text: Text): boolean {
    return this.mutedText.has(text);
  }

  private view(): Viewport | null {
    if (this.viewport === undefined) {
      const window = this.root.ownerDocument.defaultView;
      this.viewport = window && viewportOf(window);
    }
    return this.viewport;
  }

  /** Laid out as a block (its text starts on a line of its own). */
  isBlock(element: Element): boolean {
    return this.blocks.has(element);
  }

  /** A subtree read on its own (`get` on one element, a shadow root's content) is still hidden under an aria-hidden ancestor. */
  private insideMarkedHidden(root: Element): boolean {
    for (let current = flatParent(root); current; current = flatParent(current)) if (isMarkedHidden(current)) return true;
    return false;
  }

  /** The clips the root's own ancestors impose: a subtree is judged where it sits in the page. */
  private ancestorClips(root: Element): Omit<ScanItem, 'element'> {
    const chain: Element[] = [];
    // Up the tree the page is drawn from: a shadow root's content sits in its host, slotted content in its slot.
    for (let current = flatParent(root); current; current = flatParent(current)) chain.unshift(current);
    let clip: Clip | undefined;
    let paint: Clip | undefined;
    let clippers: ClipChains | undefined;
    for (const ancestor of chain) {
      const style = getComputedStyle(ancestor);
      const rect = boxOf(ancestor);
      const position = style.position;
      ({ clip, paint } = this.clipsOf(ancestor, style, rect, { clip, paint, clippers }, position));
      const content = clipFor(overflowOf(style), rect, clip, ancestor);
      clippers = clippersBelow(ancestor, position, clip, content, clippers);
      clip = content;
    }
    return { clip, paint, clippers };
  }

  private clipsOf(element: Element, style: CSSStyleDeclaration, rect: () => DOMRect, inherited: Omit<ScanItem, 'element'>, position: string): { clip: Clip | undefined; paint: Clip | undefined } {
    const own = paintClip(style, rect, position);
    const nextPaint = own ? intersect(inherited.paint, own) : inherited.paint;
    const overflow = overflowClipOf(element, position, inherited.clip, inherited.clippers, this.view());
    return { clip: nextPaint ? intersect(overflow, nextPaint) : overflow, paint: nextPaint };
  }

  private hide(element: Element): ScanItem[] {
    this.hidden.add(element);
    return [];
  }

  /**
   * Judges one element. Boxes are measured only where a rule needs them (positioned, clipping or
   * clipped elements, and elements with text of their own): on a page nested thousands deep each
   * measurement costs a walk up the tree.
   */
  private visit(item: ScanItem): ScanItem[] {
    const { element, clip: inherited, paint: inheritedPaint, clippers: inheritedClippers } = item;
    if (NEVER_SHOWN.has(element.localName) || (isMarkedHidden(element) && !this.drawnForTheEye)) return this.hide(element);
    const children: Element[] = [];
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) children.push(child);
    const painted = element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    if (!painted) this.unpainted.add(element);
    if (!painted && !element.checkVisibility()) {
      // display: contents (framework wrappers) has no box of its own, but its children do.
      if (getComputedStyle(element).display !== 'contents') return this.hide(element);
      this.judgeText(element.firstChild, null, () => true, inherited);
      return children.map((child) => ({ element: child, clip: inherited, paint: inheritedPaint, clippers: inheritedClippers }));
    }
    const style = getComputedStyle(element);
    const rect = boxOf(element);
    const position = style.position;
    if (position !== 'static' && isPushedOffPage(rect(), this.view())) return this.hide(element);
    const { clip, paint } = this.clipsOf(element, style, rect, item, position);
    const content = clipFor(overflowOf(style), rect, clip, element);
    const clippers = clippersBelow(element, position, clip, content, inheritedClippers);
    // Nothing inside can show, unless an absolutely positioned descendant is drawn past a static box's clip.
    if (isEmptyClip(content) && !clippers?.sincePositioned) return this.hide(element);
    if (!style.display.startsWith('inline')) this.blocks.add(element);
    this.judgeText(element.firstChild, null, () => painted && !hasInvisibleInk(style, this.backgrounds.of(element, style), scaleOf(element, rect())), content);
    return children.map((child) => ({ element: child, clip: content, paint, clippers }));
  }

  /** Mutes the text nodes from `first` up to `stop` (an element's own) that cannot be read, or that lie outside what the clips leave. */
  private judgeText(first: ChildNode | null, stop: ChildNode | null, readable: () => boolean, clip: Clip | undefined): void {
    let legible: boolean | undefined;
    for (let node = first; node && node !== stop; node = node.nextSibling) {
      if (node.nodeType !== Node.TEXT_NODE || !/\S/.test((node as Text).data)) continue;
      legible ??= readable();
      if (!legible || !this.textShows(node as Text, clip)) this.mutedText.add(node as Text);
    }
  }

  private textShows(text: Text, clip: Clip | undefined): boolean {
    if (isEmptyClip(clip)) return false;
    this.range.selectNodeContents(text);
    return textShowsIn(this.range.getBoundingClientRect(), clip, this.view());
  }
}

/** Whitespace as a reader sees it: runs collapse, lines keep. */
function tidy(text: string): string {
  return text.replace(/[ \t\f\r]+/g, ' ').replace(/ *\n */g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * Whose judgement a node is read by: the tree that scanned it, and, inside a shadow root, the
 * scope of its host, whose own nodes fill the root's slots.
 */
interface Scope {
  tree: VisibleTree;
  outer?: Scope;
}

/**
 * The text of a subtree a person can see, with a line break around blocks (innerText, minus
 * everything hidden); `within`: only the part of it a range (a selection) holds.
 * `throughShadows`: as the page is drawn, each shadow root's content in its host, the host's own
 * nodes in the slots they fill (a selection's range does not reach into shadow roots).
 */
export function visibleText(tree: VisibleTree, root: Node = tree.root, within?: Range, throughShadows = false): string {
  let out = '';
  // Two stacks side by side, each node with the scope that judges it: the snapshot names elements
  // with this walk, and a pushed pair would cost an object per node.
  const nodes: Array<Node | 'end of block'> = [root];
  const scopes: Scope[] = [{ tree }];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const scope = scopes.pop()!;
    if (node === 'end of block') out += '\n';
    else if (within && !within.intersectsNode(node)) continue;
    else if (node.nodeType === Node.TEXT_NODE) {
      if (!scope.tree.mutes(node as Text)) out += partWithin(node as Text, within).replace(/\s+/g, ' ');
    } else if (node.nodeType === Node.ELEMENT_NODE && !scope.tree.isHidden(node as Element)) {
      const element = node as Element;
      if (element.localName === 'br') out += '\n';
      if (scope.tree.isBlock(element)) {
        out += '\n';
        nodes.push('end of block');
        scopes.push(scope);
      }
      const drawn = throughShadows ? drawnChildren(element, scope) : undefined;
      if (!drawn) {
        for (let child = element.lastChild; child; child = child.previousSibling) {
          nodes.push(child);
          scopes.push(scope);
        }
      } else {
        for (let i = drawn.nodes.length - 1; i >= 0; i--) {
          nodes.push(drawn.nodes[i]!);
          scopes.push(drawn.scopeOf(drawn.nodes[i]!));
        }
      }
    }
  }
  return tidy(out);
}

/**
 * What the browser draws inside an element, when it is not the element's own children: its
 * shadow root's elements (each judged where it sits; text at the root's top level has no element
 * to judge it by, and is left out), or the host's nodes a slot is given (judged by the host's scope).
 */
function drawnChildren(element: Element, scope: Scope): { nodes: ArrayLike<Node>; scopeOf: (node: Node) => Scope } | undefined {
  const shadow = shadowRootOf(element);
  if (shadow) return { nodes: shadow.children, scopeOf: (child) => ({ tree: new VisibleTree(child as Element), outer: scope }) };
  const assigned = element.localName === 'slot' ? (element as HTMLSlotElement).assignedNodes() : [];
  if (assigned.length === 0) return undefined;
  // A subtree read from inside a shadow root: its host's nodes have not been judged yet.
  const outer = scope.outer ?? { tree: new VisibleTree((element.getRootNode() as ShadowRoot).host) };
  return { nodes: assigned, scopeOf: () => outer };
}

function partWithin(text: Text, range: Range | undefined): string {
  if (!range) return text.data;
  const start = text === range.startContainer ? range.startOffset : 0;
  const end = text === range.endContainer ? range.endOffset : text.data.length;
  return text.data.slice(start, end);
}

/** A text node's text as it is laid out: kept where its box keeps spaces and line breaks (`white-space: pre`, a code editor's lines), else collapsed. */
function laidOut(text: Text): { text: string; kept: boolean } {
  const space = text.parentElement ? getComputedStyle(text.parentElement).whiteSpace : 'normal';
  if (space === 'pre' || space === 'pre-wrap' || space === 'break-spaces') return { text: text.data, kept: true };
  return { text: text.data.replace(space === 'pre-line' ? /[ \t]+/g : COLLAPSIBLE, ' '), kept: false };
}

/**
 * The white space CSS collapses: not a no-break space, which editors that keep no `white-space:
 * pre` draw their indentation with (Monaco), and which JavaScript's `\s` and `trim()` take too.
 */
const COLLAPSIBLE = /[ \t\n\r\f]+/g;
const collapsedEnds = (text: string) => text.replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, '');

/**
 * An empty block among lines that look alike (same tag and class) with text: an empty line of an
 * editor that draws one box per line, or one box per line around it (CodeMirror 5 with line numbers).
 */
function isEmptyLine(block: Element): boolean {
  const amongLines = (box: Element) => {
    const alike = (sibling: Element | null) => sibling?.localName === box.localName && sibling.className === box.className && /\S/.test(sibling.textContent ?? '');
    return alike(box.previousElementSibling) || alike(box.nextElementSibling);
  };
  return amongLines(block) || (block.parentElement !== null && amongLines(block.parentElement));
}

/**
 * The text of a code editor's box line by line, as a person reads it there: each innermost block
 * a line (an empty one too), the spaces the editor keeps kept (indentation), what does not show
 * left out, and so are `leftOut` (a gutter of line numbers). The text to edit it with, where
 * visibleText gives words to read.
 */
export function visibleLines(tree: VisibleTree, root: Element, leftOut: readonly Element[] = []): string {
  const lines: string[] = [];
  let line: { text: string; kept: boolean } | undefined;
  const endLine = () => {
    if (line) lines.push(line.kept ? line.text : collapsedEnds(line.text.replace(/ {2,}/g, ' ')));
    line = undefined;
  };
  const visit = (node: Node): boolean => {
    if (node.nodeType === Node.TEXT_NODE) {
      if (tree.mutes(node as Text)) return false;
      const shown = laidOut(node as Text);
      // Whitespace between a markup's blocks starts no line.
      if (line || shown.kept || collapsedEnds(shown.text)) line = { text: (line?.text ?? '') + shown.text, kept: (line?.kept ?? false) || shown.kept };
      return false;
    }
    if (node.nodeType !== Node.ELEMENT_NODE || tree.isHidden(node as Element) || leftOut.includes(node as Element)) return false;
    const element = node as Element;
    if (element.localName === 'br') {
      lines.push(line?.text ?? '');
      line = undefined;
      return false;
    }
    const block = tree.isBlock(element);
    if (block) endLine();
    const linesBefore = lines.length;
    let holdsBlock = false;
    for (let child = element.firstChild; child; child = child.nextSibling) if (visit(child)) holdsBlock = true;
    // A block of no-break spaces alone is no line of text (CodeMirror 5's cursor), at most an empty one.
    if (block && line && !line.kept && !/\S/.test(line.text)) line = undefined;
    if (block && !line && !holdsBlock && lines.length === linesBefore && isEmptyLine(element)) line = { text: '', kept: true };
    if (block) endLine();
    return block || holdsBlock;
  };
  visit(root);
  endLine();
  return lines.join('\n').replace(/\u00a0/g, ' ').replace(INVISIBLE, '');
}

/**
 * Removes from `copy`, a deep clone of the scanned `live` subtree made since the scan, everything
 * that does not show, and comments. The two trees have the same shape, so they are walked side by side.
 */
export function pruneCopy(tree: VisibleTree, live: Element, copy: Element): void {
  const doomed: ChildNode[] = [];
  const stack: Array<[Node, Node]> = [[live, copy]];
  while (stack.length > 0) {
    const [original, clone] = stack.pop()!;
    const hidden =
      original.nodeType === Node.COMMENT_NODE ||
      (original.nodeType === Node.TEXT_NODE && tree.mutes(original as Text)) ||
      (original.nodeType === Node.ELEMENT_NODE && tree.isHidden(original as Element));
    if (hidden) {
      doomed.push(clone as ChildNode);
      continue;
    }
    const originals = original.childNodes;
    const clones = clone.childNodes;
    for (let i = 0; i < originals.length && i < clones.length; i++) stack.push([originals[i]!, clones[i]!]);
  }
  for (const node of doomed) node.remove();
}
