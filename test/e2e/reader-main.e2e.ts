/**
 * What the page shows above its main content reaches the model with it: a page's main landmark
 * read up to the end of Readability's pick, when it holds only a few lines more (an article's
 * headline, standfirst and date; a webmail message's subject and sender, in Roundcube's test),
 * and what follows the pick there (comments) left out. On captures from trafilatura's and
 * Postlight's test suites.
 */
import { describe, expect, it } from 'vitest';
import { browsersUnderTest } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { readPageAt } from './support/run-tool';

for (const browserName of browsersUnderTest()) {
  describe(`the main landmark read in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('reads an article’s headline, standfirst, author and date above its text, and none of the comments below it (Zeit Online)', async () => {
      const markdown = await readPageAt(suite.jawad, `${suite.fixtures.url}/real-sites/trafilatura--zeit.de.zugverkehr.html`);
      const head = markdown.slice(0, markdown.indexOf('Ein Zug in England'));
      expect(head).toContain('# Zugverkehr: Im ICE von Frankfurt nach Barcelona');
      expect(head).toContain('Mit Schnellzugtrassen durch Europa will die FDP zum Klimaschutz beitragen.');
      expect(head).toMatch(/Eine Analyse von \[Caspar Schwietering\]/);
      expect(head).toContain('Januar 2020, 9:21 Uhr');
      expect(markdown).toMatch(/hat die neue Strecke auch die Fahrt von Spanien nach Deutschland kaum beschleunigt\.$/);
      expect(markdown).not.toContain('ThomasMelber');
    });

    it('gives the byline once when the landmark holds it (The Atlantic)', async () => {
      const markdown = await readPageAt(suite.jawad, `${suite.fixtures.url}/real-sites/postlight--www.theatlantic.com.html`);
      const head = markdown.slice(0, markdown.indexOf('Just before 8 in the morning'));
      expect(head).toContain('The city has never before used the emergency system the way it did Monday morning.');
      expect(head).toContain('September 19, 2016');
      expect(head.match(/Kaveh Waddell/g)).toHaveLength(1);
    });
  });
}
