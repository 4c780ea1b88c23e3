import { describe, expect, it } from 'vitest';
import { corpusPaths, geomean, keptShare, renderCorpus, words } from '../../../scripts/bench-snapshot/corpus';

describe('the real-site corpus', () => {
  it('holds at least 50 captured pages, each served as NAME.html', () => {
    const paths = corpusPaths();
    expect(paths.length).toBeGreaterThanOrEqual(50);
    expect(paths.every((path) => /^\/real-sites\/.+\.html$/.test(path))).toBe(true);
  });
});

describe('visible words kept', () => {
  it('counts each occurrence, ignores case and punctuation, and splits unspaced scripts by character', () => {
    expect(words('The cat, the HAT.')).toEqual(new Map([['the', 2], ['cat', 1], ['hat', 1]]));
    expect([...words('只能想念你 Zhi')].map(([word]) => word)).toEqual(['只', '能', '想', '念', '你', 'zhi']);
  });

  it('is the share of the page’s words the snapshot holds, repeated words counted as often as they show', () => {
    const visible = words('Delivery: 3 days. Returns: 30 days.');
    expect(keptShare(visible, '- text: Delivery: 3 days')).toBeCloseTo(3 / 6);
    expect(keptShare(visible, 'Delivery 3 days Returns 30 days [ref=e1]')).toBe(1);
    expect(keptShare(words(''), 'anything')).toBe(1);
  });

  it('takes the geometric mean of ratios', () => {
    expect(geomean([0.25, 1])).toBeCloseTo(0.5);
  });
});

describe('the corpus table', () => {
  const row = (page: string, ours: number, anchor: number, kept = 0.95) => ({
    page, visibleWords: 500, ours: { ms: ours, tokens: 100, kept }, anchor: { ms: anchor, tokens: 400, kept: 1 },
  });

  it('marks a page slower than Playwright and fails the means it misses', () => {
    const table = renderCorpus([row('fast', 10, 100), row('slow', 120, 100)]);
    expect(table).toMatch(/^slow .* SLOWER$/m);
    expect(table).toContain('pages slower than Playwright: 1  (target 0)  FAIL');
    expect(table).toMatch(/geometric mean token ratio {2}0\.250× .* PASS/);
    expect(table).toMatch(/geometric mean time ratio {3}0\.346× .* FAIL/);
  });

  it('leaves pages that render nothing without their scripts out of the means, saying so', () => {
    const empty = { ...row('blank', 500, 10), visibleWords: 3 };
    const table = renderCorpus([row('fast', 10, 100), empty]);
    expect(table).toContain('1 pages counted of 2.');
    expect(table).toContain('(renders nothing without scripts: not counted)');
    expect(table).toContain('pages slower than Playwright: 0');
  });
});
