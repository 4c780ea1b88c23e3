/**
 * A PDF's text as a model reads it: each page under its own heading, in order, up to the length
 * asked for. Pure: pdf.js hands in each page's runs of text (read-pdf.ts).
 */

/** A run of text pdf.js found on a page (its TextItem, as far as reading goes). */
export interface TextRun {
  str: string;
  /** The run ends its line. */
  hasEOL: boolean;
}

/** A page's text, line by line as pdf.js ends them, without trailing spaces or runs of blank lines. */
export function pageText(runs: readonly TextRun[]): string {
  let text = '';
  for (const run of runs) text += run.str + (run.hasEOL ? '\n' : '');
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface PdfPages {
  markdown: string;
  /** Cut at the length asked for: pages after the cut were not read. */
  truncated: boolean;
  /** Pages whose text is in `markdown`, whole or (the last) cut. */
  read: number;
  /** True when no page read had any text: a scan, pages that are pictures of text. */
  textless: boolean;
}

/**
 * Reads pages one by one until the document ends or the text reaches `maxChars`, so a 500-page
 * manual asked for 20,000 characters costs its first pages only.
 */
export async function collectPages(pageCount: number, textOf: (pageNumber: number) => Promise<string>, maxChars: number): Promise<PdfPages> {
  let markdown = '';
  let textless = true;
  for (let number = 1; number <= pageCount; number++) {
    const text = await textOf(number);
    if (text) textless = false;
    const section = `${number > 1 ? '\n\n' : ''}## Page ${number}\n\n${text || '(no text on this page)'}`;
    if (markdown.length + section.length > maxChars) {
      return { markdown: (markdown + section).slice(0, maxChars), truncated: true, read: number, textless };
    }
    markdown += section;
  }
  return { markdown, truncated: false, read: pageCount, textless };
}
