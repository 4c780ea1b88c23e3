import { afterEach, describe, expect, it, vi } from 'vitest';

const runtime = vi.hoisted(() => ({ sendMessage: vi.fn() }));
vi.mock('webextension-polyfill', () => ({ default: { runtime } }));
import { readPdf } from '../../src/platform/make-chromium-happy';

/** A promise the test settles when it chooses. */
function later<T>() {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (settle = resolve));
  return { promise, settle };
}

const request = (url: string) => ({ type: 'READ_PDF' as const, url, maxChars: 1_000 });
const pdf = (title: string) => ({ pdf: { title, markdown: '## Page 1\n\ntext', truncated: false, pages: 1 } });

describe('reading PDFs in Chromium’s offscreen document', () => {
  const events: string[] = [];
  const offscreen = {
    createDocument: vi.fn(async () => void events.push('open')),
    closeDocument: vi.fn(async () => void events.push('close')),
  };
  vi.stubGlobal('chrome', { offscreen });
  afterEach(() => {
    events.length = 0;
    vi.clearAllMocks();
  });

  it('opens one document for reads at once, and closes it once the last of them ends', async () => {
    const first = later<unknown>();
    const second = later<unknown>();
    runtime.sendMessage.mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const reads = [readPdf(request('https://a.example/1.pdf')), readPdf(request('https://a.example/2.pdf'))];
    await vi.waitFor(() => expect(runtime.sendMessage).toHaveBeenCalledTimes(2));
    expect(events).toEqual(['open']);
    first.settle(pdf('One'));
    await expect(reads[0]).resolves.toEqual(pdf('One'));
    expect(events).toEqual(['open']);
    second.settle(pdf('Two'));
    await expect(reads[1]).resolves.toEqual(pdf('Two'));
    await vi.waitFor(() => expect(events).toEqual(['open', 'close']));
  });

  it('opens it again for a later read only once the last close is done, and takes a document a stopped background left open', async () => {
    const closing = later<void>();
    offscreen.closeDocument.mockImplementationOnce(async () => {
      await closing.promise;
      events.push('close');
    });
    runtime.sendMessage.mockResolvedValue(pdf('Again'));
    await readPdf(request('https://a.example/1.pdf'));
    const next = readPdf(request('https://a.example/2.pdf'));
    await Promise.resolve();
    expect(events).toEqual(['open']);
    closing.settle();
    await expect(next).resolves.toEqual(pdf('Again'));
    expect(events.slice(0, 3)).toEqual(['open', 'close', 'open']);

    offscreen.createDocument.mockRejectedValueOnce(new Error('Only a single offscreen document may be created.'));
    await expect(readPdf(request('https://a.example/3.pdf'))).resolves.toEqual(pdf('Again'));
  });

  it('tells a malformed answer from the document as an error, and closes the document all the same', async () => {
    runtime.sendMessage.mockResolvedValueOnce({ pdf: 'not a document' });
    await expect(readPdf(request('https://a.example/1.pdf'))).rejects.toThrow();
    await vi.waitFor(() => expect(events).toEqual(['open', 'close']));
  });
});
