import { describe, expect, it } from 'vitest';
import { pdfRequestFrom, READ_PDF } from '../../src/protocol/pdf';

describe('who the PDF reader answers', () => {
  const request = { type: READ_PDF, url: 'https://example.org/a.pdf', maxChars: 20_000 };
  const background = { id: 'jawad-id' };

  it('takes a well-formed READ_PDF from the extension itself', () => {
    expect(pdfRequestFrom(request, background, 'jawad-id')).toEqual(request);
  });

  it('ignores another extension, anything sent from a tab, and malformed or other messages', () => {
    expect(pdfRequestFrom(request, { id: 'other-extension' }, 'jawad-id')).toBeUndefined();
    expect(pdfRequestFrom(request, { id: 'jawad-id', tab: { id: 4 } }, 'jawad-id')).toBeUndefined();
    expect(pdfRequestFrom({ ...request, maxChars: -1 }, background, 'jawad-id')).toBeUndefined();
    expect(pdfRequestFrom({ ...request, url: 42 }, background, 'jawad-id')).toBeUndefined();
    expect(pdfRequestFrom({ type: 'MASK_STOP' }, background, 'jawad-id')).toBeUndefined();
    expect(pdfRequestFrom(null, background, 'jawad-id')).toBeUndefined();
  });
});
