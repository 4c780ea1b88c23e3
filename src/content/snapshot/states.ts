/** What a ref line says about an element besides its role and name: its state and current value. */
import { secretOf } from '../secret';
import { clip, pageText } from './page-text';
import { isEditingHost } from './roles';

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
  return editorText && isEditingHost(element) ? editorText() : undefined;
}

/** Up to this many, a select's options are listed on its line; beyond, only how many there are. */
const LISTED_OPTIONS = 10;
const OPTION_CHARS = 40;

/**
 * A native select's choices, which its line shows only when opened: listed (what select_option
 * takes), or counted when there are many. Options the page hides from its menu are left out.
 */
export function optionsOf(element: Element): string | undefined {
  if (element.localName !== 'select') return undefined;
  const options = Array.from((element as HTMLSelectElement).options).filter((option) => !option.hidden);
  if (options.length === 0) return undefined;
  if (options.length > LISTED_OPTIONS) return `options=${options.length}`;
  const shown = options.filter((option) => getComputedStyle(option).display !== 'none');
  return `options=[${shown.map((option) => JSON.stringify(pageText(clip(option.text, OPTION_CHARS)))).join(',')}]`;
}
