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
 * The page an action opens may show a box as it loads (`<script>alert("Saved")</script>` in a
 * form's answer page), before any script injected after the load could answer it. For that the
 * shim also runs as the page opens (`asPageOpens`: registered for the sites Jawad acts on, see
 * src/background/tools/opened-pages.ts), and answers when the page was opened by Jawad:
 * - by an action: the acting page agent leaves the action's answers in the tab's sessionStorage
 *   under `channel` (src/content/actions/dialogs.ts), and a page of the same origin opening in
 *   that tab before they expire answers with them;
 * - by a tool's navigation (open_url, reload_tab…), to any origin: the browser adds a `channel`
 *   metric to the Server-Timing of that tab's responses while the tool waits for the page, which
 *   the page reads from its own navigation entry (Firefox gives it only to secure contexts: https,
 *   and http on this machine). A server could send that metric itself; it would only have its own
 *   boxes answered, which it could as well not show.
 * Its boxes are kept in sessionStorage (a page may send the tab on at once) until the new page's
 * agent adopts them.
 *
 * Self-contained: executeScript sends this function's source, so it may use nothing from outside.
 */
export function installDialogShim(channel: string, asPageOpens?: { keepAtMost: number; answerForMs: number }): void {
  const installed = `__${channel}`;
  if (installed in window) return;
  Object.defineProperty(window, installed, { value: true });
  // Taken now, so a page that replaces them later cannot break the report.
  const { parse, stringify } = JSON;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const native = { alert: window.alert, confirm: window.confirm, prompt: window.prompt };
  let answer: 'accept' | 'cancel' | undefined;
  // What an accepted prompt is answered with; undefined: the page's own suggestion.
  let promptText: string | undefined;
  let afterAction = false;
  const arming: Record<string, typeof answer> = { [`${channel}:accept`]: 'accept', [`${channel}:cancel`]: 'cancel', [`${channel}:disarm`]: undefined };
  // An action's own arming also ends the answers a page opened with (openedByAction): their expiry must not disarm it.
  for (const [type, armed] of Object.entries(arming)) document.addEventListener(type, () => void ((answer = armed), (afterAction = false), opening && (opening.open = false)));
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
  const tell = (detail: string) => dispatch.call(document, new CustomEvent(`${channel}:dialog`, { detail }));
  const opening = asPageOpens && openedByAction();
  const report = (kind: string, message: unknown, answered: string) => {
    const detail = stringify({ kind, message: String(message ?? ''), answered, ...(opening?.open && opening.mark.byTool === true ? { openedByTool: true } : {}) });
    if (!opening?.open || !opening.keeps) return tell(detail);
    if (opening.mark.told.length < asPageOpens!.keepAtMost) opening.keep({ ...opening.mark, told: [...opening.mark.told, detail] });
  };
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

  /**
   * The answers the tab's previous page of this origin left for the page it was opening, or those
   * of the tool whose navigation opened it, while they hold: this page answers with them as it
   * loads. Its agent adopts what was answered. Only a page in the kind of frame that acted (the
   * tab's page, or a frame in it; a tool's navigation acts on the page) keeps its boxes for the
   * agent: its frames answer theirs, untold, so they do not take the page's.
   */
  function openedByAction() {
    let storage: Storage | undefined;
    try {
      storage = window.sessionStorage;
    } catch {
      // An opaque origin (a sandboxed frame) has no storage: nothing was left there.
    }
    const { setItem } = Storage.prototype;
    // A tool's navigation answers for itself (cancel), whatever an earlier action left; the boxes
    // left untold by the tab's previous page are kept.
    const leftByAction = leftInTab(storage);
    const byNavigation = markedByNavigation();
    const mark = byNavigation ? { ...byNavigation, told: leftByAction?.told ?? [] } : leftByAction;
    if (!mark) return undefined;
    const left = Number(mark.until) - Date.now();
    if (!(left > 0) || (mark.answer !== 'accept' && mark.answer !== 'cancel')) return undefined;
    answer = mark.answer;
    promptText = typeof mark.text === 'string' ? mark.text : undefined;
    afterAction = true;
    type Mark = typeof mark & { told: string[] };
    const state = {
      open: true,
      keeps: (mark.inFrame === true) === (window !== window.top),
      mark: { ...mark, told: Array.isArray(mark.told) ? mark.told.filter((told): told is string => typeof told === 'string') : [] } as Mark,
      keep(next: Mark) {
        state.mark = next;
        try {
          if (storage) setItem.call(storage, channel, stringify(next));
        } catch {
          // Storage full or refused: the box was answered all the same, only not told.
        }
      },
    };
    // Until the page agent adopts them or arms for an action of its own, or they expire (no next step came).
    setTimeout(() => void (state.open && ((state.open = false), (answer = undefined))), left);
    document.addEventListener(`${channel}:adopt`, () => {
      if (!state.open || !state.keeps) return;
      state.open = false;
      dispatch.call(document, new CustomEvent(`${channel}:adopted`, { detail: String(Number(mark.until) - Date.now()) }));
      for (const detail of state.mark.told) tell(detail);
      state.keep({ ...state.mark, told: [] });
    });
    return state;
  }

  // byTool: the answers of a tool's navigation (markedByNavigation), kept for a page that one sends the tab on to.
  type Left = { answer?: unknown; text?: unknown; until?: unknown; told?: unknown; inFrame?: unknown; byTool?: unknown };

  /** The answers a page of this origin left in the tab, while they hold. */
  function leftInTab(storage: Storage | undefined): Left | undefined {
    try {
      const mark = storage && (parse(Storage.prototype.getItem.call(storage, channel) ?? 'null') as Left | null);
      return mark && Number(mark.until) > Date.now() ? mark : undefined;
    } catch {
      return undefined; // Not JSON: nothing of ours was left.
    }
  }

  /** The answer a tool's navigation marked this page's response with (Server-Timing `channel;desc=cancel`). */
  function markedByNavigation(): Left | undefined {
    try {
      const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      const answerGiven = entry?.serverTiming?.find((metric) => metric.name === channel)?.description;
      return answerGiven ? { answer: answerGiven, until: Date.now() + asPageOpens!.answerForMs, told: [], byTool: true } : undefined;
    } catch {
      return undefined; // No timing to read: the page was not marked.
    }
  }
}
