/**
 * Tables as the reader gives them to the model: one markdown row per table row, each cell under its
 * header, spans laid out, a table Readability took apart put back whole, and a table that lays out
 * a page read as its content. On real pages (captures from trafilatura's and Postlight's test
 * suites) and on an admin list of 2,000 rows.
 */
import { describe, expect, it } from 'vitest';
import { browsersUnderTest } from './support/extension-browser';
import { useReadyJawad } from './support/flows';
import { readPageAt } from './support/run-tool';

for (const browserName of browsersUnderTest()) {
  describe(`tables read in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);

    it('reads a real benchmark table as rows under its headers (Daniel Lemire’s blog)', async () => {
      const markdown = await readPageAt(suite.jawad, `${suite.fixtures.url}/real-sites/trafilatura--lemire.me.json.html`);
      expect(markdown).toContain(['| file | simdjson | JSON for Modern C++ |', '| --- | --- | --- |', '| apache\\_builds | 2.3 GB/s | 0.098 GB/s |'].join('\n'));
      expect(markdown).toContain('| twitter | 2.2 GB/s | 0.094 GB/s |');
    });

    it('reads a real label-and-value table as one row per fact (ClinicalTrials.gov)', async () => {
      const markdown = await readPageAt(suite.jawad, `${suite.fixtures.url}/real-sites/postlight--clinicaltrials.gov.html`);
      expect(markdown).toContain('| Actual Enrollment : | 40 participants |');
      expect(markdown).toContain('| Actual Study Start Date : | May 13, 2016 |');
    });

    it('reads an admin list whose rows Readability takes for the content with its header row, each user on one line', async () => {
      const markdown = await readPageAt(suite.jawad, `${suite.fixtures.url}/users-table.html`);
      // The column of tick boxes and the visually hidden "Actions" header say nothing, and go.
      expect(markdown).toMatch(/^\| Name \| Email \| Role \| Status \|\n\| --- \| --- \| --- \| --- \|\n\| \[\w+ \w+\]\(http:\/\/[^)]+\/admin\/users\/\d+\) \| [\w.]+@[\w.]+ \| \w+ \| \w+ \|$/m);
    });

    it('lays out spans, keeps the caption, leaves hidden text out, and reads a table that lays out the page as its content', async () => {
      const markdown = await readPageAt(suite.jawad, `${suite.fixtures.url}/conference-programme.html`);
      expect(markdown).toContain([
        'Talks by day',
        '',
        '| Day | Time | Talk |  |',
        '| Day | Time | Title | Room |',
        '| --- | --- | --- | --- |',
        '| Monday | 09:00 | Opening | Orion |',
        '| Monday | 10:00 | [Lagoons \\| costs](http://127.0.0.1:' ,
      ].join('\n'));
      expect(markdown).toContain('| Wednesday | 11:00 | Hackathon | Vega |\n| Wednesday | 15:00 | Farewell | Orion |');
      expect(markdown).not.toContain('after-party');
      // The page's layout table is no table of data: its paragraphs read as paragraphs.
      expect(markdown).toMatch(/^Coastal Energy Week brings engineers/m);
      expect(markdown).toMatch(/^Tickets for a single day are sold at the door/m);
    });
  });
}
