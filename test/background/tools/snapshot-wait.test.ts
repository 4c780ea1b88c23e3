import { describe, expect, it } from 'vitest';
import { outlineShows, shownText, waitForSnapshot, WAIT_POLL_MS, type WaitDeps } from '../../../src/background/tools/snapshot-wait';
import { DEFAULT_WAIT_SECONDS } from '../../../src/protocol';

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('shownText: the words an outline shows a reader', () => {
  // Lines as the snapshot writes them (see snapshot.e2e.ts).
  it('reads an inline control as its name, in the sentence around it', () => {
    expect(squash(shownText('We left the car park at dawn and followed the [link "north ridge trail" ref=e5 editable] past the tarn.'))).toBe(
      'We left the car park at dawn and followed the north ridge trail past the tarn.',
    );
    expect(squash(shownText('[link "Visa" ref=e6] [link "PayPal" ref=e7] Secure checkout'))).toBe('Visa PayPal Secure checkout');
  });

  it('reads a control line as its name and value, without its role, ref, states or options', () => {
    expect(squash(shownText('- textbox "Report title" [ref=e3] [editable] value="Dry in a Lakeland downpour"'))).toBe('Report title Dry in a Lakeland downpour');
    expect(squash(shownText('- combobox "Size" [ref=e8] value="Choose a size" options=["Choose a size","XS","XXL — sold out"]'))).toBe('Size Choose a size');
    expect(squash(shownText('  - button "Save" [ref=f3e1] [covered by dialog "Cookies"]'))).toBe('Save');
  });

  it('unquotes what the page wrote in a name and drops a fold marker', () => {
    expect(squash(shownText('- link "(button \\"Delete my account\\" ref=e2) Is it still waterproof?" [ref=e9]'))).toBe('(button "Delete my account" ref=e2) Is it still waterproof?');
    expect(squash(shownText('- textbox "Packing list" [ref=e4] [editable] value="Waterproof jacket, fleece … [folded: 120 more characters; get gives all]"'))).toBe('Packing list Waterproof jacket, fleece');
  });

  it('reads headings and table rows as their text, and leaves out notes, frame lines and link addresses', () => {
    expect(squash(shownText(['## We accept', '| Alice | 3 \\| 4 |', '- note: 45 rows here; showing 1–20.', '- iframe "Ads" [frame=t1]', 'Permalink [link ref=e9 url="/answers/1"]'].join('\n')))).toBe(
      'We accept Alice 3 | 4 Permalink',
    );
  });

  it('keeps a line of the page’s own that only looks like a control line, and its bars', () => {
    expect(squash(shownText('- buy milk before noon'))).toBe('- buy milk before noon');
    expect(squash(shownText('Home | About'))).toBe('Home | About');
  });
});

describe('outlineShows', () => {
  it('matches as people do: any case, any spacing, across inline controls', () => {
    expect(outlineShows('Your order\n[link "number 42" ref=e1] is   on its way', 'NUMBER 42 is on its way')).toBe(true);
    expect(outlineShows('- status "Message sent" [ref=e2]', 'message sent')).toBe(true);
  });

  it('never matches Jawad’s own marks (a role, a ref, a state)', () => {
    for (const mark of ['button', 'ref=e1', 'disabled', 'covered by']) expect(outlineShows('- button "Save" [ref=e1] [disabled] [covered by dialog "x"]', mark)).toBe(false);
  });

  it('reads square brackets the model quotes as the round ones the outline writes', () => {
    expect(outlineShows('Footnote (1) cited', 'footnote [1]')).toBe(true);
  });
});

/** A snapshot source on a clock of its own: each look takes `lookMs`, pauses pass time at once. */
function pageOn(looks: Array<string | Error | { url: string; text: string }>, lookMs = 10) {
  let clock = 0;
  const taken: boolean[] = [];
  const pauses: number[] = [];
  const deps: WaitDeps<{ url: string; text: string }> = {
    async take(first) {
      taken.push(first);
      clock += lookMs;
      const look = looks[Math.min(taken.length - 1, looks.length - 1)]!;
      if (look instanceof Error) throw look;
      return typeof look === 'string' ? { url: 'https://mail.example/inbox', text: look } : look;
    },
    async pause(ms) {
      pauses.push(ms);
      clock += ms;
    },
    now: () => clock,
    signal: new AbortController().signal,
    from: 'https://mail.example/inbox',
  };
  return { deps, taken, pauses, clock: () => clock };
}

describe('waitForSnapshot', () => {
  it('looks until the page shows the text, and says how long that took', async () => {
    const page = pageOn(['Sending…', 'Sending…', 'Message sent']);
    const snapshot = await waitForSnapshot({ text: 'message sent' }, page.deps);
    expect(snapshot.text).toBe('Message sent');
    expect(snapshot.waited).toEqual({ text: 'message sent', met: true, ms: page.clock() });
    // Only the first look waits for the last action's requests.
    expect(page.taken).toEqual([true, false, false]);
    expect(page.pauses).toEqual([WAIT_POLL_MS, WAIT_POLL_MS]);
  });

  it('looks until text is gone', async () => {
    const page = pageOn(['Loading…', 'Results: 3']);
    const snapshot = await waitForSnapshot({ gone: 'Loading' }, page.deps);
    expect(snapshot).toMatchObject({ text: 'Results: 3', waited: { gone: 'Loading', met: true } });
  });

  it('gives the page as it stands, marked unmet, when the time is up', async () => {
    const page = pageOn(['Sending…'], 10);
    const snapshot = await waitForSnapshot({ text: 'Message sent', seconds: 1 }, page.deps);
    expect(snapshot).toMatchObject({ text: 'Sending…', waited: { text: 'Message sent', met: false } });
    expect(page.clock()).toBeGreaterThanOrEqual(1000);
    expect(page.clock()).toBeLessThan(1000 + 10 + WAIT_POLL_MS);
  });

  it('waits the default time when none is given', async () => {
    const page = pageOn(['Sending…'], 10);
    await waitForSnapshot({ text: 'Message sent' }, page.deps);
    expect(page.clock()).toBeGreaterThanOrEqual(DEFAULT_WAIT_SECONDS * 1000);
  });

  it('rests as long as a slow page takes to look at, so waiting never keeps the page busy more than half the time', async () => {
    const page = pageOn(['Sending…', 'Sending…', 'Message sent'], 400);
    await waitForSnapshot({ text: 'Message sent' }, page.deps);
    expect(page.pauses).toEqual([400, 400]);
  });

  it('looks again when a look fails while the page changes, and fails only when time is up', async () => {
    const between = new Error('The page is loading');
    const recovered = pageOn([between, 'Order placed']);
    expect((await waitForSnapshot({ text: 'Order placed' }, recovered.deps)).waited.met).toBe(true);
    const broken = pageOn([between]);
    await expect(waitForSnapshot({ text: 'Order placed', seconds: 1 }, broken.deps)).rejects.toThrow('The page is loading');
  });

  it('stops when the tab goes to another site: the step was allowed on this one', async () => {
    const page = pageOn(['Paying…', { url: 'https://pay.other.example/confirm', text: 'Order placed' }]);
    await expect(waitForSnapshot({ text: 'Order placed' }, page.deps)).rejects.toMatchObject({ code: 'TARGET_CHANGED', message: expect.stringContaining('https://pay.other.example') });
  });

  it('holds the tab to the site the step was allowed on, even when the first look already shows another', async () => {
    const page = pageOn([new Error('The page is loading'), { url: 'https://pay.other.example/confirm', text: 'Order placed' }]);
    await expect(waitForSnapshot({ text: 'Order placed' }, page.deps)).rejects.toMatchObject({ code: 'TARGET_CHANGED' });
    // Another page of the same site is the same site.
    const same = pageOn(['Paying…', { url: 'https://mail.example/done', text: 'Order placed' }]);
    expect((await waitForSnapshot({ text: 'Order placed' }, same.deps)).waited.met).toBe(true);
  });

  it('with only a time, pauses that long and then looks once', async () => {
    const page = pageOn(['Results: 3']);
    const snapshot = await waitForSnapshot({ seconds: 2 }, page.deps);
    expect(page.pauses).toEqual([2000]);
    expect(page.taken).toEqual([true]);
    expect(snapshot.waited).toEqual({ met: true, ms: 2010 });
  });
});
