/**
 * select_option: choosing from a native <select>, an <input list> (datalist), an ARIA listbox, or a
 * combobox / button that opens one — the custom selects of component libraries. Custom widgets are
 * driven as a person would: open by click (else ArrowDown, else typing into an editable combobox),
 * click the option, then check that the widget shows the choice.
 */
import { JawadError } from '../../protocol/errors';
import type { ActionOutcome } from '../../protocol/messages';
import { oneLine } from '../../protocol/caps';
import { afterFrameworks, pointerSequence, prepare, tapKey, waitFor } from './gestures';
import { isTextField, setNativeValue } from './editing';
import { describeOptions, folded, pickOption, type OptionFacts } from './option-match';

const POPUP_TIMEOUT_MS = 800;
const SEARCH_TIMEOUT_MS = 1_500;
const READBACK_TIMEOUT_MS = 1_000;
const CLOSE_TIMEOUT_MS = 200;
const LISTED_IN_MESSAGE = 20;

const roleIs = (element: Element, role: string) => element.getAttribute('role')?.trim().split(/\s+/)[0] === role;
const isSelected = (option: Element) => option.getAttribute('aria-selected') === 'true' || option.getAttribute('aria-checked') === 'true';
const isDisabled = (option: Element) => option.getAttribute('aria-disabled') === 'true' || (option as HTMLOptionElement).disabled === true;

/** Text of an element with its text pieces spaced apart ("Medium<small>chest 96 cm</small>" → "Medium chest 96 cm"). */
function spacedText(element: Element): string {
  const pieces: string[] = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) pieces.push(walker.currentNode.textContent ?? '');
  return oneLine(pieces.join(' '));
}

function optionFacts(option: Element): OptionFacts {
  if (option.localName === 'option') {
    const native = option as HTMLOptionElement;
    return { values: [native.value], text: native.label || native.text };
  }
  const values = [option.getAttribute('data-value'), option.getAttribute('value'), option.id].filter((v): v is string => Boolean(v));
  return { values, text: option.getAttribute('aria-label') ?? spacedText(option) };
}

function referenced(element: Element): Element[] {
  const root = element.getRootNode() as Document | ShadowRoot;
  const ids = `${element.getAttribute('aria-controls') ?? ''} ${element.getAttribute('aria-owns') ?? ''}`.split(/\s+/).filter(Boolean);
  return ids.map((id) => root.getElementById?.(id) ?? document.getElementById(id)).filter((e): e is HTMLElement => e !== null);
}

function opensList(element: Element): boolean {
  const popup = element.getAttribute('aria-haspopup');
  return roleIs(element, 'combobox') || popup === 'listbox' || popup === 'true' || referenced(element).some((e) => roleIs(e, 'listbox'));
}

/** What the target offers to choose from: itself, or the one select-like control inside it (a wrapper a model pointed at). */
function chooserIn(element: Element): Element | undefined {
  const isChooser = (e: Element) => e.localName === 'select' || (e.localName === 'input' && (e as HTMLInputElement).list !== null) || roleIs(e, 'listbox') || opensList(e);
  if (isChooser(element)) return element;
  const inside = element.querySelectorAll('select, input[list], [role=listbox], [role=combobox]');
  return inside.length === 1 ? inside[0] : undefined;
}

const isShown = (element: Element) => {
  const box = element.getBoundingClientRect();
  return element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && box.width > 0 && box.height > 0;
};

const optionsIn = (listbox: Element) => Array.from(listbox.querySelectorAll('[role=option]')).filter(isShown);

function listOptions(facts: readonly OptionFacts[]): string {
  const texts = facts.slice(0, LISTED_IN_MESSAGE).map((f) => `“${oneLine(f.text) || f.values[0]}”`).join(', ');
  return facts.length > LISTED_IN_MESSAGE ? `${texts} and ${facts.length - LISTED_IN_MESSAGE} more` : texts;
}

/** The option meant, or an error that lists the options (none matched) or the candidates (several did). */
function pickOrThrow(options: Element[], wanted: string, label: string): Element {
  const facts = options.map(optionFacts);
  const pick = pickOption(facts, wanted);
  if ('found' in pick) return options[pick.found]!;
  if ('ambiguous' in pick) {
    const candidates = pick.ambiguous.map((i) => facts[i]!);
    throw new JawadError('VALIDATION_ERROR', `“${wanted}” fits several options of ${label}: ${listOptions(candidates)}. Give the exact text or value.`, { options: describeOptions(candidates) });
  }
  const list = facts.length > 0 ? `Its options: ${listOptions(facts)}.` : 'It shows no options.';
  throw new JawadError('NOT_FOUND', `${label} has no option “${wanted}”. ${list}`, { options: describeOptions(facts) });
}

function refuseDisabled(option: Element, label: string): void {
  const inDisabledGroup = option.parentElement?.localName === 'optgroup' && (option.parentElement as HTMLOptGroupElement).disabled;
  if (isDisabled(option) || inDisabledGroup) throw new JawadError('EXECUTION_ERROR', `The option “${optionFacts(option).text}” of ${label} is disabled.`);
}

const selectedTexts = (options: Element[]) => options.filter((o) => (o as HTMLOptionElement).selected || isSelected(o)).map((o) => oneLine(optionFacts(o).text)).join(', ');

async function chooseNative(select: HTMLSelectElement, label: string, wanted: string): Promise<string> {
  await prepare(select, label);
  const option = pickOrThrow(Array.from(select.options), wanted, label) as HTMLOptionElement;
  refuseDisabled(option, label);
  select.focus({ preventScroll: true });
  option.selected = true; // in a multiple select this adds to the choice, as Ctrl+click does
  select.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await afterFrameworks();
  if (!option.selected) throw new JawadError('EXECUTION_ERROR', `${label} went back to “${selectedTexts(Array.from(select.options))}” after “${option.text.trim()}” was chosen: the page refused it.`);
  return selectedTexts(Array.from(select.options));
}

async function chooseSuggestion(input: HTMLInputElement, label: string, wanted: string): Promise<string> {
  await prepare(input, label);
  const option = pickOrThrow(Array.from(input.list?.querySelectorAll('option') ?? []), wanted, label) as HTMLOptionElement;
  refuseDisabled(option, label);
  input.focus({ preventScroll: true });
  setNativeValue(input, option.value);
  await afterFrameworks();
  return input.value;
}

/** Clicks the option, unless that would untick an option already chosen in a multi-select list. */
async function clickOption(option: Element, label: string): Promise<void> {
  refuseDisabled(option, label);
  const listbox = option.closest('[role=listbox]');
  if (isSelected(option) && listbox?.getAttribute('aria-multiselectable') === 'true') return;
  pointerSequence(await prepare(option, `the option “${optionFacts(option).text}” of ${label}`));
  await afterFrameworks();
}

/** The chosen option, found again by its text: frameworks often re-render options on selection. */
function stillSelected(listbox: Element, text: string): boolean {
  return optionsIn(listbox).some((o) => isSelected(o) && oneLine(optionFacts(o).text) === text);
}

async function chooseInListbox(listbox: Element, label: string, wanted: string): Promise<string> {
  const option = pickOrThrow(optionsIn(listbox), wanted, label);
  const text = oneLine(optionFacts(option).text);
  await clickOption(option, label);
  if (!(await waitFor(() => stillSelected(listbox, text), READBACK_TIMEOUT_MS))) {
    throw new JawadError('EXECUTION_ERROR', `“${text}” was clicked in ${label} but is not selected (selected: ${selectedTexts(optionsIn(listbox)) || 'nothing'}).`);
  }
  return selectedTexts(optionsIn(listbox));
}

/** What a combobox shows as its value: an input's text, or the trigger's own text. */
function shownValue(trigger: Element): string {
  return oneLine(isTextField(trigger) ? trigger.value : ((trigger as HTMLElement).innerText ?? trigger.textContent ?? ''));
}

function showsChoice(trigger: Element, facts: OptionFacts): boolean {
  const shown = folded(shownValue(trigger));
  const text = folded(facts.text);
  return shown !== '' && (shown.includes(text) || text.includes(shown) || facts.values.some((v) => folded(v) === shown));
}

/** The listbox a trigger opens: named by aria-controls/aria-owns, inside it, or one that appeared since `before`. */
function popupFinder(trigger: Element): () => Element | undefined {
  const before = new Set(Array.from(document.querySelectorAll('[role=listbox]')).filter(isShown));
  return () => {
    const named = referenced(trigger).map((e) => (roleIs(e, 'listbox') ? e : e.querySelector('[role=listbox]'))).find((e) => e && isShown(e));
    const inside = Array.from(trigger.querySelectorAll('[role=listbox]')).find(isShown);
    const appeared = Array.from(document.querySelectorAll('[role=listbox]')).find((e) => !before.has(e) && isShown(e) && optionsIn(e).length > 0);
    return named ?? inside ?? appeared;
  };
}

/** Where keys go: the focused element when it is inside the trigger (an input in a combobox wrapper), else the trigger. */
function keyTarget(trigger: Element): Element {
  const active = document.activeElement;
  return active && trigger.contains(active) ? active : trigger;
}

async function openPopup(trigger: Element, label: string, popup: () => Element | undefined): Promise<Element | undefined> {
  const open = popup();
  if (open) return open;
  pointerSequence(await prepare(trigger, label));
  const clicked = await waitFor(popup, POPUP_TIMEOUT_MS);
  if (clicked) return clicked;
  tapKey(keyTarget(trigger), 'ArrowDown'); // keyboard users open comboboxes with ArrowDown
  return waitFor(popup, POPUP_TIMEOUT_MS);
}

/** Types the choice into an editable combobox (autocomplete) and waits for an option that fits it. */
async function searchFor(field: HTMLInputElement | HTMLTextAreaElement, wanted: string, popup: () => Element | undefined): Promise<Element | undefined> {
  field.focus({ preventScroll: true });
  setNativeValue(field, wanted, false);
  return waitFor(() => {
    const listbox = popup();
    const options = listbox ? optionsIn(listbox) : [];
    const pick = pickOption(options.map(optionFacts), wanted);
    return 'found' in pick ? options[pick.found] : undefined;
  }, SEARCH_TIMEOUT_MS);
}

/** Closes a popup this action opened: Escape, or else a click on the page outside it, as a person would. */
async function closePopup(trigger: Element, popup: () => Element | undefined): Promise<void> {
  if (!popup()) return;
  tapKey(keyTarget(trigger), 'Escape');
  if (await waitFor(() => !popup(), CLOSE_TIMEOUT_MS)) return;
  pointerSequence(document.body);
}

/**
 * The field a popup's list is searched with: the combobox itself when it is editable, else the
 * search box that says it controls the list (Select2's, in the popup it opens).
 */
function searchFieldOf(trigger: Element, listbox: Element | undefined): HTMLInputElement | HTMLTextAreaElement | undefined {
  if (isTextField(trigger)) return trigger;
  if (!listbox?.id) return undefined;
  const root = listbox.getRootNode() as Document | ShadowRoot;
  const controlling = Array.from(root.querySelectorAll(`[aria-controls~="${CSS.escape(listbox.id)}"]`));
  return controlling.find((field): field is HTMLInputElement | HTMLTextAreaElement => isTextField(field) && isShown(field));
}

/** The option to click in an opened popup; where the list can be searched, typing the choice may bring it up. */
async function findInPopup(trigger: Element, label: string, wanted: string, listbox: Element | undefined, popup: () => Element | undefined): Promise<Element> {
  if (!listbox && !isTextField(trigger)) throw new JawadError('EXECUTION_ERROR', `${label} did not open a list of options when clicked or when ArrowDown was pressed.`);
  // A list that fetches its options shows only a disabled "Searching…" until they come (Select2).
  if (listbox) await waitFor(() => optionsIn(listbox).some((option) => !isDisabled(option)), SEARCH_TIMEOUT_MS);
  const field = searchFieldOf(trigger, listbox);
  let missing: JawadError | undefined;
  if (listbox) {
    try {
      return pickOrThrow(optionsIn(listbox), wanted, label);
    } catch (error) {
      if (!(error instanceof JawadError && error.code === 'NOT_FOUND' && field)) throw error;
      missing = error;
    }
  }
  if (!field) throw new JawadError('EXECUTION_ERROR', `${label} did not open a list of options when clicked or when ArrowDown was pressed.`);
  const typedBefore = field.value;
  const found = await searchFor(field, wanted, popup);
  if (found) return found;
  setNativeValue(field, typedBefore, false);
  throw missing ?? new JawadError('NOT_FOUND', `${label} offers no option “${wanted}”, not even after typing it.`, { options: [] });
}

/** Opens the popup (unless open) and finds the option; a popup this opened is closed again when that fails. */
async function openAndFind(trigger: Element, label: string, wanted: string, popup: () => Element | undefined, wasOpen: boolean): Promise<Element> {
  try {
    const option = await findInPopup(trigger, label, wanted, await openPopup(trigger, label, popup), popup);
    refuseDisabled(option, label);
    return option;
  } catch (error) {
    if (!wasOpen) await closePopup(trigger, popup);
    throw error;
  }
}

/** Waits until the combobox shows the clicked option (its text or value), or the option reads as selected. */
async function confirmShown(trigger: Element, option: Element, label: string, multiple: boolean): Promise<void> {
  const facts = optionFacts(option);
  // In an editable combobox's popup, aria-selected often means "highlighted", not chosen: there only the input's text counts.
  const selected = () => option.isConnected && isSelected(option) && (multiple || !isTextField(trigger));
  if (await waitFor(() => showsChoice(trigger, facts) || selected(), READBACK_TIMEOUT_MS)) return;
  throw new JawadError('EXECUTION_ERROR', `“${oneLine(facts.text)}” was clicked but ${label} shows “${shownValue(trigger)}”.`);
}

async function chooseInPopup(trigger: Element, label: string, wanted: string): Promise<string> {
  const popup = popupFinder(trigger);
  const wasOpen = popup() !== undefined;
  const option = await openAndFind(trigger, label, wanted, popup, wasOpen);
  const listbox = option.closest('[role=listbox]');
  const multiple = listbox?.getAttribute('aria-multiselectable') === 'true';
  await clickOption(option, label);
  await confirmShown(trigger, option, label, multiple);
  if (!multiple || !listbox) return shownValue(trigger);
  const value = selectedTexts(optionsIn(listbox));
  if (!wasOpen) await closePopup(trigger, popup); // a multi-select list stays open for more choices
  return value;
}

/** Chooses `wanted` (a value or visible text) in whatever kind of select the target is, and reports what it then shows. */
export async function selectOption(element: Element, label: string, wanted: string): Promise<ActionOutcome> {
  const chooser = chooserIn(element);
  if (!chooser) throw new JawadError('EXECUTION_ERROR', `${label} is not a drop-down list, list box or combobox.`);
  let value: string;
  if (chooser.localName === 'select') value = await chooseNative(chooser as HTMLSelectElement, label, wanted);
  else if (chooser.localName === 'input' && (chooser as HTMLInputElement).list) value = await chooseSuggestion(chooser as HTMLInputElement, label, wanted);
  else if (roleIs(chooser, 'listbox')) value = await chooseInListbox(chooser, label, wanted);
  else value = await chooseInPopup(chooser, label, wanted);
  return { action: 'select', target: label, value };
}

/** get's "value" for custom widgets: what a combobox shows, what a listbox has selected. */
export function widgetValue(element: Element): string | undefined {
  if (roleIs(element, 'listbox')) return selectedTexts(optionsIn(element));
  if (opensList(element) && !isTextField(element)) return shownValue(element);
  return undefined;
}
