import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DialogAnswers } from '../../../src/content/actions/dialogs';
import { installDialogShim } from '../../../src/content/dialog-shim';
import { DIALOG_AFTERMATH_MS, DIALOG_CHANNEL, MAX_DIALOGS_LISTED } from '../../../src/protocol/dialogs';

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

describe('the boxes of a page an action opens, as it loads', () => {
  /** The tab's sessionStorage for the page's origin, which every page of that origin in the tab shares. */
  class Storage {
    private items = new Map<string, string>();
    getItem(key: string) {
      return this.items.get(key) ?? null;
    }
    setItem(key: string, value: string) {
      this.items.set(key, String(value));
    }
    removeItem(key: string) {
      this.items.delete(key);
    }
  }
  let tabStorage: Storage;

  let tabPage: object;
  /**
   * A new document in the tab (or in a frame of its page): its own world and boxes, the tab's
   * storage, the shim as it runs before the page's scripts. `enter` comes back to it.
   */
  function openPage({ inFrame = false, serverTiming = [] as Array<{ name: string; description: string }> } = {}) {
    const boxes = browserBoxes();
    const world = { ...boxes, sessionStorage: tabStorage, top: undefined as object | undefined };
    world.top = inFrame ? tabPage : world;
    if (!inFrame) tabPage = world;
    const document = new EventTarget();
    // The document's own navigation entry, with the Server-Timing metrics of its response.
    const navigation = [{ serverTiming }] as unknown as PerformanceEntryList;
    const enter = () => {
      vi.stubGlobal('window', world);
      vi.stubGlobal('document', document);
      vi.spyOn(performance, 'getEntriesByType').mockImplementation((type) => (type === 'navigation' ? navigation : []));
    };
    enter();
    installDialogShim(DIALOG_CHANNEL, { keepAtMost: MAX_DIALOGS_LISTED, answerForMs: DIALOG_AFTERMATH_MS });
    return { ...boxes, enter };
  }

  beforeEach(() => {
    vi.useFakeTimers();
    tabStorage = new Storage();
    vi.stubGlobal('Storage', Storage);
    vi.stubGlobal('sessionStorage', tabStorage);
    vi.stubGlobal('UIEvent', class extends Event {});
    openPage();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('answers them with the action’s answers, keeps them across a page that sends the tab on, and hands them to the new page’s agent', () => {
    new DialogAnswers().arm(true, 'Q4 plan');
    const answerPage = openPage();
    expect([window.confirm('Notify the followers?'), window.prompt('Name?', 'Q3')]).toEqual([true, 'Q4 plan']);
    // The answer page says it and sends the tab on at once (location.replace): the list page opens.
    const listPage = openPage();
    window.alert('Published.');
    const agent = new DialogAnswers();
    const late = { answered: 'accept', afterAction: true };
    expect(agent.done()).toEqual([
      { kind: 'confirm', message: 'Notify the followers?', ...late },
      { kind: 'prompt', message: 'Name?', ...late },
      { kind: 'alert', message: 'Published.', answered: 'ok', afterAction: true },
    ]);
    expect([...answerPage.shown, ...listPage.shown]).toEqual([]);

    // Done: the next page the tab opens shows the browser's own boxes.
    const later = openPage();
    window.confirm('Leave?');
    expect(later.shown).toEqual(['confirm: Leave?']);
  });

  it('answers a same-origin frame’s boxes in the page it opened without taking the page’s', () => {
    new DialogAnswers().arm(false);
    const opened = openPage();
    expect(window.confirm('Notify?')).toBe(false);
    const frame = openPage({ inFrame: true });
    window.alert('From the frame');
    expect(new DialogAnswers().done()).toEqual([]);
    opened.enter();
    expect(new DialogAnswers().done()).toEqual([{ kind: 'confirm', message: 'Notify?', answered: 'cancel', afterAction: true }]);
    expect([opened.shown, frame.shown]).toEqual([[], []]);
  });

  it('leaves them to the browser once the answers expired, and stops answering when no agent comes to adopt them', () => {
    new DialogAnswers().arm(false);
    const opened = openPage();
    expect(window.confirm('Notify?')).toBe(false);
    vi.advanceTimersByTime(20_000);
    window.alert('Much later');
    const next = openPage();
    window.alert('Next page');
    expect([opened.shown, next.shown]).toEqual([['alert: Much later'], ['alert: Next page']]);
  });

  it('answers the boxes of a page a tool’s navigation marked, in any origin, and hands them to its agent; its frames answer theirs untold', () => {
    const mark = [{ name: DIALOG_CHANNEL, description: 'cancel' }];
    const opened = openPage({ serverTiming: [{ name: 'cdn-cache', description: 'HIT' }, ...mark] });
    expect(window.confirm('Notify the 12 followers?')).toBe(false);
    window.alert('Published quietly.');
    const frame = openPage({ inFrame: true, serverTiming: mark });
    window.alert('12 followers.');
    opened.enter();
    const late = { afterAction: true, openedByTool: true };
    expect(new DialogAnswers().done()).toEqual([
      { kind: 'confirm', message: 'Notify the 12 followers?', answered: 'cancel', ...late },
      { kind: 'alert', message: 'Published quietly.', answered: 'ok', ...late },
    ]);
    expect([opened.shown, frame.shown]).toEqual([[], []]);

    // An action of its own on that page: its boxes are the action's, which a step can accept.
    const action = new DialogAnswers();
    action.arm(false);
    expect(window.confirm('Delete the draft?')).toBe(false);
    expect(action.actionEnded()).toEqual([{ kind: 'confirm', message: 'Delete the draft?', answered: 'cancel' }]);
  });

  it('cancels the boxes of a page a tool’s navigation opened even when the tab’s last action accepted its own', () => {
    new DialogAnswers().arm(true, 'Q4 plan');
    const opened = openPage({ serverTiming: [{ name: DIALOG_CHANNEL, description: 'cancel' }] });
    expect([window.confirm('Notify the 12 followers?'), window.prompt('Name?', 'Q3')]).toEqual([false, null]);
    expect(opened.shown).toEqual([]);
  });

  it('leaves the boxes of a page whose response bears no answer of Jawad’s, or an unknown one, to the browser', () => {
    const unmarked = openPage({ serverTiming: [{ name: 'db', description: 'cancel' }] });
    window.alert('Welcome back');
    const odd = openPage({ serverTiming: [{ name: DIALOG_CHANNEL, description: 'always' }] });
    window.confirm('Stay signed in?');
    expect([unmarked.shown, odd.shown]).toEqual([['alert: Welcome back'], ['confirm: Stay signed in?']]);
  });

  it('stops answering a marked page’s boxes when no agent comes to adopt them', () => {
    const opened = openPage({ serverTiming: [{ name: DIALOG_CHANNEL, description: 'cancel' }] });
    window.alert('As it loads');
    vi.advanceTimersByTime(DIALOG_AFTERMATH_MS + 1);
    window.alert('Much later');
    expect(opened.shown).toEqual(['alert: Much later']);
  });

  it('answers nothing in a page opened in a tab where no action left its answers, nor once the action’s aftermath is over', () => {
    const agent = new DialogAnswers();
    agent.arm(false);
    agent.actionEnded();
    agent.done();
    const opened = openPage();
    expect(new DialogAnswers().done()).toEqual([]);
    window.confirm('Is this yours?');
    expect(opened.shown).toEqual(['confirm: Is this yours?']);
  });
});
