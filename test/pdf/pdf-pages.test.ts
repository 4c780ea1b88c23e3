import { describe, expect, it } from 'vitest';
import { collectPages, pageText } from '../../src/pdf/pdf-pages';

describe('a PDF page’s text', () => {
  it('ends lines where pdf.js ends them, without trailing spaces or runs of blank lines', () => {
    const runs = [
      { str: 'Shared MIME-info', hasEOL: false },
      { str: ' Database  ', hasEOL: true },
      { str: '', hasEOL: true },
      { str: '', hasEOL: true },
      { str: '', hasEOL: true },
      { str: '1. Introduction', hasEOL: true },
    ];
    expect(pageText(runs)).toBe('Shared MIME-info Database\n\n1. Introduction');
  });
});

describe('collecting a PDF’s pages', () => {
  const pages = ['First page text.', '', 'Third page text.'];
  const textOf = (asked: number[]) => async (number: number) => {
    asked.push(number);
    return pages[number - 1]!;
  };

  it('puts every page under its number, and says which had no text', async () => {
    const read = await collectPages(3, textOf([]), 10_000);
    expect(read).toEqual({
      markdown: '## Page 1\n\nFirst page text.\n\n## Page 2\n\n(no text on this page)\n\n## Page 3\n\nThird page text.',
      truncated: false,
      read: 3,
      textless: false,
    });
  });

  it('stops reading pages once the text is as long as asked, and says it was cut', async () => {
    const asked: number[] = [];
    const read = await collectPages(3, textOf(asked), 40);
    expect(read.markdown).toBe('## Page 1\n\nFirst page text.\n\n## Page 2\n\n');
    expect(read.markdown).toHaveLength(40);
    expect(read).toMatchObject({ truncated: true, read: 2 });
    expect(asked).toEqual([1, 2]);
  });

  it('tells a document whose pages have no text at all (a scan) from one with text', async () => {
    expect((await collectPages(2, async () => '', 10_000)).textless).toBe(true);
    expect((await collectPages(0, async () => '', 10_000)).textless).toBe(true);
  });
});
