/**
 * What an action's target is, for Harbor: its role and name as the user would read them, and
 * whether activating it submits a form. The page controls all of this, so it only ever widens what
 * Harbor asks about (a submit button is treated as a submit whatever it is called).
 */
import type { Target, TargetDescription } from '../protocol/messages';
import { resolveTarget } from './actions';
import { accessibleName } from './snapshot/name';
import type { RefRegistry } from './snapshot/refs';
import { roleOf } from './snapshot/roles';

const MAX_NAME = 300;

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

/** Where activating it leads: a link's destination, or the address its form posts to. */
function destination(element: Element): string | undefined {
  const link = element.closest('a[href], area[href]') as HTMLAnchorElement | HTMLAreaElement | null;
  if (link) return link.href;
  const form = formOf(element);
  if (!form) return undefined;
  // `formAction` reads as the page's own URL when the attribute is absent (HTML spec), which would
  // hide where the form really posts: only an explicit formaction overrides the form's action.
  if (clickSubmits(element) && element.hasAttribute('formaction')) return (element as HTMLButtonElement | HTMLInputElement).formAction;
  return form.action || location.href;
}

export function describeTarget(target: Target, refs: RefRegistry): TargetDescription {
  const { element, isPage } = resolveTarget(target, refs);
  if (isPage) return { role: 'document', name: document.title.slice(0, MAX_NAME), tag: 'html', submits: false, url: location.href, documentUrl: location.href };
  const role = roleOf(element);
  const url = destination(element);
  const inputType = element instanceof HTMLInputElement ? element.type : element instanceof HTMLTextAreaElement ? 'textarea' : undefined;
  return {
    role,
    name: accessibleName(element, role).slice(0, MAX_NAME),
    tag: element.localName,
    submits: clickSubmits(element),
    documentUrl: location.href,
    ...(url ? { url } : {}),
    ...(inputType ? { inputType } : {}),
  };
}
