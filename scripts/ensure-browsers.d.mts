/** Types of ensure-browsers.mjs (plain JS: `npm start` runs it before any dependency is needed). */
export interface AptBrowser {
  path: string;
  apt: string;
}
export const CHROMIUM: string;
export const FIREFOX: string;
export const XVFB: AptBrowser;
export function ensureBrowsers(extra?: AptBrowser[]): void;
