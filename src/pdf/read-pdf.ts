/**
 * Reads the PDF at an address as text with Mozilla's pdf.js, in an extension document (Firefox's
 * background page, Chromium's offscreen document): the browser's own PDF viewer lets no extension
 * read the document it shows, so Jawad downloads it again from its address and reads it.
 */
import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';
import type { TextItem, TextMarkedContent } from 'pdfjs-dist/types/src/display/api';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type { PdfDocument, ReadPdfAnswer, ReadPdfRequest } from '../protocol/pdf';
import { collectPages, pageText } from './pdf-pages';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Where the build puts pdf.js's character maps (vite.config.ts): the text of CJK fonts needs them. */
const CMAPS = '/pdfjs/cmaps/';
/** A PDF larger than this is not downloaded a second time to be read. */
const MAX_PDF_BYTES = 50 * 1024 * 1024;
/** How long the address has to answer. */
const FETCH_TIMEOUT_MS = 10_000;

/** The reason a PDF could not be read, in words for the model and the user. */
class PdfError extends Error {}

const isPdfStart = (bytes: Uint8Array) => bytes.length >= 5 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-';

/**
 * The bytes at the address if they are a PDF; undefined if the address answers something else (a
 * page the browser would not let an extension read for another reason).
 */
async function fetchPdf(url: string): Promise<Uint8Array | undefined> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'include', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch {
    return undefined;
  }
  const declared = response.headers.get('content-type') ?? '';
  const length = Number(response.headers.get('content-length') ?? 0);
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    return undefined;
  }
  if (length > MAX_PDF_BYTES) {
    await response.body.cancel();
    if (/pdf/i.test(declared)) throw new PdfError(`This PDF is too large to read (${Math.round(length / 1024 / 1024)} MB; Jawad reads PDFs up to ${MAX_PDF_BYTES / 1024 / 1024} MB).`);
    return undefined;
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  return isPdfStart(bytes) ? bytes : undefined;
}

const isTextItem = (item: TextItem | TextMarkedContent): item is TextItem => 'str' in item;

/** The document's text, page by page, up to `maxChars`. */
async function pdfText(data: Uint8Array, name: string, maxChars: number): Promise<PdfDocument> {
  // No eval (the extension's pages forbid it) and no fonts loaded: only the text is read.
  const task = getDocument({ data, isEvalSupported: false, disableFontFace: true, cMapUrl: CMAPS, cMapPacked: true });
  try {
    const document = await task.promise.catch((error: unknown) => {
      if ((error as Error | null)?.name === 'PasswordException') throw new PdfError('This PDF is locked with a password: Jawad cannot read it.');
      throw new PdfError(`This PDF could not be read: ${(error as Error | null)?.message ?? String(error)}`);
    });
    const { info } = (await document.getMetadata().catch(() => ({ info: {} }))) as { info: { Title?: unknown; Language?: unknown } };
    const read = await collectPages(document.numPages, async (number) => pageText((await (await document.getPage(number)).getTextContent()).items.filter(isTextItem)), maxChars);
    const title = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : name;
    const markdown = read.textless ? '(This PDF has no text to read: its pages are pictures, a scan perhaps. Jawad does not read text in pictures.)' : read.markdown;
    return { title, markdown, truncated: read.truncated, pages: document.numPages, ...(typeof info.Language === 'string' && info.Language ? { lang: info.Language } : {}) };
  } finally {
    await task.destroy();
  }
}

/** The PDF at the address as text, `null` if the address is not a PDF, or why it could not be read. */
export async function readPdf({ url, maxChars }: Pick<ReadPdfRequest, 'url' | 'maxChars'>): Promise<ReadPdfAnswer> {
  try {
    const data = await fetchPdf(url);
    return { pdf: data ? await pdfText(data, fileNameOf(url), maxChars) : null };
  } catch (error) {
    return { error: error instanceof PdfError ? error.message : `This PDF could not be read: ${String(error)}` };
  }
}

function fileNameOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || url;
  } catch {
    return url;
  }
}
