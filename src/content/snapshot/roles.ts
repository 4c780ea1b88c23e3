/**
 * ARIA roles of the elements a user can act on: the explicit role when there is one, else the
 * implicit role HTML gives the element (html-aam), reduced to what matters to act on a page.
 */
export const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'option', 'combobox', 'listbox', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'slider', 'spinbutton', 'textbox', 'searchbox', 'treeitem',
  'scrollbar',
]);
// A gridcell is acted on where it takes focus or clicks (a calendar's day; see isInteractive):
// many grids are only laid out with the role (GitHub's file list), their links inside the cells.

const INPUT_ROLES: Record<string, string> = {
  checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox',
  button: 'button', submit: 'button', reset: 'button', image: 'button', color: 'button', file: 'button',
};

export function implicitRole(element: Element): string {
  const tag = element.localName;
  switch (tag) {
    case 'a':
    case 'area':
      return element.hasAttribute('href') ? 'link' : 'generic';
    case 'button':
    case 'summary':
      return 'button';
    case 'input': {
      const type = (element.getAttribute('type') ?? 'text').toLowerCase();
      return INPUT_ROLES[type] ?? (element.hasAttribute('list') ? 'combobox' : 'textbox');
    }
    case 'select':
      return (element as HTMLSelectElement).multiple || (element as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
    case 'textarea':
      return 'textbox';
    case 'option':
      return 'option';
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
      return 'heading';
    case 'img':
      return element.getAttribute('alt') === '' ? 'presentation' : 'img';
    case 'dialog':
      return 'dialog';
    default:
      return isTextEditor(element) ? 'textbox' : 'generic';
  }
}

/**
 * The role a ref line shows. A header cell acted on (a sortable column's, clicked or focused) is
 * shown as the header it is, as a screen reader announces it; its role stays generic everywhere
 * else (a header around a sort link is read through to the link).
 */
export function shownRole(element: Element, role: string): string {
  if (role !== 'generic' || element.localName !== 'th') return role;
  const scope = element.getAttribute('scope');
  if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
  if (scope === 'col' || scope === 'colgroup' || element.parentElement?.parentElement?.localName === 'thead') return 'columnheader';
  // html-aam: a header cell in a row of data cells heads that row.
  return element.parentElement && Array.from(element.parentElement.children).some((cell) => cell.localName === 'td') ? 'rowheader' : 'columnheader';
}

/** A box a user types text into: a contenteditable editor, or a code editor typed into through a field nobody sees. */
export function isTextEditor(element: Element): boolean {
  return isEditingHost(element) || typedThrough(element) !== undefined;
}

/** Smaller than this (px) in width or height, a field's box shows nothing a person could type into. */
const UNSEEN_PX = 3;
/** A box this small cannot be an editor's page of text. */
const EDITOR_MIN = { width: 40, height: 14 };

/** Chromium's EditContext (what TypeScript's DOM types do not have yet): the text an element takes its typing through. */
export interface EditContextLike extends EventTarget {
  readonly text: string;
  readonly selectionStart: number;
  readonly selectionEnd: number;
  updateText(rangeStart: number, rangeEnd: number, text: string): void;
  updateSelection(start: number, end: number): void;
}

/** The EditContext an element takes its typing through (Monaco's, in Chromium), if any. */
export function editContextOf(element: Element): EditContextLike | null {
  return (element as Element & { editContext?: EditContextLike | null }).editContext ?? null;
}

/** A code editor's field: a `<textarea>`, or an element taking typing through an EditContext. */
function isTypingField(element: Element | null | undefined): element is HTMLElement {
  return Boolean(element && (element.localName === 'textarea' || editContextOf(element)));
}

/**
 * The field a code editor takes its typing through. CodeMirror 5, Ace and Monaco draw the text
 * themselves and hear the keyboard through a `<textarea>` (Monaco in Chromium: an element with an
 * EditContext) that opens their box (its first element, or that element's first), clipped to
 * nothing or transparent. The box is the text box a person sees and types into; the field is where
 * the typing goes. A box with any other control inside is a form, not an editor (a honeypot field
 * in it does not make it one).
 */
export function typedThrough(box: Element): HTMLElement | undefined {
  const first = box.firstElementChild;
  const field = isTypingField(first) ? first : isTypingField(first?.firstElementChild) ? first.firstElementChild : null;
  if (!field || !field.checkVisibility({ visibilityProperty: true })) return undefined;
  const around = box.getBoundingClientRect();
  if (around.width < EDITOR_MIN.width || around.height < EDITOR_MIN.height) return undefined;
  if (!isUnseen(field, field === first ? undefined : first!)) return undefined;
  if (box.querySelectorAll('input, select, button, textarea').length > 1) return undefined;
  return field;
}

/** Transparent, or of (or clipped by its holder to) next to no size. */
function isUnseen(field: Element, holder: Element | undefined): boolean {
  if (Number(getComputedStyle(field).opacity) <= 0.01) return true;
  const own = field.getBoundingClientRect();
  if (own.width < UNSEEN_PX || own.height < UNSEEN_PX) return true;
  if (!holder || getComputedStyle(holder).overflow === 'visible') return false;
  const clip = holder.getBoundingClientRect();
  return clip.width < UNSEEN_PX || clip.height < UNSEEN_PX;
}

/**
 * An element made editable by its own contenteditable, not by an editable ancestor: the editor a
 * user types into. What is inside it (paragraphs, headings of a post being written) is its content.
 */
export function isEditingHost(element: Element): boolean {
  return (element as HTMLElement).isContentEditable && !(element.parentElement as HTMLElement | null)?.isContentEditable;
}

export function roleOf(element: Element): string {
  const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0];
  return explicit || implicitRole(element);
}

import { ROW_ROLES } from './rows';

/** Regions of a page: a pointer cursor over a whole navigation bar does not make it a control. */
const LANDMARKS = new Set(['navigation', 'banner', 'main', 'contentinfo', 'complementary', 'region', 'search', 'form']);

const NATIVE_CONTROLS = new Set(['button', 'select', 'textarea', 'summary']);

/** Something a user can click, type into or choose: by tag, role, editability or click handler. */
export function isInteractive(element: Element, role: string, cursorPointer: boolean): boolean {
  const tag = element.localName;
  if (tag === 'input') return (element as HTMLInputElement).type !== 'hidden';
  if (NATIVE_CONTROLS.has(tag) || (tag === 'a' && element.hasAttribute('href'))) return true;
  if (INTERACTIVE_ROLES.has(role)) return cursorPointer || !isBareRole(element);
  if (isEditingHost(element)) return true;
  if (element.hasAttribute('onclick')) return true;
  const tabIndex = element.getAttribute('tabindex');
  // Lists with roving focus give every row but the current one tabindex=-1: all are rows to pick.
  if (tabIndex !== null && ROW_ROLES.has(role)) return true;
  if (tabIndex !== null && Number(tabIndex) >= 0 && tag !== 'body') return true;
  return cursorPointer && !LANDMARKS.has(role) && !standsInForControl(element);
}

/** Attributes that give an element with a role a name, a state, focus or a click of its own. */
const BEARS_MEANING = /^(aria-|tabindex$|title$|onclick$|contenteditable$)/;

/**
 * A role and nothing else: no content, name, state or focus, nothing drawn of its own (the spacer
 * `<li role="menuitem">` between a webmail toolbar's groups). Nothing there a person could act on.
 */
function isBareRole(element: Element): boolean {
  if (element.firstElementChild || /\S/.test(element.textContent ?? '')) return false;
  for (const { name } of element.attributes) if (BEARS_MEANING.test(name)) return false;
  if (getComputedStyle(element).backgroundImage !== 'none') return false;
  return ['::before', '::after'].every((pseudo) => ['none', 'normal'].includes(getComputedStyle(element, pseudo).content));
}

/**
 * A pointer cursor on what only passes the click to a native control that has its own ref: a
 * label of a rendered control, or the nameless styled box drawn next to a checkbox or radio.
 */
function standsInForControl(element: Element): boolean {
  if (element.localName === 'label') return Boolean((element as HTMLLabelElement).control?.checkVisibility());
  const before = element.previousElementSibling as HTMLInputElement | null;
  return before?.localName === 'input' && (before.type === 'checkbox' || before.type === 'radio') && !/\S/.test(element.textContent ?? '');
}
