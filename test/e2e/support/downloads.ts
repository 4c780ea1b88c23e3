/** Files the sidebar saves, read back by tests. */
import type { Sidebar } from './extension-browser';

/** A file the sidebar handed to the browser: its name, its blob URL, and when (the sidebar's clock). */
export interface Download {
  name: string;
  href: string;
  at: number;
}

/** Routes the sidebar's file downloads into a list the test can read (the browser's download UI is out of reach headless). */
export function captureDownloads(sidebar: Sidebar): Promise<void> {
  return sidebar.eval((win) => {
    const saved: Download[] = [];
    (win as unknown as { __downloads: typeof saved }).__downloads = saved;
    win.HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (this.download) saved.push({ name: this.download, href: this.href, at: win.performance.now() });
    };
  }, null);
}

/** Waits for a download named like `name`. */
export async function download(sidebar: Sidebar, name: RegExp, timeoutMs?: number): Promise<Download> {
  const found = await sidebar.waitFor(
    (win, pattern) => (win as unknown as { __downloads: Download[] }).__downloads.find((d) => new RegExp(pattern).test(d.name)),
    name.source,
    `a download named ${name}`,
    timeoutMs,
  );
  return found!;
}

/** The text of a download named like `name`, once there is one. */
export async function downloaded(sidebar: Sidebar, name: RegExp): Promise<string> {
  const { href } = await download(sidebar, name);
  return sidebar.eval((_win, url) => fetch(url).then((r) => r.text()), href);
}

