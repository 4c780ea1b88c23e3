/**
 * Between the background and the document that reads PDFs with pdf.js (Chromium's offscreen
 * document; Firefox's background page reads them itself). The background sends; only the
 * offscreen document answers, and only to the extension itself.
 */
import * as z from 'zod/mini';

export const READ_PDF = 'READ_PDF';

export const ReadPdfRequest = z.object({
  type: z.literal(READ_PDF),
  url: z.string(),
  maxChars: z.int().check(z.positive()),
});
export type ReadPdfRequest = z.infer<typeof ReadPdfRequest>;

export const PdfDocument = z.object({
  title: z.string(),
  markdown: z.string(),
  truncated: z.boolean(),
  pages: z.int(),
  lang: z.optional(z.string()),
});
export type PdfDocument = z.infer<typeof PdfDocument>;

/** The document, `null` when the address answers no PDF, or why it could not be read. */
export const ReadPdfAnswer = z.union([z.object({ pdf: z.nullable(PdfDocument) }), z.object({ error: z.string() })]);
export type ReadPdfAnswer = z.infer<typeof ReadPdfAnswer>;

/**
 * The request, if it is one the reader may take: READ_PDF, well formed, from this extension and not
 * from a tab (a content script runs in one).
 */
export function pdfRequestFrom(message: unknown, sender: { id?: string; tab?: unknown }, ownId: string): ReadPdfRequest | undefined {
  if (sender.id !== ownId || sender.tab !== undefined) return undefined;
  const request = ReadPdfRequest.safeParse(message);
  return request.success ? request.data : undefined;
}
