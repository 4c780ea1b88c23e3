/**
 * A page's own alert, confirmation and prompt boxes, answered while Jawad acts. Such a box holds
 * the page — its scripts and Jawad's page agent alike — until a person closes it, and no extension
 * API can see or close one; only the page's own world can answer in its place. So this runs there
 * (scripting.executeScript with world MAIN, injected with the page agent): while the page agent
 * arms it for an action, a box is answered at once — alert OK; confirm and prompt Cancel, or accept
 * (a prompt with the step's text, if it gives one) when the step gate asked the user — and reported to the page agent. Once the action itself is
 * done, boxes are still answered until the tab's next step has waited for what it set off (an alert
 * in the page's answer to the save request), except one the user's own click or key raises: that
 * box is theirs. Unarmed, every box is the browser's own. The page can see these wrappers, as it
 * can see hover emulation; it can only answer its own boxes with them.
 *
 * Self-contained: executeScript sends this function's source, so it may use nothing from outside.
 */
export function installDialogShim(channel: string): void {
  const installed = `__${channel}`;
  if (installed in window) return;
  Object.defineProperty(window, installed, { value: true });
  // Taken now, so a page that replaces them later cannot break the report.
  const stringify = JSON.stringify;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const native = { alert: window.alert, confirm: window.confirm, prompt: window.prompt };
  let answer: 'accept' | 'cancel' | undefined;
  // What an accepted prompt is answered with; undefined: the page's own suggestion.
  let promptText: string | undefined;
  let afterAction = false;
  const arming: Record<string, typeof answer> = { [`${channel}:accept`]: 'accept', [`${channel}:cancel`]: 'cancel', [`${channel}:disarm`]: undefined };
  for (const [type, armed] of Object.entries(arming)) document.addEventListener(type, () => void ((answer = armed), (afterAction = false)));
  document.addEventListener(`${channel}:after`, () => void (afterAction = true));
  document.addEventListener(`${channel}:accept`, (event) => {
    const detail = (event as CustomEvent).detail;
    promptText = typeof detail === 'string' ? detail : undefined;
  });
  // The box comes from the user's own click or key: the browser's input event being handled now
  // (Jawad's events are never trusted; the page's answer to a request is no input event).
  const byUser = () => {
    const event = (window as { event?: Event }).event;
    return event?.isTrusted === true && event instanceof UIEvent;
  };
  // How Jawad answers a box shown now; undefined: the browser shows it.
  const answerNow = () => (afterAction && byUser() ? undefined : answer);
  const report = (kind: string, message: unknown, answered: string) =>
    dispatch.call(document, new CustomEvent(`${channel}:dialog`, { detail: stringify({ kind, message: String(message ?? ''), answered }) }));
  window.alert = function alert(...args: unknown[]) {
    if (!answerNow()) return native.alert.apply(window, args as [string?]);
    report('alert', args[0], 'ok');
  };
  window.confirm = function confirm(...args: unknown[]) {
    const given = answerNow();
    if (!given) return native.confirm.apply(window, args as [string?]);
    report('confirm', args[0], given);
    return given === 'accept';
  };
  window.prompt = function prompt(...args: unknown[]) {
    const given = answerNow();
    if (!given) return native.prompt.apply(window, args as [string?, string?]);
    report('prompt', args[0], given);
    return given === 'accept' ? (promptText ?? String(args[1] ?? '')) : null;
  };
}
