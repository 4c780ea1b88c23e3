/**
 * Real tasks on a real DokuWiki (Debian's package, installed by this test when missing, run on
 * PHP's built-in server): the agent with a scripted model that reads each snapshot for its
 * targets, checked in the wiki's own files. And pages of the wiki whose layout once hid them from
 * the snapshot.
 */
import { describe, expect, it } from 'vitest';
import { findRef } from '../support/scripted-model';
import { startDokuWiki } from '../support/real-apps/dokuwiki';
import { DOKU_TASKS } from '../support/real-apps/doku-tasks';
import { browsersUnderTest } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { describeAppTasks, useRealApp } from './support/real-app-suite';
import { runTool } from './support/run-tool';

describeAppTasks('DokuWiki tasks', startDokuWiki, DOKU_TASKS);

for (const browserName of browsersUnderTest()) {
  describe(`DokuWiki pages in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    const started = useRealApp(startDokuWiki);

    // Both panes are absolutely placed inside a static `height: 0; overflow: hidden` box, whose
    // clip does not reach them: the snapshot once came out empty.
    it('reads the media manager popup, its panes drawn past a box that hides its overflow', async () => {
      const wiki = started();
      await suite.jawad.openTab(`${wiki.url}/lib/exe/mediamanager.php?ns=wiki`);
      const reply = await runTool<{ text: string }>(suite.jawad, 'snapshot');
      const text = reply.data?.text ?? '';
      expect(text).toContain('# Media Files');
      expect(findRef(text, 'link', 'wiki'), text).toBeDefined();
      expect(findRef(text, 'textbox', 'Search file name:'), text).toBeDefined();
      const files = wiki.media('wiki');
      expect(files.length).toBeGreaterThan(0);
      for (const { name, bytes } of files) {
        // Each file's name is what a click inserts into the page being edited (a link-less <a> with
        // a pointer cursor and a click handler): a control on the file's line. DokuWiki writes sizes
        // in KB with one decimal.
        expect(text, `${name} in:\n${text}`).toMatch(new RegExp(`^\\[generic "${name.replace(/\./g, '\\.')}" ref=e\\d+\\] \\(.*${(bytes / 1024).toFixed(1)} KB\\)`, 'm'));
      }
    });
  });
}
