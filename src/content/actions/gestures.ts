/**
 * What a person's hand does, as events: getting an element ready to be clicked (in view, still,
 * not covered), the pointer sequence of a click, and key presses. Shared by every action.
 */
import { JawadError } from '../../protocol/errors';
import { clickPoint } from '../click-point';
import { coverOf, isStyledChoice, takesClicksUnseen } from '../snapshot/walk';
import { CoveredError } from './cover';

const STABLE_FRAMES = 2;
const STABLE_TIMEOUT_MS = 1_000;
/** A control this small (the 1px "screen-reader only" pattern) is not where anyone clicks. */
const TOO_SMALL_PX = 2;

export const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Lets the page's framework catch up: React and Vue apply state changes in a microtask after the
 * event, which runs only once this script yields.
 */
export const afterFrameworks = () => pause(0);

/** A hidden tab draws no frames: past this, a frame is not waited for. */
const FRAME_WAIT_MS = 100;

/**
 * Lets an editor that draws its text itself on the next frame (Ace) draw what it was told. Callbacks
 * run in the order they were asked for, so this one runs after the page's own.
 */
export const afterNextFrame = () => Promise.race([new Promise<void>((done) => requestAnimationFrame(() => done())), pause(FRAME_WAIT_MS)]);

/** Polls until found returns something, or the time is up (then undefined). */
export async function waitFor<T>(found: () => T | null | undefined, timeoutMs: number): Promise<T | undefined> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = found();
    if (value) return value;
    if (performance.now() > deadline) return undefined;
    await pause(16);
  }
}

/** Waits until the element's box is the same for two checks in a row (animations, layout shifts). */
async function settle(element: Element): Promise<DOMRect> {
  const deadline = performance.now() + STABLE_TIMEOUT_MS;
  let previous = element.getBoundingClientRect();
  let stable = 0;
  while (stable < STABLE_FRAMES && performance.now() < deadline) {
    await pause(16);
    const rect = element.getBoundingClientRect();
    stable = rect.x === previous.x && rect.y === previous.y && rect.width === previous.width && rect.height === previous.height ? stable + 1 : 0;
    previous = rect;
  }
  return previous;
}

/** The element that really receives the click: a checkbox hidden behind its styled label is clicked through the label. */
function clickTarget(element: Element): Element {
  if (!isStyledChoice(element)) return element;
  const box = element.getBoundingClientRect();
  const hidden = !element.checkVisibility({ opacityProperty: true }) || box.width <= TOO_SMALL_PX || box.height <= TOO_SMALL_PX;
  return hidden ? ((element as HTMLInputElement).labels?.[0] ?? element) : element;
}

/** The element is in view and the hit test where it is clicked lands on it (or inside it). */
function receivesClickNow(element: Element): boolean {
  const { x, y } = clickPoint(element);
  if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return false;
  const hit = (element.getRootNode() as Document | ShadowRoot).elementFromPoint(x, y);
  return hit !== null && element.contains(hit);
}

/**
 * Scrolls as little as shows the element first: a scroller already showing it (a virtualised list)
 * is left alone, where centring would scroll it and make the list re-render the element away. Only
 * if that leaves the click to something else (a sticky header over the edge) is it centred.
 */
function scrollToClick(target: Element): void {
  target.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
  if (!receivesClickNow(target)) target.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}

/** Scrolls the element into view, waits for it to hold still, and refuses if something else would take the click. */
export async function prepare(element: Element, label: string): Promise<Element> {
  if (!element.isConnected) throw new JawadError('STALE_REF', `${label} is no longer on the page. Take a new snapshot.`);
  const target = clickTarget(element);
  if (!target.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && !takesClicksUnseen(target)) {
    throw new JawadError('NOT_VISIBLE', `${label} is not visible, so a person could not click it.`);
  }
  // A click that would land on it now goes to it now: the events are sent to the element itself, so
  // it moving a moment later cannot make them land elsewhere, and scrolling anyway could make a
  // virtualised list re-render it away. Otherwise scroll to it and let it come to rest (lazy loading,
  // layout shifts, a panel sliding out from under a banner) before judging what would take the click.
  const hitNow = receivesClickNow(target);
  if (!hitNow) scrollToClick(target);
  const rect = hitNow ? target.getBoundingClientRect() : await settle(target);
  // Pages remove elements as they scroll into view (lazy lists, re-renders): never click what took the place.
  if (!target.isConnected) throw new JawadError('STALE_REF', `${label} was removed from the page as it was scrolled to. Take a new snapshot.`);
  const cover = coverOf(target, rect, window);
  if (cover) throw new CoveredError(label, cover);
  return target;
}

/** Where a mouse click on the element lands (click-point.ts), in the coordinates its events carry. */
export function mouseInit(target: Element, clickCount = 1): MouseEventInit {
  const { x, y } = clickPoint(target);
  return { bubbles: true, cancelable: true, composed: true, view: window, clientX: x, clientY: y, detail: clickCount };
}

/**
 * A mouse click as the page sees it, where a person clicks the element (click-point.ts). Focus moves only when the page lets
 * mousedown through: listboxes cancel it to keep focus in their combobox, as they do for a person.
 * The click carries the pointer's place and the click count as a person's does: `element.click()`
 * carries neither, which is how pages tell a link followed by the Enter key (Roundcube opens the
 * whole message then, not its preview). `clickCount`: 2 for a double click's second. Returns false
 * when the page cancelled the click (its script took over what the element does).
 */
export function pointerSequence(target: Element, clickCount = 1): boolean {
  const init = mouseInit(target, clickCount);
  const pointer = { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true };
  target.dispatchEvent(new PointerEvent('pointerover', pointer));
  target.dispatchEvent(new MouseEvent('mouseover', init));
  const pointerAccepted = target.dispatchEvent(new PointerEvent('pointerdown', { ...pointer, buttons: 1 }));
  const mouseAccepted = pointerAccepted && target.dispatchEvent(new MouseEvent('mousedown', { ...init, buttons: 1 }));
  // Removed as it was pressed: a person's click would not reach it either, so it is not clicked.
  if (!target.isConnected) throw new JawadError('STALE_REF', 'The element was removed from the page as it was pressed, so it was not clicked. Take a new snapshot.');
  if (mouseAccepted) (target as HTMLElement).focus?.({ preventScroll: true });
  target.dispatchEvent(new PointerEvent('pointerup', pointer));
  if (pointerAccepted) target.dispatchEvent(new MouseEvent('mouseup', init));
  // Dispatched, a click still does what the element does on a click: follows a link, ticks a box, sends a form.
  return target.dispatchEvent(new MouseEvent('click', init));
}

export interface Modifiers {
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

export const NO_MODIFIERS: Modifiers = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };

/** The legacy key codes of named keys: code written before `key` existed (CodeMirror 5, Ace, jQuery plugins) reads only these. */
const KEY_CODES: Record<string, number> = {
  Backspace: 8, Tab: 9, Enter: 13, Escape: 27, ' ': 32, PageUp: 33, PageDown: 34, End: 35, Home: 36,
  ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, Delete: 46,
};

/** `keyCode` of a key event: the named key's, a letter's capital or a digit's character code, else 0. */
function legacyKeyCode(key: string): number {
  if (KEY_CODES[key] !== undefined) return KEY_CODES[key];
  return /^[a-z0-9]$/i.test(key) ? key.toUpperCase().charCodeAt(0) : 0;
}

export function keyboardEvent(type: string, key: string, modifiers: Modifiers = NO_MODIFIERS): KeyboardEvent {
  const code = key.length === 1 ? (/[a-z]/i.test(key) ? `Key${key.toUpperCase()}` : /\d/.test(key) ? `Digit${key}` : key === ' ' ? 'Space' : '') : key;
  // keypress carries the character; keydown and keyup the key (the UI Events legacy fields, in both browsers).
  const charCode = type === 'keypress' ? (key === 'Enter' ? 13 : [...key].length === 1 ? key.codePointAt(0)! : 0) : 0;
  const keyCode = type === 'keypress' ? charCode : legacyKeyCode(key);
  return new KeyboardEvent(type, { key, code, keyCode, charCode, which: keyCode, bubbles: true, cancelable: true, composed: true, ...modifiers });
}

/** keydown then keyup; true when the page let the key through (did not cancel keydown). */
export function tapKey(target: Element, key: string, modifiers: Modifiers = NO_MODIFIERS): boolean {
  const accepted = target.dispatchEvent(keyboardEvent('keydown', key, modifiers));
  target.dispatchEvent(keyboardEvent('keyup', key, modifiers));
  return accepted;
}
