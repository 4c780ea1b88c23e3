/**
 * Acting on the page like a person would, and checking it worked: scroll into view, wait until
 * the element stops moving, refuse when something else would take the click, and read the value
 * back after changing it. Frameworks learn of a new value from input/change events, so those are
 * always sent. The value goes through the prototype's native setter: from this isolated world a
 * page's own `value` override (React's value tracker) is invisible anyway, and the native setter
 * keeps that true should this code ever run in the page's world.
 */
import { JawadError } from '../protocol/errors';
import type { ActionOutcome, Target } from '../protocol/messages';
import type { RefRegistry } from './snapshot/refs';
import { coveredBy, isStyledChoice } from './snapshot/walk';

const STABLE_FRAMES = 2;
const STABLE_TIMEOUT_MS = 1_000;

export function resolveTarget(target: Target, refs: RefRegistry): { element: Element; label: string } {
  if (target.ref) return { element: refs.resolve(target.ref), label: target.ref };
  const element = document.querySelector(target.selector!);
  if (!element) throw new JawadError('NOT_FOUND', `Nothing on the page matches ${target.selector}.`);
  return { element, label: target.selector! };
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

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

/** The element that really receives the click: a visually hidden checkbox is clicked through its label. */
function clickTarget(element: Element): Element {
  if (isStyledChoice(element) && !element.checkVisibility({ opacityProperty: true })) {
    return (element as HTMLInputElement).labels?.[0] ?? element;
  }
  return element;
}

async function prepare(element: Element, label: string): Promise<Element> {
  if (!element.isConnected) throw new JawadError('STALE_REF', `${label} is no longer on the page. Take a new snapshot.`);
  const target = clickTarget(element);
  if (!target.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
    throw new JawadError('NOT_VISIBLE', `${label} is not visible, so a person could not click it.`);
  }
  target.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const rect = await settle(target);
  const cover = coveredBy(target, rect, window);
  if (cover) throw new JawadError('COVERED', `${label} is covered by ${cover}, which would get the click instead.`, { coveredBy: cover });
  return target;
}

function pointerSequence(target: Element): void {
  const init = { bubbles: true, cancelable: true, composed: true, view: window };
  target.dispatchEvent(new PointerEvent('pointerover', init));
  target.dispatchEvent(new MouseEvent('mouseover', init));
  target.dispatchEvent(new PointerEvent('pointerdown', init));
  target.dispatchEvent(new MouseEvent('mousedown', init));
  (target as HTMLElement).focus?.({ preventScroll: true });
  target.dispatchEvent(new PointerEvent('pointerup', init));
  target.dispatchEvent(new MouseEvent('mouseup', init));
  (target as HTMLElement).click();
}

function setNativeValue(element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), 'value')?.set;
  if (setter) setter.call(element, value);
  else element.value = value;
  element.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText', data: value }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
}

function isTextField(element: Element): element is HTMLInputElement | HTMLTextAreaElement {
  if (element.localName === 'textarea') return true;
  if (element.localName !== 'input') return false;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color', 'hidden'].includes((element as HTMLInputElement).type);
}

async function fill(element: Element, label: string, text: string): Promise<ActionOutcome> {
  if (element.localName === 'select') return select(element, label, text);
  await prepare(element, label);
  if (isTextField(element)) {
    if (element.disabled || element.readOnly) throw new JawadError('EXECUTION_ERROR', `${label} cannot be edited (it is ${element.disabled ? 'disabled' : 'read-only'}).`);
    element.focus({ preventScroll: true });
    setNativeValue(element, text);
    return { action: 'fill', target: label, value: element.value };
  }
  if ((element as HTMLElement).isContentEditable) {
    (element as HTMLElement).focus({ preventScroll: true });
    document.execCommand('selectAll');
    document.execCommand('insertText', false, text);
    return { action: 'fill', target: label, value: (element as HTMLElement).innerText };
  }
  throw new JawadError('EXECUTION_ERROR', `${label} is a ${element.localName}, not a field that can be filled.`);
}

async function select(element: Element, label: string, choice: string): Promise<ActionOutcome> {
  if (element.localName !== 'select') throw new JawadError('EXECUTION_ERROR', `${label} is not a drop-down list (select).`);
  await prepare(element, label);
  const selectElement = element as HTMLSelectElement;
  const options = Array.from(selectElement.options);
  const wanted = choice.trim().toLowerCase();
  const option = options.find((o) => o.value === choice) ?? options.find((o) => o.text.trim().toLowerCase() === wanted);
  if (!option) {
    throw new JawadError('EXECUTION_ERROR', `${label} has no option “${choice}”.`, { options: options.map((o) => ({ value: o.value, text: o.text.trim() })) });
  }
  if (option.disabled) throw new JawadError('EXECUTION_ERROR', `The option “${option.text.trim()}” of ${label} is disabled.`);
  setNativeValue(selectElement, option.value);
  return { action: 'select', target: label, value: selectElement.selectedOptions[0]?.text.trim() ?? '' };
}

function checkedState(element: Element): boolean | undefined {
  if (element.localName === 'input' && ['checkbox', 'radio'].includes((element as HTMLInputElement).type)) return (element as HTMLInputElement).checked;
  const aria = element.getAttribute('aria-checked') ?? element.getAttribute('aria-pressed');
  return aria === null ? undefined : aria === 'true';
}

async function setChecked(element: Element, label: string, want: boolean): Promise<ActionOutcome> {
  const before = checkedState(element);
  if (before === undefined) throw new JawadError('EXECUTION_ERROR', `${label} is not a checkbox, radio button or switch.`);
  if (before !== want) {
    pointerSequence(await prepare(element, label));
    await pause(0);
  }
  const after = checkedState(element);
  if (after !== want) throw new JawadError('EXECUTION_ERROR', `${label} is still ${after ? 'checked' : 'unchecked'} after clicking it.`);
  return { action: want ? 'check' : 'uncheck', target: label, checked: after };
}

export async function act(action: ActionOutcome['action'], target: Target, value: string | undefined, refs: RefRegistry): Promise<ActionOutcome> {
  const { element, label } = resolveTarget(target, refs);
  switch (action) {
    case 'click':
      pointerSequence(await prepare(element, label));
      return { action, target: label };
    case 'fill':
      return fill(element, label, value ?? '');
    case 'select':
      return select(element, label, value ?? '');
    case 'check':
    case 'uncheck':
      return setChecked(element, label, action === 'check');
  }
}
