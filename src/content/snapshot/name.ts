/** Accessible names, simplified from accname-1.2 to what identifies an element to a model. */
import { secretOf } from '../secret';
import { hrefOf } from './states';
import { oneLine } from '../../protocol/caps';
import { type TreeOptions, VisibleTree, visibleLines, visibleText } from '../visibility';

/**
 * What a pass over the page (the snapshot walk) has read already and a name's text can reuse
 * (`judgedRoot`: its judgement of the very element being named).
 */
export interface ReadAlready extends Omit<TreeOptions, 'rootShown'> {
  /** A tree judged around the element (the block a link sits in): its text is read from there. */
  tree?: VisibleTree;
}

const NAME_FROM_CONTENT = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem', 'heading', 'gridcell', 'row', 'listitem', 'generic']);

/** A name is the page's words, whole: a link can carry a sentence (a citation, a line of lyrics) the model must read. Where it is written, it is folded or capped. */
function clean(text: string | null | undefined): string {
  return oneLine(text ?? '');
}

function byIds(element: Element, ids: string): string {
  const root = element.getRootNode() as Document | ShadowRoot;
  return ids
    .split(/\s+/)
    .map((id) => root.getElementById?.(id) ?? element.ownerDocument.getElementById(id))
    .map((target) => (target as HTMLElement | null)?.innerText ?? target?.textContent ?? '')
    .join(' ');
}

/**
 * What a form control says when it sits inside a label: its current value, not all its options.
 * A secret's value (a password in a <label> that wraps it) is never part of a name.
 */
function embeddedValue(control: Element): string {
  if (control.localName === 'select') return (control as HTMLSelectElement).selectedOptions[0]?.text ?? '';
  if (control.localName === 'input' || control.localName === 'textarea') {
    const input = control as HTMLInputElement;
    return ['checkbox', 'radio', 'hidden'].includes(input.type) || secretOf(control) ? '' : input.value;
  }
  return '';
}

/** A label's text, with any embedded control replaced by its value (as accname does). */
function textOfLabel(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (node.nodeType !== Node.ELEMENT_NODE) return '';
  const element = node as Element;
  if (['select', 'input', 'textarea'].includes(element.localName)) return ` ${embeddedValue(element)} `;
  if (['script', 'style', 'template'].includes(element.localName) || element.getAttribute('aria-hidden') === 'true') return '';
  // A label that is an icon (Django admin's search box: a magnifier whose alt text is "Search").
  if (element.localName === 'img') return ` ${element.getAttribute('alt') ?? ''} `;
  return Array.from(element.childNodes, textOfLabel).join('');
}

/** Of the fields sharing an id, the one a label stands nearest to: inside its nearest box holding any, the next after it (else the last before). */
function nearestTwin(label: Element, twins: readonly Element[]): Element | undefined {
  for (let box = label.parentElement; box; box = box.parentElement) {
    const inside = twins.filter((twin) => box.contains(twin));
    if (inside.length > 0) return inside.find((twin) => label.compareDocumentPosition(twin) & Node.DOCUMENT_POSITION_FOLLOWING) ?? inside.at(-1);
  }
  return undefined;
}

/**
 * The labels a person sees as the field's. Where a page repeats an id (a pager printed above and
 * below a table, one search box in the mobile header and one in the desktop header), the browser
 * gives every `<label for>` of it to the first field with that id and none to the others: each
 * such label is the nearest twin's instead.
 */
function labelsOf(element: Element): readonly HTMLLabelElement[] {
  const labels = Array.from((element as HTMLInputElement).labels ?? []);
  const id = element.id;
  if (!id) return labels;
  const root = element.getRootNode() as Document | ShadowRoot;
  const byFor = labels.filter((label) => label.htmlFor === id);
  const maybeTwin = byFor.length >= 2 || (byFor.length === 0 && root.getElementById(id) !== element);
  if (!maybeTwin) return labels;
  const twins = Array.from(root.querySelectorAll(`[id="${CSS.escape(id)}"]`));
  if (twins.length < 2) return labels;
  const wrapping = labels.filter((label) => label.htmlFor !== id);
  const nearest = Array.from(root.querySelectorAll<HTMLLabelElement>(`label[for="${CSS.escape(id)}"]`)).filter((label) => nearestTwin(label, twins) === element);
  return [...wrapping, ...nearest];
}

function labelText(element: Element): string {
  const labels = labelsOf(element);
  if (labels.length > 0) return labels.map(textOfLabel).join(' ');
  const wrapperLabel = labelOfWrapper(element);
  return wrapperLabel ? textOfLabel(wrapperLabel) : '';
}

const WRAPPER_LEVELS = 5;
const FIELDS = 'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button]),textarea,select';

/** A label that labels nothing the browser knows of (no `for`, or `for` a wrapper; no control inside). */
function strayLabel(scope: Element): HTMLLabelElement | null {
  for (const label of Array.from(scope.querySelectorAll('label'))) if (!label.control) return label;
  return null;
}

/**
 * Widget toolkits (OOUI, many design systems) lay a field out as a label and a widget in one box,
 * the label pointing at the widget's wrapper or at nothing, which no browser reads as a name. When
 * the nearest box holding such a label holds this one field (that shows), the label is the field's.
 */
function labelOfWrapper(element: Element): HTMLLabelElement | null {
  let wrapper = element.parentElement;
  for (let level = 0; wrapper && level < WRAPPER_LEVELS; level++, wrapper = wrapper.parentElement) {
    const label = (wrapper.id ? element.ownerDocument.querySelector<HTMLLabelElement>(`label[for="${CSS.escape(wrapper.id)}"]`) : null) ?? strayLabel(wrapper);
    if (!label) continue;
    const fields = Array.from(wrapper.querySelectorAll(FIELDS)).filter((field) => field.checkVisibility());
    return fields.length === 1 && fields[0] === element ? label : null;
  }
  return null;
}

/** The name the page gives an element for screen readers: `aria-labelledby`, else `aria-label`. */
export function ariaName(element: Element): string {
  const labelledBy = element.getAttribute('aria-labelledby');
  const named = labelledBy ? clean(byIds(element, labelledBy)) : '';
  return named || clean(element.getAttribute('aria-label'));
}

/**
 * The name a model sees for the element. Its content counts only as far as it shows (hidden text
 * inside a heading or a link is text no one sees); content that shows nothing falls back to the
 * accessibility tree's text, as an aria-label would (an icon button labelled for screen readers).
 */
export function accessibleName(element: Element, role: string, read?: ReadAlready): string {
  const ariaNamed = ariaName(element);
  if (ariaNamed) return ariaNamed;
  const tag = element.localName;
  if (tag === 'input' || tag === 'select' || tag === 'textarea') {
    const input = element as HTMLInputElement;
    if (['submit', 'button', 'reset'].includes(input.type) || input.type === 'image') return buttonInputName(input);
    const label = clean(labelText(element));
    if (label) return label;
    const placeholder = clean(element.getAttribute('placeholder'));
    if (placeholder) return placeholder;
  }
  if (tag === 'img' || tag === 'area') return clean(element.getAttribute('alt') ?? element.getAttribute('title'));
  if (tag === 'svg') {
    const title = svgTitle(element);
    if (title) return title;
  }
  if (NAME_FROM_CONTENT.has(role) || tag === 'label') {
    const text = element.firstElementChild ? visibleContent(element, read) : clean(element.textContent);
    // A header cell's drawn marks say how the table is sorted by it. Other elements with text leave
    // theirs unread: reading each named element's pseudo-elements cost the corpus 6 % of the snapshot's time.
    if (text) return tag === 'th' ? withDrawnText(element, text) : text;
    const alternative = element.firstElementChild ? contentAlternative(element) : '';
    if (alternative) return alternative;
    // A control with nothing else to say is named by what its style draws (a close button's "×").
    const drawn = DRAWN_NAME_ROLES.has(role) ? withDrawnText(element, '') : '';
    if (drawn) return drawn;
  }
  const title = clean(element.getAttribute('title'));
  return title || (role === 'textbox' && tag !== 'input' && tag !== 'textarea' ? standInName(element) : '');
}

/** How far up from an editor's typing box its outer box may be (CodeMirror 6: content, scroller, editor). */
const STAND_IN_LEVELS = 3;

/**
 * An editor made over a form's `<textarea>` (CodeMirror's `fromTextArea`, CKEditor's
 * `create(textarea)`) hides that field and puts its own box beside it, where the page's label for
 * the field no longer reaches: the hidden field's name (phpMyAdmin's "SQL query") is the box's.
 */
function standInName(editor: Element): string {
  let box: Element | null = editor;
  for (let level = 0; box && level < STAND_IN_LEVELS; level++, box = box.parentElement) {
    for (const beside of [box.previousElementSibling, box.nextElementSibling]) {
      if (beside?.localName === 'textarea' && !beside.checkVisibility()) return accessibleName(beside, 'textbox');
    }
  }
  return '';
}

/**
 * Controls often drawn by their style alone, whose drawn text is read when they have no other name.
 * Not links: a nameless link's address says more than the arrow drawn on it.
 */
const DRAWN_NAME_ROLES = new Set(['button', 'menuitem', 'tab', 'option']);
/** A CSS string, `"↓"`, as the computed `content` writes one; anything else (a counter, attr()) is not read. */
const CSS_STRING = /^"((?:[^"\\]|\\.)*)"$/;
/** Icon fonts' glyphs (Unicode's private use areas, the plane 15 and 16 ones too): a reader sees no letter. */
const ICON_GLYPHS = /[\uE000-\uF8FF\u{F0000}-\u{10FFFF}]/gu;

/**
 * The element's text with what its style draws before and after it (accname's CSS generated
 * content): the arrow a sortable header shows once sorted by it (Fossil's `::after`, ♦ then ↓ or
 * ↑), as browsers name the header; the "×" of a close button with no text.
 */
function withDrawnText(element: Element, text: string): string {
  const drawn = (pseudo: '::before' | '::after') => {
    const style = getComputedStyle(element, pseudo);
    const written = CSS_STRING.exec(style.content)?.[1];
    if (!written || style.display === 'none') return '';
    return written.replace(/\\(.)/g, '$1').replace(ICON_GLYPHS, '');
  };
  const before = drawn('::before');
  const after = drawn('::after');
  return before || after ? clean(`${before}${text}${after}`) : text;
}

/** An input drawn as a button: its value, else a label or its title, else what the browser writes on it. */
function buttonInputName(input: HTMLInputElement): string {
  const value = input.type === 'image' ? input.alt || input.value : input.value;
  return clean(value) || clean(labelText(input)) || clean(input.title) || DEFAULT_BUTTON_TEXT[input.type] || '';
}

const DEFAULT_BUTTON_TEXT: Record<string, string> = { submit: 'Submit', reset: 'Reset', image: 'Submit' };

/** Past this many elements a nameless control's content is not searched further: an icon is a few elements. */
const ALTERNATIVE_SEARCH_LIMIT = 200;

/**
 * What the content of a control with no text that shows says to a screen reader (accname's name
 * from content, for the parts that are not text): an icon's aria-label, an SVG's <title>, an
 * image's alt, a nested element's title. Hidden parts (the "close" icon of a closed menu's toggle)
 * say nothing.
 */
function contentAlternative(element: Element): string {
  const parts: string[] = [];
  let budget = ALTERNATIVE_SEARCH_LIMIT;
  const search = (parent: Element) => {
    for (let child = parent.firstElementChild; child && budget-- > 0; child = child.nextElementSibling) {
      if (child.getAttribute('aria-hidden') === 'true' || !child.checkVisibility({ visibilityProperty: true })) continue;
      const own = ownAlternative(child);
      if (own) {
        parts.push(own);
        continue;
      }
      const before = parts.length;
      search(child);
      const title = parts.length === before ? clean(child.getAttribute('title')) : '';
      if (title) parts.push(title);
    }
  };
  search(element);
  // A logo drawn twice, once per colour scheme, says its name once.
  return clean([...new Set(parts)].join(' '));
}

/** What an element inside a control says of itself, before its own content is looked at. */
function ownAlternative(element: Element): string {
  const labelledBy = element.getAttribute('aria-labelledby');
  const named = clean(labelledBy ? byIds(element, labelledBy) : '') || clean(element.getAttribute('aria-label'));
  if (named) return named;
  if (element.localName === 'img' || element.localName === 'area') return clean(element.getAttribute('alt'));
  if (element.localName === 'svg') return svgTitle(element);
  if (element.localName === 'input') return embeddedValue(element);
  return '';
}

/**
 * An SVG's name is its <title> child (SVG-AAM), or the <title> of a symbol it draws from the page's
 * own sprite (`<use href="#icon-search">`), which is the same icon with its name kept in one place.
 */
function svgTitle(svg: Element): string {
  const own = titleOf(svg);
  if (own) return own;
  for (const use of Array.from(svg.querySelectorAll('use'))) {
    const title = titleOf(spriteSymbol(use));
    if (title) return title;
  }
  return '';
}

function titleOf(element: Element | null): string {
  for (let child = element?.firstElementChild; child; child = child.nextElementSibling) if (child.localName === 'title') return clean(child.textContent);
  return '';
}

/** The element a `<use>` draws, when it is in the same document (`href="#id"`). */
function spriteSymbol(use: Element): Element | null {
  const href = hrefOf(use) ?? '';
  if (!href.startsWith('#') || href.length < 2) return null;
  const root = use.getRootNode() as Document | ShadowRoot;
  return root.getElementById?.(href.slice(1)) ?? null;
}

/**
 * The text of an element's content that shows, or all of it when none does. (An element holding
 * only text needs no judging: its text either shows, or is the fallback anyway.)
 */
export function visibleContent(element: Element, read: ReadAlready | undefined): string {
  return shownText(element, read) || clean((element as HTMLElement).innerText ?? element.textContent);
}

function shownText(element: Element, read: ReadAlready | undefined): string {
  return clean(visibleText(treeOf(element, read), element));
}

/** The tree the walk judged the element in, or one judging it on its own. */
function treeOf(element: Element, read: ReadAlready | undefined): VisibleTree {
  return read?.tree?.root.contains(element)
    ? read.tree
    : new VisibleTree(element, { rootShown: true, backgrounds: read?.backgrounds, view: read?.view, range: read?.range, judgedRoot: read?.judgedRoot });
}

/**
 * The text of a code editor typed into through a field, line by line with its indentation, as a
 * person reads it in its box. An editor that hides all it draws from assistive technology (Monaco,
 * which gives them its text through its field instead) is read from what it draws for the eye,
 * less its gutter of line numbers.
 */
export function editorText(box: Element, read: ReadAlready | undefined): string {
  const shown = visibleLines(treeOf(box, read), box);
  if (/\S/.test(shown)) return shown;
  const gutters: Element[] = [];
  for (const hidden of box.querySelectorAll<HTMLElement>('[aria-hidden="true"]')) {
    if (!gutters.some((gutter) => gutter.contains(hidden)) && isLineNumbers(hidden.innerText.trim())) gutters.push(hidden);
  }
  const drawn = new VisibleTree(box, { rootShown: true, drawnForTheEye: true, backgrounds: read?.backgrounds, view: read?.view, range: read?.range });
  return visibleLines(drawn, box, gutters);
}

/** A column of line numbers: 1, 2, 3… (or from wherever the view starts). */
export function isLineNumbers(text: string): boolean {
  const numbers = text.split(/\s+/).map(Number);
  return text !== '' && numbers.every((number, index) => Number.isInteger(number) && (index === 0 || number === numbers[index - 1]! + 1));
}
