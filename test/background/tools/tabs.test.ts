import { describe, expect, it, vi } from 'vitest';

vi.mock('webextension-polyfill', () => ({ default: {} }));
vi.mock('../../../src/background/page-scripts', () => ({ queryActiveTab: vi.fn() }));

const { summarise } = await import('../../../src/background/tools/tabs');

describe('summarise', () => {
  it('caps the title and the address a page chose, for list_tabs and every tab tool', () => {
    const tab = summarise({ id: 4, title: 'Deals '.repeat(1_000_000), url: `https://shop.example/?q=${'x'.repeat(10_000)}`, active: true, index: 0, highlighted: true, pinned: false, incognito: false });
    expect(tab.title).toHaveLength(300);
    expect(tab.url).toHaveLength(2_000);
    expect(tab).toMatchObject({ id: 4, active: true });
  });

  it('keeps ordinary titles and addresses whole', () => {
    expect(summarise({ id: 1, title: 'Shop', url: 'https://shop.example/', active: false, index: 0, highlighted: false, pinned: false, incognito: false })).toEqual({ id: 1, title: 'Shop', url: 'https://shop.example/', active: false });
  });
});
