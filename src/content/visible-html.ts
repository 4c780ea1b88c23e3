/**
 * `get html`: the element's HTML as a person could see it. Hidden subtrees, text that does not show
 * and comments are removed (visibility.ts decides), a web component's shadow root is laid out in
 * its host as the page draws it (visible-copy.ts), and only attributes that describe what is shown
 * or what it does are kept: data-*, event handlers and styles are text no one sees, and a secret
 * field's value attribute stays out.
 */
import { CAPS, clipText } from '../protocol/caps';
import { secretOf } from './secret';
import { visibleCopyOf } from './visible-copy';
import type { VisibleTree } from './visibility';

const KEPT_ATTRIBUTES = new Set([
  'id', 'class', 'href', 'src', 'alt', 'title', 'name', 'type', 'role', 'for', 'action', 'method', 'placeholder', 'value',
  'checked', 'selected', 'disabled', 'readonly', 'required', 'multiple', 'colspan', 'rowspan', 'lang', 'dir', 'target', 'rel',
  'autocomplete', 'inputmode', 'min', 'max', 'step', 'maxlength', 'pattern', 'tabindex', 'contenteditable', 'open',
]);
/** Addresses kept in attributes: long data: URLs would crowd out the markup. */
const MAX_ATTRIBUTE = 300;

function keepsAttribute(element: Element, name: string): boolean {
  if (name === 'value' && secretOf(element)) return false;
  return KEPT_ATTRIBUTES.has(name) || name.startsWith('aria-');
}

function tidyAttributes(root: Element): void {
  for (const element of [root, ...Array.from(root.querySelectorAll('*'))]) {
    for (const { name, value } of Array.from(element.attributes)) {
      if (!keepsAttribute(element, name)) element.removeAttribute(name);
      else if (value.length > MAX_ATTRIBUTE) element.setAttribute(name, clipText(value, MAX_ATTRIBUTE));
    }
  }
}

export function visibleHtml(tree: VisibleTree): string {
  const copy = visibleCopyOf(tree);
  tidyAttributes(copy);
  return clipText(copy.outerHTML, CAPS.read);
}
