/**
 * What an action's target is, for Harbor: its role and name as the user would read them, and
 * what the action would do to it — found here, where it would happen, before anything is done:
 * would these keys activate or submit, does this typed text break a line in a form field, does
 * this toggle carry a critical name, where does this link lead. The page controls all of this, so
 * it only ever widens what Harbor asks about (a submit button is a submit whatever it is called).
 */
import { CAPS, clipText } from '../protocol/caps';
import { JawadError } from '../protocol/errors';
import { documentChanged, type Action, type Binding, type StepEffect, type Target, type TargetDescription } from '../protocol/messages';
import { deepActiveElement, parseKeys, resolveTarget } from './actions';
import { editingHost, isTextField } from './actions/editing';
import { autocompleteOf } from './secret';
import { accessibleName } from './snapshot/name';
import type { RefRegistry } from './snapshot/refs';
import { roleOf } from './snapshot/roles';

const ACTIVATION_KEYS = new Set(['Enter', 'NumpadEnter', 'Return', ' ', 'Space', 'Spacebar']);

function formOf(element: Element): HTMLFormElement | null {
  return element instanceof HTMLButtonElement || element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement
    ? element.form
    : element.closest('form');
}

/** A click on it submits its form: submit buttons, image inputs, and buttons without a type. */
function clickSubmits(element: Element): boolean {
  if (element instanceof HTMLButtonElement) return element.type === 'submit' && element.form !== null;
  if (element instanceof HTMLInputElement) return (element.type === 'submit' || element.type === 'image') && element.form !== null;
  return false;
}

/** Where activating it leads (clipped: a page chooses its own link lengths). */
function destination(element: Element): string | undefined {
  const to = fullDestination(element);
  return to === undefined ? undefined : clipText(to, CAPS.url);
}

/** Where activating it leads: a link's destination, or the address its form posts to. */
function fullDestination(element: Element): string | undefined {
  const link = element.closest('a[href], area[href]') as HTMLAnchorElement | HTMLAreaElement | null;
  if (link) return link.href;
  const form = formOf(element);
  if (!form) return undefined;
  // `formAction` reads as the page's own URL when the attribute is absent (HTML spec), which would
  // hide where the form really posts: only an explicit formaction overrides the form's action.
  if (clickSubmits(element) && element.hasAttribute('formaction')) return (element as HTMLButtonElement | HTMLInputElement).formAction;
  return form.action || location.href;
}

/** A click lands on what the element is part of: the button around a label's text, a label's control. */
function activatedBy(element: Element): Element {
  const control = element.closest('a[href], area[href], button, input, select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=switch], [role=menuitem]');
  if (control) return control;
  const label = element.closest('label');
  return label?.control ?? element;
}

function activation(element: Element, because: string): StepEffect {
  const activated = activatedBy(element);
  const to = destination(activated);
  const submits = clickSubmits(activated);
  const isLink = activated.closest('a[href], area[href]') !== null;
  return {
    activates: true,
    submits,
    because: submits ? `${because} submits its form.` : because,
    ...(to && (isLink || submits) ? { destination: to } : {}),
  };
}

/** Enter in a field: implicit submission in a one-line field of a form; a send in editors and chat boxes. */
function enterIn(field: Element, modified: boolean): StepEffect | undefined {
  if (field.localName === 'input' && isTextField(field)) {
    const form = (field as HTMLInputElement).form;
    return form
      ? { activates: true, submits: true, because: 'Enter in a form field submits the form.', destination: clipText(form.action || location.href, CAPS.url) }
      : { activates: true, submits: true, because: 'Enter in a field may send what it holds (the page decides).' };
  }
  // A plain Enter in a textarea breaks the line; with a modifier, or in an editor, web apps send.
  if (field.localName === 'textarea' && !modified) return undefined;
  if (field.localName === 'textarea' || editingHost(field)) return { activates: true, submits: true, because: 'Enter in a message box often sends it.' };
  return undefined;
}

/** The effect of pressing `keys` on `element` (or on whatever has focus). */
function keyEffect(element: Element, keys: string): StepEffect {
  const { key, modifiers } = parseKeys(keys);
  const modified = modifiers.ctrlKey || modifiers.metaKey || modifiers.altKey || modifiers.shiftKey;
  if (!ACTIVATION_KEYS.has(key)) return { activates: false, submits: false };
  const isEnter = key !== ' ' && key !== 'Space' && key !== 'Spacebar';
  if (isEnter) {
    const inField = enterIn(element, modified);
    if (inField) return inField;
  }
  if (isTextField(element) || editingHost(element)) return { activates: false, submits: false };
  return activation(element, `${isEnter ? 'Enter' : 'Space'} on it activates it; it`);
}

/** The effect of typing `text` (which may hold line breaks, each one an Enter). */
function typingEffect(element: Element, text: string): StepEffect {
  if (!/[\r\n]/.test(text)) return { activates: false, submits: false };
  const field = editingHost(element) ?? element;
  const effect = enterIn(field, false);
  return effect ? { ...effect, because: `The text ends a line with Enter. ${effect.because ?? ''}`.trim() } : { activates: false, submits: false };
}

function effectOf(action: Action | undefined, element: Element, value: string | undefined): StepEffect | undefined {
  switch (action) {
    case 'click':
    case 'dblclick':
    case 'check':
    case 'uncheck':
      return activation(element, 'Clicking it');
    case 'press':
      return keyEffect(element, value ?? '');
    case 'type':
      return typingEffect(element, value ?? '');
    default:
      return undefined;
  }
}

export function describeTarget(request: { target: Target; action?: Action; value?: string; expectDocument?: string }, refs: RefRegistry, documentId: string): TargetDescription {
  if (request.expectDocument && request.expectDocument !== documentId) throw documentChanged();
  const { element, isPage } = resolveTarget(request.target, refs);
  const keyTarget = isPage && request.action === 'press' ? deepActiveElement() : null;
  const effect = effectOf(request.action, keyTarget ?? element, request.value);
  if (isPage && !keyTarget) {
    return { role: 'document', name: clipText(document.title, CAPS.name), tag: 'html', submits: false, url: here(), documentUrl: here(), documentId, ...(effect ? { effect } : {}) };
  }
  const described = keyTarget ?? element;
  const role = roleOf(described);
  const url = destination(described);
  const inputType = described instanceof HTMLInputElement ? described.type : described instanceof HTMLTextAreaElement ? 'textarea' : undefined;
  const autocomplete = autocompleteOf(described);
  return {
    role,
    name: clipText(accessibleName(described, role), CAPS.name),
    tag: described.localName,
    submits: clickSubmits(described) || effect?.submits === true,
    documentUrl: here(),
    documentId,
    ...(url ? { url } : {}),
    ...(inputType ? { inputType } : {}),
    ...(autocomplete ? { autocomplete } : {}),
    ...(effect ? { effect } : {}),
  };
}

const here = () => clipText(location.href, CAPS.url);

/**
 * Roles that are one kind of target to the user: a field you type into. Pages upgrade a search box
 * to a combobox when their script loads its suggestions (MediaWiki, GitHub) — the same element,
 * doing the same thing with the same text — and that must not void the judgement.
 */
const TEXT_ENTRY = new Set(['textbox', 'searchbox', 'combobox']);
const sameKindOfTarget = (judged: string, now: string) => judged === now || (TEXT_ENTRY.has(judged) && TEXT_ENTRY.has(now));

/**
 * The approval's binding, checked just before acting: the same document, and a target that still
 * is what the user was shown (an element swapped in under the same ref or selector is not).
 */
export function checkBinding(binding: Binding, request: { target: Target; action?: Action; value?: string }, refs: RefRegistry, documentId: string): void {
  if (binding.documentId !== documentId) throw documentChanged();
  const now = describeTarget(request, refs, documentId);
  const changed = (binding.role !== undefined && !sameKindOfTarget(binding.role, now.role)) || (binding.name !== undefined && binding.name !== now.name) || (binding.url !== undefined && binding.url !== (now.effect?.destination ?? now.url));
  if (changed) {
    throw new JawadError('TARGET_CHANGED', `The element changed since this step was judged (it was ${binding.role ?? '?'} “${binding.name ?? ''}”, it is now ${now.role} “${now.name}”): the step was not run. Take a new snapshot.`);
  }
}
