import { describe, expect, it, vi } from 'vitest';
import type { PageContent, PageSnapshot } from '../../../src/protocol';

// The reader and the page agent run in the page (tested end to end): here they answer as fakes.
vi.mock('webextension-polyfill', () => ({ default: {} }));
vi.mock('../../../src/background/page-scripts', () => ({ activeTab: vi.fn(), askFrame: vi.fn(), contextTab: async () => ({ id: 4, url: 'https://shop.example/' }), injectPageScript: vi.fn(), PAGE_AGENT: {} }));
const content: PageContent = { title: 'Shop', url: 'https://shop.example/', markdown: '# Shop', truncated: false, product: null, interactiveElements: [] };
const outline: PageSnapshot = {
  url: 'https://shop.example/', title: 'Shop', text: '- button "Buy" [ref=e1]\n- iframe [frame=t1]\n  - link "Help" [ref=f3e1]', elementCount: 9, partial: false,
  refs: [{ ref: 'e1', role: 'button', name: 'Buy', tag: 'button' }, { ref: 'f3e1', role: 'link', name: 'Help', tag: 'a' }],
};
const readActivePage = vi.fn(async () => content);
vi.mock('../../../src/background/page-reader', () => ({ readActivePage: (...args: unknown[]) => readActivePage(...(args as [])) }));
vi.mock('../../../src/background/tools/snapshot', () => ({ snapshot: { params: { parse: () => ({ maxRefs: 3000, timeBudgetMs: 800, page: 1 }) }, run: async () => outline } }));

import { readPage } from '../../../src/background/tools/read-page';

describe('read_page', () => {
  it('lists what a user can act on with the snapshot’s refs, frames included, next to the markdown', async () => {
    const result = await readPage.run({ maxChars: 5_000 }, { requestId: 'user-1a2b3c4d', windowId: 7, signal: new AbortController().signal });
    expect(result).toEqual({ ...content, interactiveElements: outline.refs });
    expect(readActivePage).toHaveBeenCalledWith('user-1a2b3c4d', 7, 5_000, undefined);
  });
});
