/**
 * Ground truth a page carries about itself (as in test/fixtures/snapshot-shop.html):
 * data-expect="ref" on what a user can act on, data-expect="none" on interactive elements a user
 * cannot see. Read from the live page, since the table fixture builds its rows in script.
 */
import type { Page } from 'puppeteer-core';
import { evalIn } from '../bench/pages';

export interface Expectation {
  testid: string;
  expect: 'ref' | 'none';
}

export interface TruthScore {
  /** Marked data-expect="ref". */
  expected: number;
  /** Of those, how many the snapshot gave a ref (matched by data-testid). */
  found: number;
  /** found / expected, in %. */
  recall: number;
  missing: string[];
  /** Marked data-expect="none". */
  hiddenMarked: number;
  /** Refs whose testid is marked data-expect="none": hidden elements offered to the model. */
  leaks: string[];
}

/**
 * Page code: every marked element in the document, open shadow roots and <template> contents
 * (querySelectorAll alone sees neither of the last two).
 */
function collectMarks(): Expectation[] {
  const found: Expectation[] = [];
  const walk = (root: ParentNode) => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const kind = el.getAttribute('data-expect');
      if (kind === 'ref' || kind === 'none') found.push({ testid: el.getAttribute('data-testid') ?? '', expect: kind });
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el instanceof HTMLTemplateElement) walk(el.content);
    }
  };
  walk(document);
  return found;
}

export function readMarks(page: Page): Promise<Expectation[]> {
  return evalIn(page, collectMarks, null);
}

/** Scores a snapshot's refs against the marks; undefined when the page carries none. */
export function scoreRefs(marks: readonly Expectation[], refs: ReadonlyArray<{ testid?: string | undefined; role: string; name: string }>): TruthScore | undefined {
  if (marks.length === 0) return undefined;
  const seen = new Set(refs.map((r) => r.testid).filter(Boolean));
  const wanted = marks.filter((m) => m.expect === 'ref').map((m) => m.testid);
  const hidden = new Set(marks.filter((m) => m.expect === 'none').map((m) => m.testid));
  const missing = wanted.filter((testid) => !seen.has(testid));
  const found = wanted.length - missing.length;
  return {
    expected: wanted.length,
    found,
    recall: wanted.length === 0 ? 100 : (100 * found) / wanted.length,
    missing,
    hiddenMarked: hidden.size,
    leaks: refs.filter((r) => r.testid && hidden.has(r.testid)).map((r) => `${r.testid} (${r.role} "${r.name}")`),
  };
}
