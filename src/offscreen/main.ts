/**
 * Chromium's offscreen document, where PDFs are read (a service worker may not load pdf.js on
 * demand, nor start its worker). It answers the background's READ_PDF and nothing else.
 */
import browser, { type Runtime } from 'webextension-polyfill';
import { pdfRequestFrom } from '../protocol/pdf';
import { readPdf } from '../pdf/read-pdf';

browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
  const request = pdfRequestFrom(message, sender, browser.runtime.id);
  return request ? readPdf(request) : undefined;
});
