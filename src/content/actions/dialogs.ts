import { CAPS, clipText } from '../../protocol/caps';
import { DIALOG_AFTERMATH_MS, DIALOG_CHANNEL, MAX_DIALOGS_LISTED, PageDialog } from '../../protocol/dialogs';

/**
 * This frame's side of the page-world dialog shim (src/content/dialog-shim.ts). While an action
 * runs, and after it until the tab's next step has waited for what it set off (the page's answer
 * to a request; at most DIALOG_AFTERMATH_MS), a box the page shows is answered at once (alert OK;
 * confirm and prompt accepted only when the step accepts them, else cancelled) instead of holding
 * the page, and listed. What the page reports is the page's to forge, so it is checked and capped
 * like any page text.
 *
 * The action's answers are also left in the tab's sessionStorage for this origin while they hold,
 * for a page the action opens to answer its boxes as it loads (the shim's `asPageOpens`); made on
 * such a page, this adopts what was answered there, as the aftermath of the action that opened it.
 */
export class DialogAnswers {
  private shown: PageDialog[] = [];
  private afterAction = false;
  private armed = false;
  private safety: ReturnType<typeof setTimeout> | undefined;
  /** The action's answers, left for a page it opens. */
  private answers: LeftAnswers | undefined;

  constructor() {
    const onAdopted = (event: Event) => {
      const left = Number((event as CustomEvent).detail);
      if (!(left > 0)) return;
      this.listen();
      this.afterAction = true;
      this.safety = setTimeout(() => this.disarm(), Math.min(left, DIALOG_AFTERMATH_MS));
    };
    // The shim answers at once (events are dispatched synchronously, across worlds too), then tells what it answered.
    document.addEventListener(`${DIALOG_CHANNEL}:adopted`, onAdopted);
    document.dispatchEvent(new Event(`${DIALOG_CHANNEL}:adopt`));
    document.removeEventListener(`${DIALOG_CHANNEL}:adopted`, onAdopted);
  }

  private readonly onDialog = (event: Event) => {
    let reported: unknown;
    try {
      reported = JSON.parse(String((event as CustomEvent).detail));
    } catch {
      return;
    }
    const dialog = PageDialog.safeParse({ ...(reported as object), message: clipText(String((reported as { message?: unknown } | null)?.message ?? ''), CAPS.dialog), afterAction: this.afterAction || undefined });
    if (dialog.success && this.shown.length < MAX_DIALOGS_LISTED) this.shown.push(dialog.data);
  };

  /**
   * An action begins: from now the page's boxes are answered and listed. `accept`: confirm and
   * prompt are accepted too, a prompt with `text` when given (else with the page's suggestion).
   * A page the action opens answers as it loads with these answers.
   */
  arm(accept: boolean, text?: string): void {
    this.done();
    this.listen();
    if (accept) document.dispatchEvent(new CustomEvent(`${DIALOG_CHANNEL}:accept`, { detail: text ?? null }));
    else signal('cancel');
    this.answers = { answer: accept ? 'accept' : 'cancel', ...(accept && text !== undefined ? { text } : {}) };
    leaveForOpenedPage(this.answers);
  }

  /**
   * The action's own work is done: the boxes it raised. The page's later ones (its answer to a
   * request the action made, shown after the action answered) are still answered, except those the
   * user's own click or key raises, until `done`.
   */
  actionEnded(): PageDialog[] {
    this.afterAction = true;
    signal('after');
    this.safety = setTimeout(() => this.disarm(), DIALOG_AFTERMATH_MS);
    // A page the action opens from now on (a link the page follows when its request answers) still answers.
    if (this.answers) leaveForOpenedPage(this.answers);
    return this.shown.splice(0);
  }

  /** The boxes answered since last asked, while the page goes on answering the action (SETTLE). */
  answeredSoFar(): PageDialog[] {
    return this.shown.splice(0);
  }

  /** The action and what it set off are over: the page's boxes are the browser's own again. The boxes not yet given. */
  done(): PageDialog[] {
    this.disarm();
    return this.shown.splice(0);
  }

  private listen(): void {
    this.armed = true;
    document.addEventListener(`${DIALOG_CHANNEL}:dialog`, this.onDialog);
  }

  private disarm(): void {
    clearTimeout(this.safety);
    if (this.armed) {
      signal('disarm');
      document.removeEventListener(`${DIALOG_CHANNEL}:dialog`, this.onDialog);
      leaveForOpenedPage(undefined);
    }
    this.armed = false;
    this.afterAction = false;
    this.answers = undefined;
  }
}

interface LeftAnswers {
  answer: 'accept' | 'cancel';
  /** An accepted prompt's text. */
  text?: string;
}

/**
 * Leaves the action's answers for a page of this origin it opens in this tab, until the aftermath
 * would end (the shim reads them as that page opens), or takes them back.
 */
function leaveForOpenedPage(answers: LeftAnswers | undefined): void {
  try {
    // inFrame: a page opening in a frame of the tab keeps its boxes for its agent only when a frame acted.
    if (answers) sessionStorage.setItem(DIALOG_CHANNEL, JSON.stringify({ ...answers, inFrame: window !== window.top, until: Date.now() + DIALOG_AFTERMATH_MS, told: [] }));
    else sessionStorage.removeItem(DIALOG_CHANNEL);
  } catch {
    // No storage here (an opaque origin) or none left: a page the action opens shows its boxes as before.
  }
}

const signal = (what: 'cancel' | 'after' | 'disarm') => document.dispatchEvent(new Event(`${DIALOG_CHANNEL}:${what}`));
