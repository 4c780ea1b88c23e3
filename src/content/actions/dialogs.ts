import { CAPS, clipText } from '../../protocol/caps';
import { DIALOG_CHANNEL, MAX_DIALOGS_LISTED, PageDialog } from '../../protocol/dialogs';

/**
 * If the background never says an action is done (no next step came, the tool was stopped), the
 * page's boxes are the browser's own again this long after the action: longer than Jawad waits for
 * what an action set off.
 */
const AFTERMATH_MAX_MS = 10_000;

/**
 * This frame's side of the page-world dialog shim (src/content/dialog-shim.ts). While an action
 * runs, and after it until the tab's next step has waited for what it set off (the page's answer
 * to a request; at most AFTERMATH_MAX_MS), a box the page shows is answered at once (alert OK;
 * confirm and prompt accepted only when the step accepts them, else cancelled) instead of holding
 * the page, and listed. What the page reports is the page's to forge, so it is checked and capped
 * like any page text.
 */
export class DialogAnswers {
  private shown: PageDialog[] = [];
  private afterAction = false;
  private armed = false;
  private safety: ReturnType<typeof setTimeout> | undefined;

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
   */
  arm(accept: boolean, text?: string): void {
    this.done();
    this.armed = true;
    document.addEventListener(`${DIALOG_CHANNEL}:dialog`, this.onDialog);
    if (accept) document.dispatchEvent(new CustomEvent(`${DIALOG_CHANNEL}:accept`, { detail: text ?? null }));
    else signal('cancel');
  }

  /**
   * The action's own work is done: the boxes it raised. The page's later ones (its answer to a
   * request the action made, shown after the action answered) are still answered, except those the
   * user's own click or key raises, until `done`.
   */
  actionEnded(): PageDialog[] {
    this.afterAction = true;
    signal('after');
    this.safety = setTimeout(() => this.disarm(), AFTERMATH_MAX_MS);
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

  private disarm(): void {
    clearTimeout(this.safety);
    if (this.armed) {
      signal('disarm');
      document.removeEventListener(`${DIALOG_CHANNEL}:dialog`, this.onDialog);
    }
    this.armed = false;
    this.afterAction = false;
  }
}

const signal = (what: 'cancel' | 'after' | 'disarm') => document.dispatchEvent(new Event(`${DIALOG_CHANNEL}:${what}`));
