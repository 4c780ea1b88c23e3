/**
 * Acting on the page like a person would, and checking it worked: scroll into view, wait until
 * the element stops moving, refuse when something else would take the click, fire the events
 * frameworks listen to, and read the result back (after the page's framework has re-rendered).
 * The pieces: actions/gestures.ts (pointer and keys), actions/editing.ts (fields and editors),
 * actions/choose.ts (native and custom selects).
 */
import { CAPS, clipText } from '../protocol/caps';
import { JawadError } from '../protocol/errors';
import { RUNS_PAGE_HANDLERS, type ActionOutcome, type ActOptions, type Action, type Target } from '../protocol/messages';
import { selectOption, widgetValue } from './actions/choose';
import { CoveredError, namingWaysPast } from './actions/cover';
import type { DialogAnswers } from './actions/dialogs';
import { type HoverStyles, Pointer } from './actions/pointer';
import { LEAVE_ASKED, LEAVE_WATCH } from './installed-flags';
import { markUnload } from './leave-mark';
import { editingHost, fillText, isEditable, isTextField, keyEdit, textOf, typeText } from './actions/editing';
import { afterFrameworks, keyboardEvent, type Modifiers, mouseInit, pointerSequence, prepare, waitFor } from './actions/gestures';
import type { RefRegistry } from './snapshot/refs';
import { editorText } from './snapshot/name';
import { typedThrough } from './snapshot/roles';
import { secretOf } from './secret';
import { visibleHtml } from './visible-html';
import { VisibleTree, visibleText } from './visibility';

/** How long a checkbox may take to show its new state (a framework re-rendering it). */
const CHECK_READBACK_MS = 500;

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

async function fill(element: Element, label: string, text: string): Promise<ActionOutcome> {
  if (element.localName === 'select') return selectOption(element, label, text);
  if (!isTextField(element) && !isEditable(element)) throw new JawadError('EXECUTION_ERROR', `${label} is a ${element.localName}, not a field that can be filled.`);
  return { action: 'fill', target: label, ...(await fillText(element, label, text)) };
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
    await afterFrameworks();
    await waitFor(() => checkedState(element) === want, CHECK_READBACK_MS);
  }
  const after = checkedState(element);
  if (after !== want) throw new JawadError('EXECUTION_ERROR', `${label} is still ${after ? 'checked' : 'unchecked'} after clicking it.`);
  return { action: want ? 'check' : 'uncheck', target: label, checked: after };
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

export function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

const isActivatable = (target: Element) =>
  target.localName === 'button' || (target.localName === 'a' && target.hasAttribute('href')) || target.getAttribute('role') === 'button';

/** What the browser would do for the key, since synthetic key events do none of it; returns what happened. */
function keyEffect(target: Element, key: string, modifiers: Modifiers): string | undefined {
  const plain = !modifiers.ctrlKey && !modifiers.metaKey && !modifiers.altKey;
  if (plain && isEditable(target)) return keyEdit(target, key);
  if ((key === 'Enter' || key === ' ') && isActivatable(target)) {
    (target as HTMLElement).click();
    return 'clicked';
  }
  return undefined;
}

/**
 * Presses a key on the element (or whatever has focus), with the default actions a person relies
 * on: Enter in a form field submits the form, Enter or Space on a button or link clicks it, and in
 * a text field or editor keys type, delete and break lines.
 */
async function press(resolved: Resolved, keys: string): Promise<ActionOutcome> {
  const { key, modifiers } = parseKeys(keys);
  let target = resolved.isPage ? (deepActiveElement() ?? document.body) : await prepare(resolved.element, resolved.label);
  // Keys go where the editor listens: a contenteditable's host, a code editor's unseen field, which
  // must hold the focus (Monaco takes keys only while it has it).
  target = typedThrough(target) ?? editingHost(target) ?? target;
  if (!resolved.isPage) (target as HTMLElement).focus?.({ preventScroll: true });
  const accepted = target.dispatchEvent(keyboardEvent('keydown', key, modifiers));
  const producesCharacter = key === 'Enter' || [...key].length === 1;
  const pressed = accepted && (!producesCharacter || target.dispatchEvent(keyboardEvent('keypress', key, modifiers)));
  const effect = pressed ? keyEffect(target, key, modifiers) : undefined;
  target.dispatchEvent(keyboardEvent('keyup', key, modifiers));
  return { action: 'press', target: resolved.label, result: { key: keys, defaultPrevented: !accepted, ...(effect ? { effect } : {}) } };
}

async function type(element: Element, label: string, text: string): Promise<ActionOutcome> {
  return { action: 'type', target: label, ...(await typeText(element, label, text)) };
}

/** The pointer comes to rest on the element: `:hover` styles as the page wrote them (actions/pointer.ts), then the events. */
function hover(target: Element, pointer: Pointer): HoverStyles {
  const styles = pointer.rest(target);
  const init = { bubbles: true, cancelable: true, composed: true, view: window };
  target.dispatchEvent(new PointerEvent('pointerover', init));
  target.dispatchEvent(new PointerEvent('pointerenter', { ...init, bubbles: false }));
  target.dispatchEvent(new MouseEvent('mouseover', init));
  target.dispatchEvent(new MouseEvent('mouseenter', { ...init, bubbles: false }));
  target.dispatchEvent(new PointerEvent('pointermove', init));
  target.dispatchEvent(new MouseEvent('mousemove', init));
  return styles;
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

/** A field's value; for editors and custom widgets, what they show as their value. */
function valueOf(element: Element): string | null {
  if (isTextField(element) || element.localName === 'select') return (element as HTMLInputElement).value;
  if (editingHost(element)) return textOf(element);
  if (typedThrough(element)) return editorText(element, undefined);
  return widgetValue(element) ?? (element as HTMLInputElement).value ?? null;
}

/** Reads what was asked, capped. Text and HTML are what a person can see, web components' shadow content included: nothing hidden inside comes along. */
function read(resolved: Resolved, options: ActOptions): unknown {
  const { element, isPage } = resolved;
  const cap = (text: string | null) => (text === null ? null : clipText(text, CAPS.read));
  const root = isPage ? document.body : element;
  switch (options.what ?? 'text') {
    case 'url':
      return clipText(location.href, CAPS.url);
    case 'title':
      return clipText(document.title, CAPS.title);
    case 'value':
      return cap(valueOf(element));
    case 'attribute':
      if (!options.name) throw new JawadError('VALIDATION_ERROR', 'Say which attribute to read (name).');
      if (options.name.toLowerCase() === 'value' && secretOf(element)) throw new JawadError('PERMISSION_DENIED', `${resolved.label} holds a secret: read it with get value, which asks the user.`);
      return cap(element.getAttribute(options.name));
    case 'html':
      return root ? cap(visibleHtml(new VisibleTree(root))) : '';
    default:
      return root ? cap(visibleText(new VisibleTree(root), root, undefined, true)) : '';
  }
}

function test(element: Element, what: ActOptions['what']): boolean {
  switch (what) {
    case 'enabled':
      return !(element as HTMLInputElement).disabled && element.getAttribute('aria-disabled') !== 'true';
    case 'checked':
      return checkedState(element) === true;
    case 'editable':
      return isEditable(element);
    default:
      return element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  }
}

/** Whether a link leads out of this document in this tab (not a new tab, a download or an in-page anchor). */
function leavesDocument(link: HTMLAnchorElement | HTMLAreaElement): boolean {
  if ((link.target && link.target !== '_self') || link.hasAttribute('download')) return false;
  const to = new URL(link.href);
  const here = new URL(location.href);
  if (!to.hash) return true;
  to.hash = '';
  here.hash = '';
  return to.href !== here.href;
}

/** Whether a form's answer opens in this tab's page (not in a frame or a new tab: its button's target, else its own). */
function sentHere(event: SubmitEvent): boolean {
  // The attribute, not `form.target`: a field named "target" would stand in for that property.
  const target = event.submitter?.getAttribute('formtarget') ?? (event.target as Element).getAttribute('target');
  return !target || target === '_self';
}

/**
 * Notices, while an action runs, whether this document now leaves for another page in this tab, so
 * the background knows to wait for it: a link followed or a form sent (an event the page did not
 * cancel), or any navigation the page's script starts (a dropdown's handler sending its form with
 * `form.submit()`, `location.href = …`), which only the Navigation API tells (Chromium; Firefox
 * from 147). A navigation the page then takes over (the Navigation API's `intercept()`: a
 * single-page app's router showing a view of its own) changes the address within the document,
 * which stays. `certain`: nothing more is to come of it — Firefox tells a followed link's `navigate`
 * (and so whether the page takes it over) only in a task after the click's. `to`: the address it
 * leaves for, when the link or the Navigation API names it.
 */
function watchLeaving(): { certain(): boolean; end(): { leaving: boolean; to?: string } } {
  let leaving = false;
  let told = false;
  let to: string | undefined;
  const onClick = (event: Event) => {
    const origin = event.composedPath()[0];
    if (event.defaultPrevented || !(origin instanceof Element) || !leadsAway(origin)) return;
    leaving = true;
    to = (origin.closest('a[href], area[href]') as HTMLAnchorElement | HTMLAreaElement).href;
  };
  const onSubmit = (event: Event) => {
    if (!event.defaultPrevented && sentHere(event as SubmitEvent)) leaving = true;
  };
  // A download, a jump within the page and history.pushState leave the document where it is.
  const onNavigate = (event: NavigateEvent) => {
    told = true;
    if (event.defaultPrevented || event.destination.sameDocument || event.downloadRequest !== null) return;
    leaving = true;
    to = event.destination.url;
  };
  // Fired once a navigation committed within the document: intercepted, or history.pushState.
  const onStayed = () => void (leaving = false);
  // Until the action returns: a "Leave page?" box holds it inside this event (see LEAVE_ASKED). A
  // mark left by a box the user answered before (a tool's navigation, the user's own) is not this action's.
  delete leaveFlag[LEAVE_ASKED];
  const onBeforeUnload = () => void (leaveFlag[LEAVE_ASKED] = true);
  const navigation = navigationApi();
  addEventListener('click', onClick);
  addEventListener('submit', onSubmit);
  addEventListener('beforeunload', onBeforeUnload);
  navigation?.addEventListener('navigate', onNavigate);
  navigation?.addEventListener('currententrychange', onStayed);
  return {
    certain: () => leaving && (told || navigation === undefined),
    end() {
      removeEventListener('click', onClick);
      removeEventListener('submit', onSubmit);
      removeEventListener('beforeunload', onBeforeUnload);
      delete leaveFlag[LEAVE_ASKED];
      navigation?.removeEventListener('navigate', onNavigate);
      navigation?.removeEventListener('currententrychange', onStayed);
      // Firefox begins a link's navigation in a task of its own, which may come after this answer:
      // its box is then marked the way a tool's navigation is, until the background stops watching.
      if (leaving && !told && window === window.top) markUnload(LEAVE_ASKED, LEAVE_WATCH, true);
      return { leaving, ...(leaving && to !== undefined ? { to } : {}) };
    },
  };
}

/** The isolated world's global the background reads (LEAVE_ASKED). */
const leaveFlag = globalThis as typeof globalThis & { [LEAVE_ASKED]?: true };

/** This window's Navigation API, where the browser has it (Firefox before 147 has none). */
const navigationApi = (): Navigation | undefined => (globalThis as { navigation?: Navigation }).navigation;

/** What an action read back is the page's to choose: a value, or a result too long for a prompt, is cut. */
export function capOutcome(outcome: ActionOutcome): ActionOutcome {
  const capped = { ...outcome, target: clipText(outcome.target, CAPS.title) };
  if (capped.value !== undefined) capped.value = clipText(capped.value, CAPS.read);
  if (typeof capped.result === 'string') capped.result = clipText(capped.result, CAPS.read);
  else if (capped.result !== undefined && (JSON.stringify(capped.result)?.length ?? 0) > CAPS.read) capped.result = clipText(JSON.stringify(capped.result), CAPS.read);
  return capped;
}

/** What the frame's page agent acts with: its refs, where its pointer rests, its answers to the page's boxes. */
export interface Hands {
  refs: RefRegistry;
  pointer: Pointer;
  dialogs: DialogAnswers;
}

export async function act(action: Action, target: Target, value: string | undefined, options: ActOptions, hands: Hands): Promise<ActionOutcome> {
  try {
    return await perform(action, target, value, options, hands);
  } catch (error) {
    throw error instanceof CoveredError ? namingWaysPast(error, hands.refs) : error;
  }
}

/** What an action handler is given: the resolved target, the text to fill, type, press or select, and the extra choices. */
interface ActCall {
  resolved: Resolved;
  value: string;
  options: ActOptions;
  refs: RefRegistry;
  pointer: Pointer;
}

async function click({ resolved: { element, label }, refs, pointer }: ActCall): Promise<ActionOutcome> {
  const target = await prepare(element, label);
  refs.noteClicked(element);
  pointer.follow(target);
  const accepted = pointerSequence(target);
  return { action: 'click', target: label, ...(!accepted && leadsAway(target) ? { linkTakenOver: true } : {}) };
}

/** Whether the element is (in) a link that would leave this document if followed. */
function leadsAway(element: Element): boolean {
  const link = element.closest('a[href], area[href]') as HTMLAnchorElement | HTMLAreaElement | null;
  return link !== null && leavesDocument(link);
}

async function doubleClick({ resolved: { element, label }, pointer }: ActCall): Promise<ActionOutcome> {
  const target = await prepare(element, label);
  pointer.follow(target);
  pointerSequence(target, 1);
  pointerSequence(target, 2);
  target.dispatchEvent(new MouseEvent('dblclick', mouseInit(target, 2)));
  return { action: 'dblclick', target: label };
}

/** One handler per action, exhaustive by type: a new action without its handler does not compile. */
const ACTION_HANDLERS: { [A in Action]: (call: ActCall) => ActionOutcome | Promise<ActionOutcome> } = {
  click,
  dblclick: doubleClick,
  hover: async ({ resolved: { element, label }, pointer }) => {
    const styles = hover(await prepare(element, label), pointer);
    await afterFrameworks();
    return { action: 'hover', target: label, result: styles };
  },
  focus: ({ resolved: { element, label } }) => {
    (element as HTMLElement).focus?.();
    return { action: 'focus', target: label, result: { focused: deepActiveElement() === element } };
  },
  fill: ({ resolved: { element, label }, value }) => fill(element, label, value),
  type: ({ resolved: { element, label }, value }) => type(element, label, value),
  press: ({ resolved, value }) => press(resolved, value),
  select: ({ resolved: { element, label }, value }) => selectOption(element, label, value),
  check: ({ resolved: { element, label } }) => setChecked(element, label, true),
  uncheck: ({ resolved: { element, label } }) => setChecked(element, label, false),
  scroll: ({ resolved, options }) => scroll(resolved, options),
  get: ({ resolved, options }) => ({ action: 'get', target: resolved.label, result: read(resolved, options) }),
  is: ({ resolved: { element, label }, options }) => ({ action: 'is', target: label, result: test(element, options.what) }),
};

/** Actions that mean something without an element: a key to whatever has focus, scrolling or reading the page. */
const PAGE_ACTIONS: ReadonlySet<Action> = new Set(['press', 'scroll', 'get']);

async function perform(action: Action, target: Target, value: string | undefined, options: ActOptions, { refs, pointer, dialogs: answers }: Hands): Promise<ActionOutcome> {
  const resolved = resolveTarget(target, refs);
  if (resolved.isPage && !PAGE_ACTIONS.has(action)) throw new JawadError('VALIDATION_ERROR', `${action} needs a ref or a selector.`);
  const call = { resolved, value: value ?? '', options, refs, pointer };
  if (!RUNS_PAGE_HANDLERS.has(action)) return ACTION_HANDLERS[action](call);
  answers.arm(options.acceptDialog === true, options.dialogText);
  const leaving = watchLeaving();
  let outcome: ActionOutcome;
  try {
    outcome = await ACTION_HANDLERS[action](call);
  } catch (error) {
    leaving.end();
    answers.done();
    throw error;
  }
  // The page's handlers get a task to react in (a framework re-renders; a form sent by script,
  // form.submit(), starts leaving in a task of its own), unless the document is surely leaving.
  if (!leaving.certain()) await afterFrameworks();
  const { leaving: navigates, to } = leaving.end();
  const leavingFor = to !== undefined && to.length <= CAPS.url ? { leavingFor: to } : {};
  // Still answered after this, until the background says what the action set off has come (ACTION_DONE).
  const dialogs = answers.actionEnded();
  return { ...outcome, ...(navigates ? { navigates, ...leavingFor } : {}), ...(dialogs.length > 0 ? { dialogs } : {}) };
}
