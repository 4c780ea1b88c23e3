import { describe, expect, it } from 'vitest';
import { checkClaims, failureIn, inPlanOrder, markUncited, NO_EVIDENCE, parseClaims, renderReport, type PageRead } from '../../../src/background/workflow/evidence';

const page: PageRead = { url: 'http://127.0.0.1:8000/alpine.html', title: 'Trail jacket — Alpine', text: '# Trail jacket\n\nPrice:   **149.00 €**\n\nAvailability: In stock', at: Date.UTC(2026, 10, 23, 18, 0), tabId: 7 };

describe('claims from a step’s answer', () => {
  it('reads one fact per line with its quote, in the quote styles models use', () => {
    expect(parseClaims('Here you go:\n- Alpine asks 149 € | "Price: 149.00 €"\n* In stock — “Availability: In stock”\n1. Light jacket\nThanks')).toEqual([
      { claim: 'Alpine asks 149 €', quote: 'Price: 149.00 €' },
      { claim: 'In stock', quote: 'Availability: In stock' },
      { claim: 'Light jacket' },
    ]);
  });

  it('tells a failure from an answer', () => {
    expect(failureIn('FAILED: the page has no price')).toBe('the page has no price');
    expect(failureIn('- price | "Price: 1"')).toBeUndefined();
  });
});

describe('checkClaims', () => {
  it('keeps a claim as evidence only when its quote is on a page the step read (spacing, case and markup aside)', () => {
    const claims = [
      { claim: 'Alpine asks 149 €', quote: 'price: 149.00 €' },
      { claim: 'It ships tomorrow', quote: 'Ships tomorrow' },
      { claim: 'It is light' },
    ];
    const checked = checkClaims(claims, [page], { id: 'step-1' }, 2);
    expect(checked.evidence).toEqual([{ n: 3, stepId: 'step-1', claim: 'Alpine asks 149 €', quote: 'price: 149.00 €', url: page.url, title: page.title, at: page.at, tabId: 7 }]);
    expect(checked.unsupported).toEqual(['It ships tomorrow', 'It is light']);
  });
});

describe('the report', () => {
  it('numbers the sources in the plan’s order, whatever order the steps finished in', () => {
    const item = (stepId: string, n: number, claim: string) => ({ n, stepId, claim, quote: claim, url: `http://a.example/${claim}`, title: claim, at: 0, tabId: 1 });
    const finished = [item('s3', 1, 'c'), item('s1', 2, 'a1'), item('s2', 3, 'b'), item('s1', 4, 'a2')];
    const ordered = inPlanOrder(finished, [{ id: 's1' }, { id: 's2' }, { id: 's3' }]);
    expect(ordered.map((e) => [e.n, e.claim])).toEqual([[1, 'a1'], [2, 'a2'], [3, 'b'], [4, 'c']]);
  });

  it('marks every claim line that cites no known source and drops numbers that point nowhere', () => {
    expect(markUncited('# Prices\n\nAlpine is cheapest [1].\n- Boreal asks 129 € [7]\n\n| a | b |\n| --- | --- |', 1)).toBe(
      `# Prices\n\nAlpine is cheapest [1].\n- Boreal asks 129 € ${NO_EVIDENCE}\n\n| a | b | ${NO_EVIDENCE}\n| --- | --- |`,
    );
  });

  it('numbers the sources with title, link, quote, tab and time, and lists unbacked facts as such', () => {
    const [evidence] = checkClaims([{ claim: 'Alpine asks 149 €', quote: 'Price: 149.00 €' }], [page], { id: 's' }, 0).evidence;
    const report = renderReport({ intent: 'Compare [jackets]', summary: 'Alpine asks 149 € [1].', evidence: [evidence!], unsupported: ['It ships tomorrow'] });
    expect(report).toBe([
      '# Compare jackets',
      '',
      'Alpine asks 149 € [1].',
      '',
      '## Not backed by a quote',
      '',
      `- It ships tomorrow ${NO_EVIDENCE}`,
      '',
      '## Sources',
      '',
      '1. [Trail jacket — Alpine](http://127.0.0.1:8000/alpine.html) — “Price: 149.00 €” (tab 7, 2026-11-23 18:00 UTC)',
    ].join('\n'));
  });

  it('keeps markdown a page put in a title or quote from becoming links or markup', () => {
    const hostile = { n: 1, stepId: 's', claim: 'x', quote: '](javascript:alert(1)) **bold**', url: 'http://a.example/a b', title: '[click me](http://evil.example)', at: 0, tabId: 1 };
    const report = renderReport({ intent: 'i', summary: 'x [1]', evidence: [hostile], unsupported: [] });
    const sources = report.split('## Sources')[1]!;
    expect(sources).not.toContain('](javascript');
    expect(sources).not.toContain('](http://evil.example)');
    expect(sources).toContain('(http://a.example/a%20b)');
  });
});
