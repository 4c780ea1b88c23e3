import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DialogAnswers } from '../../../src/content/actions/dialogs';
import { installDialogShim } from '../../../src/content/dialog-shim';
import { DIALOG_CHANNEL } from '../../../src/protocol/dialogs';

/** The browser's own boxes, as the page world has them before the shim: each call is a box a person must answer. */
function browserBoxes() {
  const shown: string[] = [];
  return {
    shown,
    alert: (message?: string) => void shown.push(`alert: ${message}`),
    confirm: (message?: string) => (shown.push(`confirm: ${message}`), true),
    prompt: (message?: string) => (shown.push(`prompt: ${message}`), 'typed by the user'),
  };
}

describe('the page-world dialog shim with the page agent’s answers', () => {
  let page: ReturnType<typeof browserBoxes> & { event?: Event };
  /** An event the browser dispatches (a request's load), which a page cannot forge. */
  class TrustedEvent extends Event {
    override get isTrusted() {
      return true;
    }
  }
  /** An input event the browser dispatches, as the user's click is. */
  class UIEvent extends TrustedEvent {}

  beforeEach(() => {
    vi.useFakeTimers();
    page = browserBoxes();
    vi.stubGlobal('window', page);
    vi.stubGlobal('document', new EventTarget());
    vi.stubGlobal('UIEvent', UIEvent);
    installDialogShim(DIALOG_CHANNEL);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('leaves every box to the browser when no action runs', () => {
    expect(window.confirm('Leave?')).toBe(true);
    expect(page.shown).toEqual(['confirm: Leave?']);
  });

  it('answers during an action, cancelling unless the step accepts, and lists each box', () => {
    const answers = new DialogAnswers();
    answers.arm(false);
    expect([window.confirm('Delete?'), window.prompt('Name?', 'Q3')]).toEqual([false, null]);
    window.alert('Deleted.');
    expect(answers.actionEnded()).toEqual([
      { kind: 'confirm', message: 'Delete?', answered: 'cancel' },
      { kind: 'prompt', message: 'Name?', answered: 'cancel' },
      { kind: 'alert', message: 'Deleted.', answered: 'ok' },
    ]);
    answers.done();
    answers.arm(true);
    expect([window.confirm('Delete?'), window.prompt('Name?', 'Q3')]).toEqual([true, 'Q3']);
    expect(page.shown).toEqual([]);
  });

  it('goes on answering after the action, as the page answers the request it made, until the action is done', () => {
    const answers = new DialogAnswers();
    answers.arm(true);
    answers.actionEnded();
    expect(window.confirm('Replace yours?')).toBe(true);
    expect(answers.done()).toEqual([{ kind: 'confirm', message: 'Replace yours?', answered: 'accept', afterAction: true }]);
    expect(window.confirm('Is this yours?')).toBe(true);
    expect(page.shown).toEqual(['confirm: Is this yours?']);
  });

  it('leaves a box the user’s own click raises after the action to the browser, since it is theirs', () => {
    const answers = new DialogAnswers();
    answers.arm(false);
    page.event = new UIEvent('click');
    expect(window.confirm('Asked by the action')).toBe(false);
    answers.actionEnded();
    expect(window.confirm('Raised by the user’s click')).toBe(true);
    page.event = new TrustedEvent('load');
    window.alert('In the page’s answer to a request');
    expect(page.shown).toEqual(['confirm: Raised by the user’s click']);
    expect(answers.done()).toEqual([{ kind: 'alert', message: 'In the page’s answer to a request', answered: 'ok', afterAction: true }]);
  });

  it('stops answering on its own when the background never says the action is done', () => {
    const answers = new DialogAnswers();
    answers.arm(false);
    answers.actionEnded();
    window.alert('Soon after');
    vi.advanceTimersByTime(20_000);
    window.alert('Much later');
    expect(page.shown).toEqual(['alert: Much later']);
  });

  it('caps and checks what the page reports, which it can forge', () => {
    const answers = new DialogAnswers();
    answers.arm(false);
    window.alert('x'.repeat(5_000));
    document.dispatchEvent(new CustomEvent(`${DIALOG_CHANNEL}:dialog`, { detail: '{"kind":"bomb","message":"x","answered":"ok"}' }));
    document.dispatchEvent(new CustomEvent(`${DIALOG_CHANNEL}:dialog`, { detail: 'not json' }));
    const [only, ...rest] = answers.actionEnded();
    expect(rest).toEqual([]);
    expect(only?.message.length).toBeLessThan(5_000);
  });
});
