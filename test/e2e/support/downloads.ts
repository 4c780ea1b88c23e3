/** Files the sidebar saves, read back by tests. */
import type { Sidebar } from './extension-browser';

/** Routes the sidebar's file downloads into a list the test can read (the browser's download UI is out of reach headless). */
export function captureDownloads(sidebar: Sidebar): Promise<void> {
  return sidebar.eval((win) => {
    const saved: Array<{ name: string; href: string }> = [];
    (win as unknown as { __downloads: typeof saved }).__downloads = saved;
    win.HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (this.download) saved.push({ name: this.download, href: this.href });
    };
  }, null);
}

export async function downloaded(sidebar: Sidebar, name: RegExp): Promise<string> {
  const href = await sidebar.waitFor(
    (win, pattern) => (win as unknown as { __downloads: Array<{ name: string; href: string }> }).__downloads.find((d) => new RegExp(pattern).test(d.name))?.href,
    name.source,
    `a download named ${name}`,
  );
  return sidebar.eval((_win, url) => fetch(url!).then((r) => r.text()), href);
}

