/**
 * Acting on the page like a person would, and checking it worked: scroll into view, wait until
 * the element stops moving, refuse when something else would take the click, and read the value
 * back after changing it. Frameworks learn of a new value from input/change events, so those are
 * always sent. The value goes through the prototype's native setter: from this isolated world a
 * page's own `value` override (React's value tracker) is invisible anyway, and the native setter
 * keeps that true should this code ever run in the page's world.
 */
import { JawadError } from '../protocol/errors';
import type { ActionOutcome, ActOptions, Action, Target } from '../protocol/messages';
import type { RefRegistry } from './snapshot/refs';
import { coveredBy, isStyledChoice } from './snapshot/walk';

const STABLE_FRAMES = 2;
const STABLE_TIMEOUT_MS = 1_000;

const MAX_READ = 20_000;
const MAX_KEYSTROKES = 2_000;

interface Resolved {
  element: Element;
  label: string;
  /** No ref or selector: the action is about the page itself. */
  isPage: boolean;
}

export function resolveTarget(target: Target, refs: RefRegistry): Resolved {
  if (target.ref) return { element: refs.resolve(target.ref), label: target.ref, isPage: false };
  if (!target.selector) return { element: document.scrollingElement ?? document.documentElement, label: 'the page', isPage: true };
  let element: Element | null;
  try {
    element = document.querySelector(target.selector);
  } catch {
    throw new JawadError('VALIDATION_ERROR', `${target.selector} is not a valid CSS selector.`);
  }
  if (!element) throw new JawadError('NOT_FOUND', `Nothing on the page matches ${target.selector}.`);
  return { element, label: target.selector, isPage: false };
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

function keyboardEvent(type: string, key: string, modifiers: Modifiers): KeyboardEvent {
  const code = key.length === 1 ? (/[a-z]/i.test(key) ? `Key${key.toUpperCase()}` : /\d/.test(key) ? `Digit${key}` : '') : key;
  return new KeyboardEvent(type, { key, code, bubbles: true, cancelable: true, composed: true, ...modifiers });
}

interface Modifiers {
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

/** "Control+Shift+a" → the key and its modifiers. */
export function parseKeys(keys: string): { key: string; modifiers: Modifiers } {
  const parts = keys.split('+').map((part) => part.trim()).filter(Boolean);
  const key = parts.pop();
  if (!key) throw new JawadError('VALIDATION_ERROR', 'Say which key to press, e.g. "Enter" or "Control+a".');
  const names = new Set(parts.map((part) => part.toLowerCase()));
  return {
    key: key.length === 1 ? key : key[0]!.toUpperCase() + key.slice(1),
    modifiers: { ctrlKey: names.has('control') || names.has('ctrl'), shiftKey: names.has('shift'), altKey: names.has('alt'), metaKey: names.has('meta') || names.has('cmd') },
  };
}

function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/**
 * Presses a key on the element (or whatever has focus). Synthetic key events do not trigger the
 * browser's own default actions, so the ones a person relies on are carried out here: Enter in a
 * form field submits the form, Enter or Space on a button or link clicks it.
 */
async function press(resolved: Resolved, keys: string): Promise<ActionOutcome> {
  const { key, modifiers } = parseKeys(keys);
  let target = resolved.isPage ? (deepActiveElement() ?? document.body) : resolved.element;
  if (!resolved.isPage) {
    target = await prepare(target, resolved.label);
    (target as HTMLElement).focus?.({ preventScroll: true });
  }
  const accepted = target.dispatchEvent(keyboardEvent('keydown', key, modifiers));
  let effect: string | undefined;
  if (accepted && key === 'Enter' && isTextField(target) && target.localName === 'input' && target.form) {
    target.form.requestSubmit();
    effect = 'submitted the form';
  } else if (accepted && (key === 'Enter' || key === ' ') && (target.localName === 'button' || (target.localName === 'a' && target.hasAttribute('href')) || target.getAttribute('role') === 'button')) {
    (target as HTMLElement).click();
    effect = 'clicked';
  }
  target.dispatchEvent(keyboardEvent('keyup', key, modifiers));
  return { action: 'press', target: resolved.label, result: { key: keys, defaultPrevented: !accepted, ...(effect ? { effect } : {}) } };
}

/** Types after what is already there, one keystroke at a time, like a person. */
async function type(element: Element, label: string, text: string): Promise<ActionOutcome> {
  await prepare(element, label);
  const field = element as HTMLInputElement;
  const editable = isTextField(element) || (element as HTMLElement).isContentEditable;
  if (!editable) throw new JawadError('EXECUTION_ERROR', `${label} is a ${element.localName}, not a field that can be typed into.`);
  (element as HTMLElement).focus({ preventScroll: true });
  if (isTextField(element)) {
    field.setSelectionRange?.(field.value.length, field.value.length);
  } else {
    getSelection()?.selectAllChildren(element);
    getSelection()?.collapseToEnd();
  }
  const keystrokes = text.length <= MAX_KEYSTROKES ? Array.from(text) : [text];
  for (const chunk of keystrokes) {
    const none = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
    const accepted = element.dispatchEvent(keyboardEvent('keydown', chunk, none));
    if (accepted) document.execCommand('insertText', false, chunk);
    element.dispatchEvent(keyboardEvent('keyup', chunk, none));
  }
  return { action: 'type', target: label, value: isTextField(element) ? field.value : (element as HTMLElement).innerText };
}

function hover(target: Element): void {
  const init = { bubbles: true, cancelable: true, composed: true, view: window };
  target.dispatchEvent(new PointerEvent('pointerover', init));
  target.dispatchEvent(new PointerEvent('pointerenter', { ...init, bubbles: false }));
  target.dispatchEvent(new MouseEvent('mouseover', init));
  target.dispatchEvent(new MouseEvent('mouseenter', { ...init, bubbles: false }));
  target.dispatchEvent(new PointerEvent('pointermove', init));
  target.dispatchEvent(new MouseEvent('mousemove', init));
}

function scroll(resolved: Resolved, options: ActOptions): ActionOutcome {
  const { element, label, isPage } = resolved;
  if (!isPage && !options.direction) {
    element.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    return { action: 'scroll', target: label, result: { scrolledTo: label } };
  }
  const box = isPage ? { width: innerWidth, height: innerHeight } : element.getBoundingClientRect();
  const step = options.amount ?? Math.round((options.direction === 'left' || options.direction === 'right' ? box.width : box.height) * 0.8);
  const moves: Record<NonNullable<ActOptions['direction']>, ScrollToOptions> = {
    up: { top: -step }, down: { top: step }, left: { left: -step }, right: { left: step }, top: { top: -element.scrollHeight }, bottom: { top: element.scrollHeight },
  };
  element.scrollBy({ ...moves[options.direction ?? 'down'], behavior: 'instant' });
  const atEnd = element.scrollTop + element.clientHeight >= element.scrollHeight - 1;
  return { action: 'scroll', target: label, result: { x: Math.round(element.scrollLeft), y: Math.round(element.scrollTop), atEnd } };
}

function read(resolved: Resolved, options: ActOptions): unknown {
  const { element, isPage } = resolved;
  const cap = (text: string) => (text.length > MAX_READ ? `${text.slice(0, MAX_READ)}…` : text);
  switch (options.what ?? 'text') {
    case 'url':
      return location.href;
    case 'title':
      return document.title;
    case 'value':
      return (element as HTMLInputElement).value ?? null;
    case 'attribute':
      if (!options.name) throw new JawadError('VALIDATION_ERROR', 'Say which attribute to read (name).');
      return element.getAttribute(options.name);
    case 'html':
      return cap(isPage ? document.documentElement.outerHTML : element.outerHTML);
    default:
      return cap((isPage ? document.body : (element as HTMLElement)).innerText ?? '');
  }
}

function test(element: Element, what: ActOptions['what']): boolean {
  switch (what) {
    case 'enabled':
      return !(element as HTMLInputElement).disabled && element.getAttribute('aria-disabled') !== 'true';
    case 'checked':
      return checkedState(element) === true;
    case 'editable':
      return (isTextField(element) && !(element as HTMLInputElement).readOnly && !(element as HTMLInputElement).disabled) || (element as HTMLElement).isContentEditable;
    default:
      return element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  }
}

export async function act(action: Action, target: Target, value: string | undefined, options: ActOptions, refs: RefRegistry): Promise<ActionOutcome> {
  const resolved = resolveTarget(target, refs);
  const { element, label, isPage } = resolved;
  const needsElement = !['press', 'scroll', 'get'].includes(action);
  if (isPage && needsElement) throw new JawadError('VALIDATION_ERROR', `${action} needs a ref or a selector.`);
  switch (action) {
    case 'click':
      pointerSequence(await prepare(element, label));
      return { action, target: label };
    case 'dblclick': {
      const clicked = await prepare(element, label);
      pointerSequence(clicked);
      pointerSequence(clicked);
      clicked.dispatchEvent(new MouseEvent('dblclick', { bubbles: true, cancelable: true, composed: true, view: window, detail: 2 }));
      return { action, target: label };
    }
    case 'hover':
      hover(await prepare(element, label));
      return { action, target: label };
    case 'focus':
      (element as HTMLElement).focus?.();
      return { action, target: label, result: { focused: deepActiveElement() === element } };
    case 'fill':
      return fill(element, label, value ?? '');
    case 'type':
      return type(element, label, value ?? '');
    case 'press':
      return press(resolved, value ?? '');
    case 'select':
      return select(element, label, value ?? '');
    case 'check':
    case 'uncheck':
      return setChecked(element, label, action === 'check');
    case 'scroll':
      return scroll(resolved, options);
    case 'get':
      return { action, target: label, result: read(resolved, options) };
    case 'is':
      return { action, target: label, result: test(element, options.what) };
  }
}
