/**
 * When something covers the element an action is for (a cookie banner, a newsletter dialog, a
 * modal's backdrop), the refusal names the buttons a person would use to get past it, each with a
 * ref, so the model can close it in its next step instead of taking a new snapshot to find them.
 */
import { JawadError } from '../../protocol/errors';
import { accessibleName } from '../snapshot/name';
import { clip, quote } from '../snapshot/page-text';
import type { RefRegistry } from '../snapshot/refs';
import { roleOf } from '../snapshot/roles';
import { destinationOf, iconOf } from '../snapshot/states';
import { describeBriefly, describeCover } from '../snapshot/walk';
import { shadowRootOf } from '../shadow-root';

const DIALOG = '[role=dialog],[role=alertdialog],dialog,[aria-modal=true]';
/** More than this many buttons are counted, not listed: a consent dialog's toggles are not ways out. */
const LISTED_BUTTONS = 6;

/** Something painted over an element would take a click meant for it. Keeps what covers it for `namingWaysPast`. */
export class CoveredError extends JawadError {
  readonly description: string;

  constructor(
    readonly label: string,
    readonly cover: Element,
  ) {
    const description = describeCover(cover);
    super('COVERED', `${label} is covered by ${description}, which would get the click instead.`, { coveredBy: description });
    this.description = description;
  }
}

function isShownNow(element: Element): boolean {
  if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
  const box = element.getBoundingClientRect();
  return box.width > 1 && box.height > 1;
}

/**
 * The box a person sees as the thing in the way: the dialog it belongs to, or else the outermost
 * box pinned over the page (`position: fixed` or `sticky`, as banners are), or else itself.
 */
function overlayOf(hit: Element): Element {
  const dialog = hit.closest(DIALOG);
  if (dialog) return dialog;
  let overlay = hit;
  for (let box: Element | null = hit; box && box !== document.body && box !== document.documentElement; box = box.parentElement) {
    const { position } = getComputedStyle(box);
    if (position === 'fixed' || position === 'sticky') overlay = box;
  }
  return overlay;
}

/** A button, or a link that stays on the page (`#`, `javascript:`): what closes, accepts or dismisses. */
function isWayPast(element: Element): boolean {
  const role = roleOf(element);
  if (role === 'button') return true;
  if (role !== 'link') return false;
  const destination = destinationOf(element);
  return destination === undefined || destination.startsWith('#');
}

const CANDIDATES = 'button,input,a,[role=button],[role=link]';

/** The ways past in a box, shadow roots included: consent managers draw their banners in one. */
function waysIn(box: Element): Element[] {
  const ways: Element[] = [];
  const roots: Array<Element | ShadowRoot> = [box];
  for (const root of roots) {
    for (const element of Array.from(root.querySelectorAll(CANDIDATES))) if (isWayPast(element) && isShownNow(element)) ways.push(element);
    for (const host of [root, ...Array.from(root.querySelectorAll('*'))]) {
      const shadow = host.nodeType === Node.ELEMENT_NODE ? shadowRootOf(host as Element) : null;
      if (shadow) roots.push(shadow);
    }
  }
  return ways;
}

/** An open dialog on the page, the last one (on top) first: what a backdrop with no buttons of its own belongs to. */
function openDialog(root: Document | ShadowRoot): Element | undefined {
  return Array.from(root.querySelectorAll(DIALOG)).reverse().find(isShownNow);
}

/** `button "Accept all" [ref=e31]`, as the snapshot writes a ref line. */
function wayLine(element: Element, refs: RefRegistry): string {
  const role = roleOf(element) === 'link' ? 'link' : 'button';
  const name = accessibleName(element, role);
  const icon = name ? undefined : iconOf(element);
  return `${role}${name ? ` ${quote(clip(name, 40))}` : ''} [ref=${refs.refFor(element)}]${icon ? ` icon="${icon}"` : ''}`;
}

/** The refusal with the buttons of what is in the way, each with a ref; as it was when there are none. */
export function namingWaysPast(error: CoveredError, refs: RefRegistry): JawadError {
  let overlay = overlayOf(error.cover);
  let ways = waysIn(overlay);
  if (ways.length === 0) {
    // A modal's backdrop: the buttons are in the dialog it lies behind.
    const dialog = openDialog(error.cover.getRootNode() as Document | ShadowRoot);
    if (!dialog) return error;
    overlay = dialog;
    ways = waysIn(dialog);
    if (ways.length === 0) return error;
  }
  const described = describeBriefly(overlay);
  const whose = described === error.description ? 'Its buttons' : `Buttons of ${described}`;
  const listed = ways.slice(0, LISTED_BUTTONS).map((way) => wayLine(way, refs));
  const more = ways.length > LISTED_BUTTONS ? ` and ${ways.length - LISTED_BUTTONS} more` : '';
  return new JawadError(
    'COVERED',
    `${error.message} ${whose}: ${listed.join(', ')}${more}. Close it with one of them (or press Escape), then try again.`,
    { coveredBy: error.description, ways: listed },
  );
}
