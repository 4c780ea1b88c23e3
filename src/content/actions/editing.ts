/**
 * Changing text the way the page expects to hear about it.
 *
 * Text fields: the value goes through the prototype's native setter and input/change follow. From
 * this isolated world a page's own `value` override (React's value tracker) is invisible anyway, and
 * the native setter keeps that true should this code ever run in the page's world.
 *
 * Typing, and editors (contenteditable): each edit is announced with a cancelable `beforeinput`
 * first, because editors such as Lexical, Slate and ProseMirror cancel it and apply the edit to
 * their own model. If the page lets it through, `execCommand` makes the edit, which the browser
 * follows with a real `input` event (Chromium's `execCommand` sends no beforeinput; Firefox's does,
 * and the page is kept from hearing of the edit twice).
 */
import { JawadError } from '../../protocol/errors';
import { editorText } from '../snapshot/name';
import { editContextOf, isEditingHost, typedThrough, type EditContextLike } from '../snapshot/roles';
import { afterFrameworks, afterNextFrame, keyboardEvent, NO_MODIFIERS, prepare, tapKey, type Modifiers } from './gestures';
import { INVISIBLE } from '../visibility';

const MAX_KEYSTROKES = 2_000;
/** Keystrokes after this many stop waiting for the page between keys, so long texts stay quick. */
const PACED_KEYSTROKES = 200;

type TextField = HTMLInputElement | HTMLTextAreaElement;
type EditType = 'insertText' | 'insertParagraph' | 'insertLineBreak' | 'deleteContentBackward' | 'deleteContentForward';

const NOT_TEXT = ['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color', 'hidden'];

export function isTextField(element: Element): element is TextField {
  if (element.localName === 'textarea') return true;
  return element.localName === 'input' && !NOT_TEXT.includes((element as HTMLInputElement).type);
}

/** The element that owns the editing: contenteditable regions nest, and the outermost one is the editor. */
export function editingHost(element: Element): HTMLElement | null {
  if (!(element as HTMLElement).isContentEditable) return null;
  let host = element as HTMLElement;
  while (!isEditingHost(host)) host = host.parentElement!;
  return host;
}

export function isEditable(element: Element): boolean {
  if (typedThrough(element) || editContextOf(element)) return true;
  return isTextField(element) ? !element.readOnly && !element.disabled : editingHost(element) !== null;
}

/**
 * What a text field or an editor holds now. An editor writes a space typed at the end of a line,
 * or after another, as a no-break space (it would collapse otherwise): it reads as the space it was.
 */
export function textOf(element: Element): string {
  if (isTextField(element)) return element.value;
  const text = (element as HTMLElement).innerText;
  return (text.endsWith('\n') && endsInUnseenBreak(element) ? text.slice(0, -1) : text).replace(INVISIBLE, '').replace(/\u00a0/g, ' ');
}

/** The block a node's line belongs to: its nearest ancestor that is not laid out inline. */
function blockOf(node: Node): Element | null {
  let element = node.parentElement;
  while (element && getComputedStyle(element).display.startsWith('inline')) element = element.parentElement;
  return element;
}

/**
 * Whether the editor's text ends in a `<br>` after text of the same line. That break shows no line
 * of its own (editors leave one there to hold the line open: Firefox's `<br type="_moz">`), but
 * innerText counts it as a line break.
 */
function endsInUnseenBreak(host: Element): boolean {
  const shown = (node: Node) => node.nodeName === 'BR' || (node.nodeType === Node.TEXT_NODE && /\S/.test((node.textContent ?? '').replace(INVISIBLE, '')));
  const walker = document.createTreeWalker(host, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  let [previous, last]: Array<Node | null> = [null, null];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (shown(node)) [previous, last] = [last, node];
  return last?.nodeName === 'BR' && previous?.nodeType === Node.TEXT_NODE && blockOf(previous) === blockOf(last);
}

/** Sets a field's value as the user would have typed it: input (inputType insertReplacementText), and change when done. */
export function setNativeValue(element: TextField | HTMLSelectElement, value: string, commit = true): void {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), 'value')?.set;
  if (setter) setter.call(element, value);
  else element.value = value;
  element.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText', data: value }));
  if (commit) element.dispatchEvent(new Event('change', { bubbles: true }));
}

function refuseUneditable(element: Element, label: string): void {
  if (isTextField(element) && (element.disabled || element.readOnly)) {
    throw new JawadError('EXECUTION_ERROR', `${label} cannot be edited (it is ${element.disabled ? 'disabled' : 'read-only'}).`);
  }
  if (!isEditable(element)) throw new JawadError('EXECUTION_ERROR', `${label} is a ${element.localName}, not a field that can be typed into.`);
}

/**
 * execCommand, with the page told of the edit once: Firefox announces an execCommand edit with a
 * `beforeinput` of its own, after the one the page already let through (`announce`), and editors
 * that leave a typed character to the browser and apply it to their model for each such event
 * (Slate's native path) typed it twice. The browser's own is kept from the page.
 */
function execCommandAnnounced(command: string, argument: string | undefined): boolean {
  const hush = (event: Event) => event.stopImmediatePropagation();
  addEventListener('beforeinput', hush, { capture: true });
  try {
    return document.execCommand(command, false, argument);
  } finally {
    removeEventListener('beforeinput', hush, { capture: true });
  }
}

/** Runs the edit the browser would make, or a plain DOM equivalent when execCommand refuses. */
function applyEdit(target: Element, type: EditType, data: string | null): void {
  const command = { insertText: 'insertText', insertParagraph: 'insertParagraph', insertLineBreak: 'insertText', deleteContentBackward: 'delete', deleteContentForward: 'forwardDelete' }[type];
  const argument = type === 'insertLineBreak' ? '\n' : (data ?? undefined);
  if (execCommandAnnounced(command, argument)) return;
  if (isTextField(target) && (type === 'insertText' || type === 'insertLineBreak')) {
    target.setRangeText(argument ?? '', target.selectionStart ?? target.value.length, target.selectionEnd ?? target.value.length, 'end');
    target.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: type, data }));
    return;
  }
  throw new JawadError('EXECUTION_ERROR', `The browser refused to edit the text (${type}).`);
}

/** Tells the page an edit is coming; false when the page cancelled it (to make the edit itself, or to refuse it). */
function announce(target: Element, type: EditType, data: string | null): boolean {
  return target.dispatchEvent(new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType: type, data }));
}

/** One edit: beforeinput, then the edit unless the page cancelled it. */
export function edit(target: Element, type: EditType, data: string | null = null): void {
  if (!announce(target, type, data)) return;
  const context = editContextOf(target);
  if (context) editContextEdit(context, type, data);
  else applyEdit(target, type, data);
}

/**
 * Email and number fields have no caret a script may place (setSelectionRange throws), so typing
 * into them sets the value with the new text added, as one input event per key.
 */
function caretToEnd(element: Element): boolean {
  if (!isTextField(element)) {
    if (!caretAfterText(element)) getSelection()?.collapse(...endOfText(element));
    return true;
  }
  try {
    element.setSelectionRange(element.value.length, element.value.length);
    return true;
  } catch {
    return false;
  }
}

/** Whitespace with a line break in it: the source's layout between blocks, not typed text. */
const SOURCE_LINE_BREAK = /^[ \t\r\n]*\n[ \t\r\n]*$/;
/** Elements the caret cannot go into: it goes after them. */
const CARET_STOPS = new Set(['img', 'hr', 'input', 'textarea', 'select', 'button', 'video', 'audio', 'iframe', 'svg', 'canvas', 'object', 'embed']);
const CARET_STOP_SELECTOR = [...CARET_STOPS].join(',');

/**
 * Where a click after an editor's last word puts the caret: inside its last line (before the
 * `<br>` that only holds an empty line open), not after its last block. Firefox keeps a caret
 * collapsed at the editor's very end there, between blocks, and text typed at it became a block
 * of its own (ProseMirror made it a new paragraph, and dropped a space typed there); Chromium
 * moves such a caret into the text by itself.
 */
function endOfText(host: Element): [Node, number] {
  let container: Node = host;
  for (;;) {
    const children = Array.from(container.childNodes);
    // Comments and the source's line breaks between blocks hold no text a person could type after.
    const lastIndex = children.findLastIndex((child) => child.nodeType === Node.ELEMENT_NODE || (child.nodeType === Node.TEXT_NODE && child.textContent !== '' && !SOURCE_LINE_BREAK.test(child.textContent!)));
    const last = children[lastIndex];
    if (!last) return [container, children.length];
    if (last.nodeType === Node.TEXT_NODE) return [last, (last as Text).length];
    const element = last as HTMLElement;
    if (element.localName === 'br') return [container, lastIndex];
    if (CARET_STOPS.has(element.localName) || !element.isContentEditable) return [container, lastIndex + 1];
    container = element;
  }
}

/**
 * Whether the caret already stands after the editor's last text, inside a line: there it stays, as
 * the editor may have put a style to type in around it (CKEditor's Bold with nothing selected
 * leaves an empty `<strong>` holding the caret in Firefox, a filler character in Chromium).
 */
function caretAfterText(host: Element): boolean {
  const selection = getSelection();
  if (!selection?.isCollapsed || selection.rangeCount === 0) return false;
  const { endContainer, endOffset } = selection.getRangeAt(0);
  if (endContainer === host || !host.contains(endContainer)) return false;
  const rest = document.createRange();
  rest.setStart(endContainer, endOffset);
  rest.setEnd(host, host.childNodes.length);
  const after = rest.cloneContents();
  return (after.textContent ?? '').replace(INVISIBLE, '').replace(/[\r\n]/g, '') === '' && !after.querySelector(CARET_STOP_SELECTOR);
}

function insertKeyText(target: Element, text: string, caretPlaced: boolean): void {
  if (caretPlaced || !isTextField(target)) {
    edit(target, 'insertText', text);
    return;
  }
  if (!announce(target, 'insertText', text)) return;
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(target), 'value')?.set;
  setter?.call(target, target.value + text);
  target.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: text }));
}

/** Enter in a one-line field submits its form, as the browser's implicit submission does; returns what happened. */
function submitOnEnter(target: Element): string | undefined {
  if (target.localName !== 'input' || !isTextField(target) || !target.form) return undefined;
  target.form.requestSubmit();
  return 'submitted the form';
}

/**
 * What a key does inside an editable element once the page has let keydown through: Backspace
 * and Delete delete, Enter breaks the line, a printable key inserts itself. Returns what happened.
 */
export function keyEdit(target: Element, key: string, caretPlaced = true): string | undefined {
  if (key === 'Backspace' || key === 'Delete') {
    edit(target, key === 'Backspace' ? 'deleteContentBackward' : 'deleteContentForward');
    return 'deleted';
  }
  if (key === 'Enter') {
    if (target.localName === 'input') return submitOnEnter(target);
    edit(target, isTextField(target) ? 'insertLineBreak' : 'insertParagraph');
    return 'new line';
  }
  if ([...key].length !== 1) return undefined; // Tab, Escape, arrows…: nothing to insert
  insertKeyText(target, key, caretPlaced);
  return 'typed';
}

/** A person's keystroke: keydown, keypress, the edit (beforeinput, input), keyup. */
function keystroke(target: Element, text: string, caretPlaced: boolean): void {
  const key = text === '\n' ? 'Enter' : text;
  if (target.dispatchEvent(keyboardEvent('keydown', key, NO_MODIFIERS)) && target.dispatchEvent(keyboardEvent('keypress', key, NO_MODIFIERS))) {
    if (key === 'Enter') keyEdit(target, key, caretPlaced);
    else insertKeyText(target, text, caretPlaced);
  }
  target.dispatchEvent(keyboardEvent('keyup', key, NO_MODIFIERS));
}

/** Types after what is already there, one keystroke at a time, like a person. */
export async function typeText(element: Element, label: string, text: string): Promise<{ value: string }> {
  const field = typedThrough(element);
  if (field) return editThrough(element, field, label, text, false);
  await prepare(element, label);
  refuseUneditable(element, label);
  const target = editingHost(element) ?? element;
  (target as HTMLElement).focus({ preventScroll: true });
  const caretPlaced = caretToEnd(target);
  const keystrokes = text.length <= MAX_KEYSTROKES ? Array.from(text.replace(/\r\n?/g, '\n')) : [text];
  for (const [index, chunk] of keystrokes.entries()) {
    keystroke(target, chunk, caretPlaced);
    if (index < PACED_KEYSTROKES) await afterFrameworks(); // an autocomplete reacts to each key
  }
  await afterFrameworks();
  return { value: textOf(target) };
}

/**
 * The key-up a typist's last key of `text` gives (Backspace for no text): editors that copy their
 * content into a hidden form field on key events (Adminer's SQL editor) otherwise send the old text.
 */
function lastKeyUp(target: Element, text: string): void {
  const last = [...text].at(-1);
  target.dispatchEvent(keyboardEvent('keyup', last === undefined ? 'Backspace' : last === '\n' ? 'Enter' : last, NO_MODIFIERS));
}

/**
 * Replaces an editor's whole content: select it all, then insert the text line by line (Enter
 * between lines). It ends with the key-up a typist's last key gives: editors that copy their
 * content into a hidden form field on key events (Adminer's SQL editor) otherwise submit the old text.
 */
function fillEditor(host: HTMLElement, text: string): void {
  host.focus({ preventScroll: true });
  getSelection()?.selectAllChildren(host);
  if (!text) {
    edit(host, 'deleteContentBackward');
  } else {
    text.replace(/\r\n?/g, '\n').split('\n').forEach((line, index) => {
      if (index > 0) edit(host, 'insertParagraph');
      if (line) edit(host, 'insertText', line);
    });
  }
  lastKeyUp(host, text);
}

/** The modifier of editing commands (select all, to the end) as the platform spells it: ⌘ on a Mac, else Ctrl. */
const commandKey = (): Modifiers => (/^Mac/.test(navigator.platform) ? { ...NO_MODIFIERS, metaKey: true } : { ...NO_MODIFIERS, ctrlKey: true });

/** What Chromium's EditContext events are made of (TypeScript's DOM types do not have them yet). */
type TextUpdateInit = { text: string; updateRangeStart: number; updateRangeEnd: number; selectionStart: number; selectionEnd: number };
type TextUpdateEventClass = new (type: 'textupdate', init: TextUpdateInit) => Event;

/**
 * An edit of an element that takes typing through an EditContext (Monaco in Chromium), made as the
 * browser makes it there: it never changes the page itself. Text, and a deletion, change the
 * context's text and are told by its `textupdate` event, the only one such an editor hears them
 * from; a line break is the `beforeinput` alone, which the editor acts on.
 */
function editContextEdit(context: EditContextLike, type: EditType, data: string | null): void {
  if (type === 'insertParagraph' || type === 'insertLineBreak') return;
  const text = type === 'insertText' ? (data ?? '') : '';
  let [start, end] = [Math.min(context.selectionStart, context.selectionEnd), Math.max(context.selectionStart, context.selectionEnd)];
  if (start === end && type === 'deleteContentBackward') start = Math.max(0, start - 1);
  if (start === end && type === 'deleteContentForward') end = Math.min(context.text.length, end + 1);
  const caret = start + text.length;
  context.updateText(start, end, text);
  context.updateSelection(caret, caret);
  const TextUpdateEvent = (globalThis as unknown as { TextUpdateEvent: TextUpdateEventClass }).TextUpdateEvent;
  context.dispatchEvent(new TextUpdateEvent('textupdate', { text, updateRangeStart: start, updateRangeEnd: end, selectionStart: caret, selectionEnd: caret }));
}

/**
 * A code editor typed into through a field nobody sees (CodeMirror 5, Ace, Monaco; typedThrough):
 * the box is what a person clicks and reads, the field is where the keys go, and the editor applies
 * what arrives there to its own text. Its text is not in the field, so replacing it starts with the
 * editor's own select-all key, and typing after it with its own Ctrl+End.
 */
async function editThrough(box: Element, field: HTMLElement, label: string, text: string, replace: boolean): Promise<{ value: string }> {
  await prepare(box, label);
  refuseUneditable(field, label);
  field.focus({ preventScroll: true });
  if (replace) tapKey(field, 'a', commandKey());
  else tapKey(field, 'End', commandKey());
  await afterFrameworks();
  if (text) edit(field, 'insertText', text.replace(/\r\n?/g, '\n'));
  else if (replace) edit(field, 'deleteContentBackward');
  lastKeyUp(field, text);
  await afterFrameworks();
  await afterNextFrame();
  // What the editor shows, as the snapshot reads it: its text, not its line numbers.
  return { value: editorText(box, undefined) };
}

/** Replaces the text of a field or editor and reports what it holds afterwards. */
export async function fillText(element: Element, label: string, text: string): Promise<{ value: string }> {
  const field = typedThrough(element);
  if (field) return editThrough(element, field, label, text, true);
  await prepare(element, label);
  refuseUneditable(element, label);
  const host = editingHost(element);
  if (host) {
    fillEditor(host, text);
  } else {
    (element as HTMLElement).focus({ preventScroll: true });
    setNativeValue(element as TextField, text);
  }
  await afterFrameworks();
  return { value: textOf(host ?? element) };
}
