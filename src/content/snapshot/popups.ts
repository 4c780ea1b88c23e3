/**
 * Popups that live away from their widget. Widget toolkits (OOUI, MUI, Radix …) append a dropdown's
 * listbox or a menu to an overlay at the end of <body>, a portal; in document order its options
 * would come last, far from the combobox that opened them. The ARIA links say who owns what:
 * `aria-owns`, `aria-controls` pointing at a popup, `aria-activedescendant` inside one.
 */
const POPUP_ROLES = new Set(['listbox', 'menu', 'tree', 'grid', 'dialog']);
const POPUP_SELECTOR = '[role=listbox],[role=menu],[role=tree],[role=grid],[role=dialog],dialog';
const MENU_SELECTOR = '[role=listbox],[role=menu],[role=tree],[role=grid]';
const LINKS = '[aria-owns],[aria-controls],[aria-activedescendant]';

function isPopup(element: Element): boolean {
  return POPUP_ROLES.has(element.getAttribute('role') ?? '') || element.localName === 'dialog';
}

/** An owner of popups: a combobox, or anything that says it opens one. */
function opensPopups(owner: Element): boolean {
  const hasPopup = owner.getAttribute('aria-haspopup');
  return owner.getAttribute('role') === 'combobox' || (hasPopup !== null && hasPopup !== 'false');
}

function byId(owner: Element, id: string): Element | null {
  const root = owner.getRootNode() as Document | ShadowRoot;
  return root.getElementById?.(id) ?? owner.ownerDocument.getElementById(id);
}

/** The popups `owner` names that are not inside it (those already come right after it). */
function ownedPopups(owner: Element): Element[] {
  const found: Element[] = [];
  const ids = (name: string) => (owner.getAttribute(name) ?? '').split(/\s+/).filter(Boolean);
  for (const id of ids('aria-owns')) {
    const target = byId(owner, id);
    if (target) found.push(target);
  }
  for (const id of ids('aria-controls')) {
    const target = byId(owner, id);
    // A tab controls its panel, a toggle its section: those stay where the page put them.
    if (target && (isPopup(target) || opensPopups(owner))) found.push(target);
  }
  const active = owner.getAttribute('aria-activedescendant');
  const popup = active ? byId(owner, active)?.closest(POPUP_SELECTOR) : null;
  if (popup) found.push(popup);
  return found.filter((target) => !owner.contains(target) && !target.contains(owner));
}

/** Popup → the element that owns it, for every owned popup outside its owner (light DOM and same root). */
export function popupOwners(doc: Document, lastClicked?: Element): Map<Element, Element> {
  const owners = new Map<Element, Element>();
  for (const owner of Array.from(doc.querySelectorAll(LINKS))) {
    for (const popup of ownedPopups(owner)) if (!owners.has(popup)) owners.set(popup, owner);
  }
  const appeared = lastClicked && !Array.from(owners.values()).includes(lastClicked) ? popupThatAppeared(doc, lastClicked, owners) : undefined;
  if (appeared && lastClicked) owners.set(appeared, lastClicked);
  return owners;
}

/**
 * A popup no attribute links to anything, shown after a click on a control that says it opens one
 * (`aria-haspopup`, or now `aria-expanded=true`): the last such popup on the page, laid over it.
 */
function popupThatAppeared(doc: Document, clicked: Element, owners: Map<Element, Element>): Element | undefined {
  if (!opensPopups(clicked) && clicked.getAttribute('aria-expanded') !== 'true') return undefined;
  // Not dialogs: a cookie banner laid over the page is no popup of whatever was clicked last.
  const popups = Array.from(doc.querySelectorAll(MENU_SELECTOR)).filter(
    (popup) => !owners.has(popup) && !popup.contains(clicked) && !clicked.contains(popup) && popup.checkVisibility() && isLaidOver(popup),
  );
  return popups.at(-1);
}

const LAYER_LEVELS = 3;

/** Out of the flow of the page (itself or a close ancestor positioned absolutely or fixed): a layer on top. */
function isLaidOver(popup: Element): boolean {
  let current: Element | null = popup;
  for (let level = 0; current && level <= LAYER_LEVELS; level++, current = current.parentElement) {
    if (/^(absolute|fixed)$/.test(getComputedStyle(current).position)) return true;
  }
  return false;
}
