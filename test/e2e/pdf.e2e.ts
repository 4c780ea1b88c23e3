/**
 * A PDF the browser shows in its own viewer, which lets no extension read it: Jawad reads the
 * document's text with pdf.js, for the chat and for read_page, in both browsers. The documents are
 * real ones from Debian's packages (the Shared MIME-info specification, GNU Libtasn1's manual);
 * the locked and the broken one are made from them by qpdf and by cutting a download short.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MADE_BY_TESTS } from '../support/fixture-server';
import { ensurePackages } from '../support/real-apps/debian';
import { browsersUnderTest } from './support/extension-browser';
import { markAnswersSeen, useReadyJawad, waitForAnswer } from './support/flows';
import { runTool } from './support/run-tool';

const SPEC = '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf';
const MANUAL = '/usr/share/doc/libtasn1-doc/libtasn1.pdf';

interface PdfRead {
  title: string;
  markdown: string;
  truncated: boolean;
  pdfPages?: number;
  interactiveElements: unknown[];
}

beforeAll(() => {
  ensurePackages(['shared-mime-info', 'libtasn1-doc', 'qpdf']);
  mkdirSync(MADE_BY_TESTS, { recursive: true });
  execFileSync('qpdf', ['--encrypt', 'secret', 'owner-secret', '256', '--', SPEC, join(MADE_BY_TESTS, 'locked.pdf')]);
  // A download cut short: the document's first 3,000 bytes.
  writeFileSync(join(MADE_BY_TESTS, 'cut-short.pdf'), readFileSync(SPEC).subarray(0, 3000));
}, 600_000);

for (const browserName of browsersUnderTest()) {
  describe(`PDFs in ${browserName}`, () => {
    const suite = useReadyJawad(browserName);
    /** Firefox's viewer, asking for a password or showing its error, never ends the page's load. */
    const openShown = async (path: string) => {
      const page = await suite.jawad.openTab('about:blank');
      await page.goto(`${suite.fixtures.url}${path}`, { waitUntil: 'domcontentloaded' });
    };

    it('summarizes a PDF the browser shows: its text, every page under its number, reaches the model as untrusted page content', async () => {
      await suite.jawad.openTab(`${suite.fixtures.url}/debian-docs/shared-mime-info/shared-mime-info-spec.pdf`);
      suite.provider.enqueue({ kind: 'openai-stream', chunks: ['A specification of ', 'the shared MIME database.'] });
      await markAnswersSeen(suite.jawad.sidebar);
      await suite.jawad.sidebar.click('.composer button', 'Summarize page');
      const answer = await waitForAnswer(suite.jawad.sidebar);
      expect(answer.text).toBe('A specification of the shared MIME database.');

      // The document has no title of its own: it is named by its file.
      expect(await suite.jawad.sidebar.text('article.message.user .page-chip')).toContain('shared-mime-info-spec.pdf');
      const body = suite.provider.requests.at(-1)!.json as { messages: Array<{ role: string; content: string }> };
      const prompt = body.messages.at(-1)!.content;
      expect(prompt).toMatch(/<<<UNTRUSTED_PAGE_CONTENT [0-9a-f]{16}>>>[\s\S]*## Page 1\n\nShared MIME-info Database\n[\s\S]*<<<END_UNTRUSTED_PAGE_CONTENT [0-9a-f]{16}>>>/);
      expect(prompt).toContain('This is version 0.21 of the Shared MIME-info Database specification');
      // The last of its 17 pages too.
      expect(prompt).toMatch(/## Page 17\n\n[\s\S]*2\.17\. User modification/);
    });

    it('reads a long PDF with read_page up to the length asked for and says it was cut; the snapshot points to read_page', async () => {
      await suite.jawad.openTab(`${suite.fixtures.url}/debian-docs/libtasn1-doc/libtasn1.pdf`);
      const read = await runTool<PdfRead>(suite.jawad, 'read_page', { maxChars: 4000 });
      expect(read.success, JSON.stringify(read.error)).toBe(true);
      expect(read.data).toMatchObject({ truncated: true, pdfPages: 36, interactiveElements: [] });
      expect(read.data!.markdown.length).toBeLessThanOrEqual(4000);
      expect(read.data!.markdown).toMatch(/^## Page 1\n\nLibtasn1 Abstract Syntax Notation One \(ASN\.1\) library for the GNU system/);
      expect(read.data!.markdown).not.toContain('## Page 36');

      const whole = await runTool<PdfRead>(suite.jawad, 'read_page', { maxChars: 200_000 });
      expect(whole.data).toMatchObject({ truncated: false, pdfPages: 36 });
      expect(whole.data!.markdown).toContain('## Page 36');

      // Nothing in the viewer can be acted on: the snapshot says so and where the text is.
      const snapshot = await runTool<{ text: string }>(suite.jawad, 'snapshot');
      const told = snapshot.success ? snapshot.data!.text : snapshot.error!.message;
      expect(told).toMatch(/PDF/);
      expect(told).toContain('read_page');
    });

    it('says why a PDF cannot be read, locked with a password, cut short or gone from its address, and reads a web page as before', async () => {
      await openShown('/made/locked.pdf');
      const locked = await runTool(suite.jawad, 'read_page');
      expect(locked.success).toBe(false);
      expect(locked.error).toMatchObject({ code: 'PAGE_UNREADABLE', message: 'This PDF is locked with a password: Jawad cannot read it.' });

      await openShown('/made/cut-short.pdf');
      const cut = await runTool(suite.jawad, 'read_page');
      expect(cut.success).toBe(false);
      expect(cut.error?.code).toBe('PAGE_UNREADABLE');
      expect(cut.error?.message).toMatch(/^This PDF could not be read: /);

      // A link that served its PDF once: the viewer has it, a second download gets 410 Gone.
      await suite.jawad.openTab(`${suite.fixtures.url}/once/debian-docs/shared-mime-info/shared-mime-info-spec.pdf`);
      const gone = await runTool(suite.jawad, 'read_page');
      expect(gone.error?.code).toBe('PAGE_UNREADABLE');
      // Chromium's viewer says it shows a PDF; Firefox's lets no extension ask.
      expect(gone.error?.message).toMatch(browserName === 'chromium' ? /^This tab shows a PDF that Jawad could not download again/ : /PDF viewer \(read_page reads a PDF’s text\)/);

      await suite.jawad.openTab(`${suite.fixtures.url}/article.html`);
      const page = await runTool<PdfRead>(suite.jawad, 'read_page');
      expect(page.data?.pdfPages).toBeUndefined();
      expect(page.data?.markdown).toContain('second-highest tidal range in the world');
    });
  });
}
