/**
 * Outlines refs on the page with their labels (e12), so a person can see what the model is talking
 * about (seed 001's highlights). The outlines live in a closed shadow root under one host element:
 * page scripts cannot reach into it and page CSS cannot restyle it (the host's own styles are inline
 * and !important, which beats any stylesheet). Nothing in it takes a click (pointer-events: none),
 * it follows scrolling and resizing, and it goes away — host, listeners and all — on clear, on the
 * next snapshot or action, and when the page navigates.
 */
import type { RefRegistry } from './snapshot/refs';

/** What one frame drew: the refs outlined, and those it could not find (gone, or never listed). */
export interface HighlightReport {
  highlighted: string[];
  missing: string[];
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const HIGHLIGHT_COLOR = 'rgb(230, 0, 126)';
/** Outlines sit this far outside the element, so they never hide its edges or content. */
const OUTLINE_PX = 2;
const LABEL_HEIGHT = 14;
/** The message that asks every frame of the tab to drop its outlines (an action in one frame ends them all). */
const CLEAR_MESSAGE = '__jawadClearHighlights';

interface Outline {
  element: Element;
  box: HTMLElement;
  label: HTMLElement;
  /** Measured once: the label's text never changes. */
  labelWidth: number;
}

interface Overlay {
  host: HTMLElement;
  outlines: Outline[];
  /** The animation frame that will move the outlines, when one is scheduled. */
  pendingFrame: number | undefined;
  detach: () => void;
}

let overlay: Overlay | undefined;

function styled<T extends HTMLElement>(element: T, styles: Record<string, string>, important = false): T {
  // Through the CSSOM: a page's CSP may forbid <style> elements and style attributes in markup, not this.
  for (const [name, value] of Object.entries(styles)) element.style.setProperty(name, value, important ? 'important' : '');
  return element;
}

/** Where a label goes: just above the outline's top-left corner, or inside it when the window's top edge is in the way; never off the side. */
export function labelPosition(outline: Box, labelWidth: number, viewport: { width: number; height: number }): { left: number; top: number } {
  const above = outline.top - LABEL_HEIGHT;
  const top = above >= 0 ? above : Math.max(outline.top, 0);
  const left = Math.min(Math.max(outline.left, 0), Math.max(viewport.width - labelWidth, 0));
  return { left, top };
}

/** Some of the outline is in the window (outlines of elements scrolled away are not drawn, nor their labels). */
export function inView(outline: Box, viewport: { width: number; height: number }): boolean {
  return outline.left < viewport.width && outline.top < viewport.height && outline.left + outline.width > 0 && outline.top + outline.height > 0;
}

/** The outline's box around an element's rect (OUTLINE_PX outside it), or null when nothing of it renders. */
export function outlineBox(rect: Box): Box | null {
  if (rect.width <= 0 && rect.height <= 0) return null;
  return { left: rect.left - OUTLINE_PX, top: rect.top - OUTLINE_PX, width: rect.width + 2 * OUTLINE_PX, height: rect.height + 2 * OUTLINE_PX };
}

function draw(outline: Outline, box: Box | null, viewport: { width: number; height: number }): void {
  const display = box && inView(box, viewport) ? 'block' : 'none';
  styled(outline.box, { display });
  styled(outline.label, { display });
  if (!box || display === 'none') return;
  styled(outline.box, { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px` });
  const label = labelPosition(box, outline.labelWidth, viewport);
  styled(outline.label, { left: `${label.left}px`, top: `${label.top}px` });
}

/** All reads, then all writes: interleaving them would lay the page out once per outline. */
function placeAll(current: Overlay): void {
  current.pendingFrame = undefined;
  const viewport = { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight };
  const boxes = current.outlines.map((outline) => (outline.element.isConnected ? outlineBox(outline.element.getBoundingClientRect()) : null));
  current.outlines.forEach((outline, i) => draw(outline, boxes[i] ?? null, viewport));
}

function makeHost(): { host: HTMLElement; root: ShadowRoot } {
  const host = styled(document.createElement('div'), {
    all: 'initial', display: 'block', position: 'fixed', inset: '0', 'z-index': '2147483647', 'pointer-events': 'none',
    overflow: 'hidden', visibility: 'visible', opacity: '1', transform: 'none', filter: 'none', 'clip-path': 'none', contain: 'strict',
  }, true);
  return { host, root: host.attachShadow({ mode: 'closed' }) };
}

function makeOutline(root: ShadowRoot, element: Element, ref: string): Outline {
  const box = styled(document.createElement('div'), {
    position: 'absolute', 'box-sizing': 'border-box', border: `${OUTLINE_PX}px solid ${HIGHLIGHT_COLOR}`,
    background: 'rgba(230, 0, 126, 0.06)', 'pointer-events': 'none',
  });
  const label = styled(document.createElement('div'), {
    position: 'absolute', 'box-sizing': 'border-box', height: `${LABEL_HEIGHT}px`, padding: '0 3px', background: HIGHLIGHT_COLOR, color: '#fff',
    font: `600 11px/${LABEL_HEIGHT}px system-ui, sans-serif`, 'white-space': 'nowrap', 'border-radius': '2px', 'pointer-events': 'none',
  });
  label.textContent = ref;
  root.append(box, label);
  return { element, box, label, labelWidth: 0 };
}

/** Keeps the outlines on their elements while the page scrolls (any scroller) or resizes, and clears them when the page navigates. */
function follow(current: Overlay): () => void {
  const schedule = () => {
    current.pendingFrame ??= requestAnimationFrame(() => placeAll(current));
  };
  const leave = () => clearHighlights();
  const onMessage = (event: MessageEvent) => {
    if ((event.data as Record<string, unknown> | null)?.[CLEAR_MESSAGE] === true) clearHighlights();
  };
  const navigation = (globalThis as { navigation?: EventTarget }).navigation;
  addEventListener('scroll', schedule, { capture: true, passive: true });
  addEventListener('resize', schedule, { passive: true });
  addEventListener('pagehide', leave);
  addEventListener('hashchange', leave);
  addEventListener('popstate', leave);
  addEventListener('message', onMessage);
  navigation?.addEventListener('navigate', leave);
  return () => {
    removeEventListener('scroll', schedule, { capture: true });
    removeEventListener('resize', schedule);
    removeEventListener('pagehide', leave);
    removeEventListener('hashchange', leave);
    removeEventListener('popstate', leave);
    removeEventListener('message', onMessage);
    navigation?.removeEventListener('navigate', leave);
    if (current.pendingFrame !== undefined) cancelAnimationFrame(current.pendingFrame);
  };
}

/** Removes this frame's outlines and everything that kept them up to date. */
export function clearHighlights(): void {
  const current = overlay;
  overlay = undefined;
  current?.detach();
  current?.host.remove();
}

/** Every window of the tab, from the top: cross-origin windows still expose their frames and postMessage. */
function windowsOfTab(): Window[] {
  const found: Window[] = [];
  const pending: Window[] = [top ?? window];
  while (pending.length > 0) {
    const current = pending.pop()!;
    found.push(current);
    try {
      for (let i = 0; i < current.length; i++) pending.push(current[i] as Window);
    } catch {
      // A window the browser will not let this world look into: its frames keep their outlines until their next snapshot.
    }
  }
  return found;
}

/** Clears the outlines in every frame of the tab: an action in one frame makes them all out of date. */
export function clearHighlightsEverywhere(): void {
  clearHighlights();
  for (const target of windowsOfTab()) if (target !== window) target.postMessage({ [CLEAR_MESSAGE]: true }, '*');
}

/** Outlines the given refs, or all refs of the last snapshot when none are given, replacing any earlier outlines. */
function highlightRefs(refs: readonly string[], registry: RefRegistry): HighlightReport {
  clearHighlights();
  const wanted = refs.length > 0 ? refs : registry.lastListed();
  const found: Array<{ ref: string; element: Element }> = [];
  const missing: string[] = [];
  for (const ref of wanted) {
    try {
      found.push({ ref, element: registry.resolve(ref) });
    } catch {
      missing.push(ref);
    }
  }
  if (found.length === 0) return { highlighted: [], missing };
  const { host, root } = makeHost();
  const current: Overlay = { host, outlines: found.map(({ ref, element }) => makeOutline(root, element, ref)), pendingFrame: undefined, detach: () => undefined };
  document.documentElement.append(host);
  for (const outline of current.outlines) outline.labelWidth = outline.label.offsetWidth;
  current.detach = follow(current);
  overlay = current;
  placeAll(current);
  return { highlighted: found.map((item) => item.ref), missing };
}

/** HIGHLIGHT in this frame: outline refs (replacing earlier outlines), or remove the outlines. */
export function answerHighlight(request: { refs: readonly string[]; clear: boolean }, registry: RefRegistry): HighlightReport {
  if (!request.clear) return highlightRefs(request.refs, registry);
  clearHighlights();
  return { highlighted: [], missing: [] };
}
