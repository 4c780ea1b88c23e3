/**
 * Real tasks on a real Roundcube webmail (Debian's package, installed by this test when missing,
 * run on PHP's built-in server over a private Dovecot IMAP server): the agent with a scripted model
 * that reads each snapshot for its targets, checked in the mailbox's own Maildir files. And the mail
 * view as the snapshot lists it: every entry once, no ref that does nothing; and the message open in
 * its preview pane (a frame) read as the page.
 */
import { describe, expect, it } from 'vitest';
import { INBOX, MAIL_USER, startRoundcube } from '../support/real-apps/roundcube';
import { ROUNDCUBE_TASKS } from '../support/real-apps/roundcube-tasks';
import type { Page } from 'puppeteer-core';
import { browsersUnderTest, type JawadBrowser } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { describeAppTasks, useRealApp } from './support/real-app-suite';
import { runTool } from './support/run-tool';

describeAppTasks('Roundcube tasks', startRoundcube, ROUNDCUBE_TASKS);

/** The inbox, logged in (the session of an earlier test may still be open). */
async function logIn(jawad: JawadBrowser, url: string): Promise<Page> {
  const page = await jawad.openTab(`${url}/`);
  if (await page.$('#rcmloginuser')) {
    await page.type('#rcmloginuser', MAIL_USER.user);
    await page.type('#rcmloginpwd', MAIL_USER.password);
    await Promise.all([page.waitForNavigation(), page.click('#rcmloginsubmit')]);
  }
  await page.waitForSelector('#messagelist tbody tr');
  return page;
}

for (const browserName of browsersUnderTest()) {
  describe(`Roundcube's mail view in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    const started = useRealApp(startRoundcube);

    it('reads the message open in the preview pane as the page, its subject and sender above it, not the list around it', async () => {
      const page = await logIn(suite.jawad, started().url);
      const meeting = INBOX.find(({ subject }) => subject === 'Quarterly report meeting')!;
      await page.click('#messagelist tbody tr:first-child td.subject');
      await page.waitForFunction((words: string) => (document.querySelector('#messagecontframe') as HTMLIFrameElement | null)?.contentDocument?.body?.textContent?.includes(words), {}, 'room Orion');
      const read = await runTool<{ markdown: string }>(suite.jawad, 'read_page', {});
      expect(read.success, JSON.stringify(read.error)).toBe(true);
      const markdown = read.data!.markdown;
      expect(markdown.replace(/\s+/g, ' ')).toContain(meeting.body.replace(/\s+/g, ' '));
      // Who sent it, and its subject, come first: the message's header, which Readability drops.
      const head = markdown.slice(0, markdown.indexOf(meeting.body.split('\n')[0]!));
      expect(head).toContain(`## ${meeting.subject}`);
      const [, name, address] = /^(.+) <(.+)>$/.exec(meeting.from)!;
      expect(head).toMatch(new RegExp(`From \\[${name}\\]\\(mailto:${address}\\) on \\d{4}-\\d{2}-\\d{2}`));
    }, 120_000);

    it('lists each message’s subject link, and neither the toolbar’s spacer nor the message list itself as a control', async () => {
      const page = await logIn(suite.jawad, started().url);
      // The list holds the focus after logging in; once the focus is elsewhere it takes it back
      // from the keyboard (tabindex="0").
      await page.focus('#mailsearchform');
      await page.waitForSelector('#messagelist[tabindex="0"]');
      const reply = await runTool<{ text: string }>(suite.jawad, 'snapshot');
      const text = reply.data!.text;
      // The flag beside each subject is a control too, where the list has room for its column.
      for (const { subject } of INBOX) expect(text).toMatch(new RegExp(`^\\| .*\\[link "${subject.replace('?', '\\?')}" ref=e\\d+\\] \\| (?:\\[generic "Not Flagged" ref=e\\d+\\] )?\\|$`, 'm'));
      expect(text).toMatch(/^- button "Delete" \[ref=e\d+\] \[disabled\]$/m);
      expect(text).not.toMatch(/Email Messages Listing|menuitem/);
    }, 120_000);
  });
}
