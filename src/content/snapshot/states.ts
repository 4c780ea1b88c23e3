/** What a ref line says about an element besides its role and name: its state and current value. */
import { secretOf } from '../secret';
import { CAPS } from '../../protocol/caps';
import { quote } from './page-text';
import { isTextEditor } from './roles';

/** A checkbox with role=button that opens a menu (the CSS "checkbox hack"): checked means open. */
export function isMenuToggle(element: Element, role: string): boolean {
  return role === 'button' && element.localName === 'input' && (element as HTMLInputElement).type === 'checkbox' && (element.getAttribute('aria-haspopup') ?? 'false') !== 'false';
}

function expandedState(element: Element, role: string): string | undefined {
  if (isMenuToggle(element, role)) return (element as HTMLInputElement).checked ? 'expanded' : 'collapsed';
  const expanded = element.getAttribute('aria-expanded');
  return expanded === 'true' ? 'expanded' : expanded === 'false' ? 'collapsed' : undefined;
}

export function states(element: Element, role: string): string[] {
  const out: string[] = [];
  const input = element as HTMLInputElement;
  const ariaChecked = element.getAttribute('aria-checked');
  const nativeChoice = element.localName === 'input' && (input.type === 'checkbox' || input.type === 'radio');
  if ((nativeChoice && input.checked && !isMenuToggle(element, role)) || ariaChecked === 'true') out.push('checked');
  if (ariaChecked === 'mixed' || (element.localName === 'input' && input.indeterminate)) out.push('mixed');
  if (input.disabled === true || element.getAttribute('aria-disabled') === 'true') out.push('disabled');
  const expanded = expandedState(element, role);
  if (expanded) out.push(expanded);
  if (element.getAttribute('aria-selected') === 'true' || (element.localName === 'option' && (element as HTMLOptionElement).selected)) out.push('selected');
  if (input.required === true || element.getAttribute('aria-required') === 'true') out.push('required');
  const readOnly = input.readOnly === true || element.getAttribute('aria-readonly') === 'true';
  if ((element as HTMLElement).isContentEditable || (role === 'textbox' && !readOnly)) out.push('editable');
  if (secretOf(element)) out.push('secret');
  // A sortable column's header: which way the table is sorted by it now.
  const sort = element.getAttribute('aria-sort');
  if (sort === 'ascending' || sort === 'descending') out.push(`sorted ${sort}`);
  return out;
}

/** A field's value; an editor's is its text (`editorText`), when the caller wants it shown. */
export function valueOf(element: Element, editorText?: () => string): string | undefined {
  if (element.localName === 'select') {
    const select = element as HTMLSelectElement;
    return select.selectedOptions[0]?.text;
  }
  if (secretOf(element)) return undefined; // a password, card number or one-time code: marked [secret], never shown
  if (element.localName === 'textarea') return (element as HTMLTextAreaElement).value;
  if (element.localName === 'input') {
    const input = element as HTMLInputElement;
    if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'password'].includes(input.type)) return undefined;
    return input.value;
  }
  return editorText && isTextEditor(element) ? editorText() : undefined;
}

/** Where an HTML or SVG link, or an SVG `<use>`, points: `href`, or SVG 1.1's `xlink:href`. */
export function hrefOf(element: Element): string | null {
  return element.getAttribute('href') ?? element.getAttribute('xlink:href');
}

/**
 * Where a link goes, for a link with no name (an avatar or a logo whose image has no alt text):
 * the one thing that tells it apart. On this site, its path and query; elsewhere, its host and
 * path (a share button's query is the page it shares); an e-mail address or a phone number; within
 * this page, its `#fragment`. Nothing for what leads nowhere a person can read (javascript:, or `#`
 * alone, which a script's button made of a link uses).
 */
export function destinationOf(link: Element): string | undefined {
  const href = hrefOf(link);
  if (!href) return undefined;
  let url: URL;
  try {
    url = new URL(href, link.baseURI);
  } catch {
    return undefined;
  }
  // An e-mail link's subject and body are the page it shares: its address (or none) is what tells it apart.
  if (url.protocol === 'mailto:') return `mailto:${url.pathname}`;
  if (url.protocol === 'tel:') return url.href;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const here = link.ownerDocument.location;
  if (here && url.origin === here.origin && url.pathname === here.pathname && url.search === here.search) return url.hash.length > 1 ? url.hash : undefined;
  if (url.origin === here?.origin) return `${url.pathname}${url.search}${url.hash}`;
  return `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/** A sprite symbol's id that reads as a word or two (`search`, `icon-close`), not a generated hash. */
const ICON_ID = /^[A-Za-z][\w-]{0,39}$/;

/**
 * The icon a nameless control draws: the id of a sprite's symbol (`<use href="sprite.svg#search">`),
 * else the class an icon font names its glyph by (`<i class="icon icon-expand">`). Either is what
 * the page's authors call the icon, the one hint such a control carries. Icons hidden in it (the
 * "close" of a shut menu's toggle) are not the one it shows.
 */
export function iconOf(control: Element): string | undefined {
  for (const use of Array.from(control.querySelectorAll('use'))) {
    const svg = use.closest('svg');
    if (svg && !svg.checkVisibility({ visibilityProperty: true })) continue;
    const href = hrefOf(use) ?? '';
    const id = href.includes('#') ? href.slice(href.lastIndexOf('#') + 1) : '';
    if (ICON_ID.test(id)) return id;
  }
  return iconClassOf(control);
}

/** How icon fonts and sprites name a glyph: `icon-expand`, `icon--basket`, `fa-magnifying-glass`, `bi-search`, `glyphicon-user`, `ic_b_minus`. */
const ICON_CLASS = /^(?:icon|ic|fa[srbld]?|bi|glyphicon|ti|mdi|la|ion|bx|ri|dashicons|genericon|uil)(?:-{1,2}|_)[a-z][a-z0-9_-]{0,39}$/i;
/** Classes of the same families that name no glyph: sizes, styles, animations, and the box around an icon. */
const NOT_A_GLYPH =
  /^(?:fa-(?:\d+x|lg|sm|xs|2xs|xl|2xl|fw|spin|pulse|beat|fade|bounce|shake|border|inverse|solid|regular|light|thin|duotone|brands|sharp|li|ul|stack|flip|rotate|pull)(?:-[\w-]*)?|[a-z][\w-]*[-_](?:\d+x?|lg|sm|xs|small|large|inline|white|black|button|btn|link|wrap|wrapper|container|holder|text|label))$/i;
/** Elements of a control searched for an icon font's class. */
const ICON_CLASS_BUDGET = 30;

function iconClassOf(control: Element): string | undefined {
  const inside = Array.from(control.querySelectorAll('[class]')).slice(0, ICON_CLASS_BUDGET);
  for (const element of [control, ...inside]) {
    const glyph = Array.from(element.classList).find((name) => ICON_CLASS.test(name) && !NOT_A_GLYPH.test(name));
    if (glyph && (element === control || element.checkVisibility({ visibilityProperty: true }))) return glyph;
  }
  return undefined;
}

/** Up to this many, a select's options are listed on its line; beyond, only how many there are. */
const LISTED_OPTIONS = 10;

/**
 * A native select's choices, which its line shows only when opened: listed (what select_option
 * takes), or counted when there are many. Each is whole, as a name is, up to the length of one.
 * Options the page hides from its menu — by attribute, or by CSS as a menu filtered by another
 * field's choice does — are left out.
 */
export function optionsOf(element: Element): string | undefined {
  if (element.localName !== 'select') return undefined;
  const options = Array.from((element as HTMLSelectElement).options).filter((option) => !option.hidden);
  const shown: HTMLOptionElement[] = [];
  for (const option of options) {
    if (getComputedStyle(option).display !== 'none') shown.push(option);
    // Too many to list: how many is said without judging each one's style (a list of 5,000 dates).
    if (shown.length > LISTED_OPTIONS) return `options=${options.length}`;
  }
  if (shown.length === 0) return undefined;
  return `options=[${shown.map((option) => quote(option.text, CAPS.name, 'select_option takes what is shown')).join(',')}]`;
}
