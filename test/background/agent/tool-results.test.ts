import { describe, expect, it } from 'vitest';
import { resultForModel, resultText, summarise } from '../../../src/background/agent/tool-results';
import type { ErrorCode } from '../../../src/protocol';

const failed = (code: ErrorCode, message: string) => ({ success: false, error: { code, message }, duration: 3 });

describe('failures as the model reads them', () => {
  it('says what covers the element and how to get it out of the way', () => {
    const text = resultText('click', failed('COVERED', 'e7 is covered by dialog "Cookie consent", which would get the click instead.'));
    expect(text).toContain('dialog "Cookie consent"');
    expect(text).toMatch(/Close or dismiss what covers it first .*press Escape/);
  });

  it('adds no second way out to a refusal that names the covering thing’s buttons', () => {
    const message = 'e7 is covered by dialog "Cookie consent", which would get the click instead. Its buttons: button "Accept all" [ref=e31]. Close it with one of them (or press Escape), then try again.';
    expect(resultText('click', failed('COVERED', message))).toBe(`COVERED: ${message}`);
  });

  it('points at a new snapshot for a ref that is gone, without saying it twice', () => {
    expect(resultText('click', failed('NOT_FOUND', 'Nothing on the page matches #buy.'))).toBe(
      'NOT_FOUND: Nothing on the page matches #buy. Take a new snapshot to see what the page holds now.',
    );
    const stale = resultText('click', failed('STALE_REF', 'e12 is no longer on the page. Take a new snapshot.'));
    expect(stale.match(/new snapshot/gi)).toHaveLength(1);
  });

  it('passes the validation reasons on with the way to correct the call, inside the untrusted wrapper', () => {
    const message = 'Invalid parameters for click — ref: A ref looks like e12 (from the snapshot tool).';
    const text = resultForModel('click', failed('VALIDATION_ERROR', message));
    expect(text).toContain(message);
    expect(text).toContain('Correct the parameters as described and call again');
    expect(text).toContain('click failed:');
  });

  it('leaves codes without advice as they are', () => {
    expect(resultText('read_page', failed('PAGE_UNREADABLE', 'Protected page.'))).toBe('PAGE_UNREADABLE: Protected page.');
  });
});

describe('snapshots as the model reads them', () => {
  const snapshot = { url: 'https://shop.example/', title: 'Shop', text: '- button "Export all" [ref=e2]', refs: [], elementCount: 3, partial: false };
  const ok = (data: unknown) => ({ success: true, data, duration: 3 });

  it('says when the last action’s requests were still unanswered, so the model knows the page may still change', () => {
    expect(resultText('snapshot', ok({ ...snapshot, unansweredRequests: 2 }))).toBe(
      'Page: Shop (https://shop.example/)\n(still loading: 2 requests the last action started had no answer yet; the page may still change)\n- button "Export all" [ref=e2]',
    );
  });

  it('says how a wait went: the text came, or it did not and this is the page as it stands', () => {
    expect(resultText('snapshot', ok({ ...snapshot, waited: { text: 'Exported', met: true, ms: 1240 } }))).toBe(
      'Page: Shop (https://shop.example/)\n(waited 1.2 s: the page now shows “Exported”)\n- button "Export all" [ref=e2]',
    );
    expect(resultText('snapshot', ok({ ...snapshot, waited: { text: 'Exported', gone: 'Exporting…', met: false, ms: 10_004 } }))).toContain(
      '(waited 10 s for the page to show “Exported” and stop showing “Exporting…”, and it has not: this is the page as it stands)',
    );
    expect(resultText('snapshot', ok({ ...snapshot, waited: { met: true, ms: 2003 } }))).toContain('(waited 2 s)');
  });

  it('shows the user in the action log how a snapshot’s wait went', () => {
    expect(summarise('snapshot', ok({ ...snapshot, refs: [{ ref: 'e2', role: 'button', name: 'Export all', tag: 'button' }], waited: { text: 'Exported', met: false, ms: 10_000 } }))).toBe(
      '1 element on “Shop” (waited 10 s for the page to show “Exported”, and it has not: this is the page as it stands)',
    );
  });

  it('adds no note to a page that is done loading', () => {
    expect(resultText('snapshot', ok(snapshot))).toBe('Page: Shop (https://shop.example/)\n- button "Export all" [ref=e2]');
  });
});

describe('a page’s own confirmation box', () => {
  it('tells the model Jawad answered Cancel, and how to accept when the user asked for exactly this', () => {
    const clicked = { success: true, duration: 4, data: { action: 'click', target: 'Delete', dialogs: [{ kind: 'confirm', message: 'Are you sure?', answered: 'cancel' }] } };
    expect(resultText('click', clicked)).toContain('(The page asked “Are you sure?” in a confirmation box of its own, and Jawad answered Cancel, so the page went no further. If the user asked for exactly this, click again with acceptDialog: true; the user is asked first.)');
    const prompted = { success: true, duration: 4, data: { action: 'click', target: 'Rename', dialogs: [{ kind: 'prompt', message: 'New name?', answered: 'cancel' }] } };
    expect(resultText('click', prompted)).toContain('click again with acceptDialog: true and dialogText: the answer; the user is asked first.)');
    const alerted = { success: true, duration: 4, data: { action: 'click', target: 'Tip', dialogs: [{ kind: 'alert', message: 'Saved', answered: 'ok' }] } };
    expect(resultText('click', alerted)).toBe(JSON.stringify(alerted.data));
  });

  it('tells the model that a box a page a tool opened showed as it loaded cannot be accepted by a step, rather than to click again', () => {
    const lateDialogs = [{ kind: 'confirm' as const, message: 'Notify the 12 followers?', answered: 'cancel' as const, afterAction: true as const, openedByTool: true as const }];
    const snapshot = { url: 'https://blog.example/published', title: 'Draft published', text: '- heading "Draft published"', refs: [], elementCount: 1, partial: false, lateDialogs };
    const told = resultText('snapshot', { success: true, duration: 3, data: snapshot });
    expect(told).toContain('(The page asked “Notify the 12 followers?” in a confirmation box of its own, and Jawad answered Cancel, so the page went no further. No step can accept a box a page shows as it opens from an address; if the user wants it accepted, ask them to open the page themselves.)');
    expect(told).not.toContain('acceptDialog');
  });

  it('tells the model of boxes the page showed after the previous step returned, which it has not heard of, above a snapshot or under an action', () => {
    const lateDialogs = [
      { kind: 'alert' as const, message: 'Autosaved.', answered: 'ok' as const, afterAction: true as const },
      { kind: 'confirm' as const, message: 'Replace yours?', answered: 'cancel' as const, afterAction: true as const },
    ];
    const told = '(After the previous step, the page showed: message box “Autosaved.” (Jawad answered OK); confirmation box “Replace yours?” (Jawad answered Cancel).)';
    const snapshot = { url: 'https://drafts.example/', title: 'Drafts', text: '- button "Autosave" [ref=e2]', refs: [], elementCount: 1, partial: false, lateDialogs };
    expect(resultText('snapshot', { success: true, duration: 3, data: snapshot }).split('\n').slice(1, 3)).toEqual([told, expect.stringContaining('(The page asked “Replace yours?” in a confirmation box')]);
    expect(resultText('get', { success: true, duration: 4, data: { action: 'get', target: 'Status', result: 'Saved', lateDialogs: lateDialogs.slice(0, 1) } })).toContain(told.replace('; confirmation box “Replace yours?” (Jawad answered Cancel)', ''));
  });

  it('shows the user in the action log the boxes Jawad answered for them', () => {
    const dialogs = [{ kind: 'confirm' as const, message: 'Delete the draft?', answered: 'cancel' as const }];
    const lateDialogs = [{ kind: 'alert' as const, message: 'x'.repeat(200), answered: 'ok' as const, afterAction: true as const }];
    expect(summarise('click', { success: true, duration: 4, data: { action: 'click', target: 'e3', dialogs } }, { role: 'button', name: 'Delete' })).toBe(
      'click button “Delete”: done — confirmation box “Delete the draft?” (Jawad answered Cancel)',
    );
    const extra = { kind: 'alert' as const, message: 'Saved.', answered: 'ok' as const };
    expect(summarise('click', { success: true, duration: 4, data: { action: 'click', target: 'e3', dialogs: [...dialogs, extra], lateDialogs } })).toBe(
      `click: done — message box “${'x'.repeat(79)}…” (Jawad answered OK); confirmation box “Delete the draft?” (Jawad answered Cancel), and 1 more`,
    );
  });
});

describe('a page that stops answering', () => {
  it('tells the model a dialog box of the page’s own may hold it, and that only the user can close it', () => {
    const text = resultText('click', failed('TIMEOUT', 'click did not finish within 15 s.'));
    expect(text).toContain('dialog box of its own (an alert or a confirmation)');
    expect(text).toContain('ask the user to close any dialog box on the page');
  });
});
