import { describe, expect, it } from 'vitest';
import { hoverAsMark, hoverRules, type RuleLike } from '../../../src/content/actions/pointer';

const style = (selectorText: string, body: string, cssRules: RuleLike[] = []): RuleLike => ({ selectorText, cssText: `${selectorText} { ${body} }`, cssRules });
const group = (prelude: string, cssRules: RuleLike[]): RuleLike => ({ cssText: `${prelude} { ${cssRules.map((rule) => rule.cssText).join(' ')} }`, cssRules });

describe('the pointer’s :hover rules', () => {
  it('reads :hover as the pointer’s mark, but not an escaped class name that says hover', () => {
    expect(hoverAsMark('.has-sub:hover > .sub')).toBe('.has-sub[data-jawad-hover] > .sub');
    expect(hoverAsMark(':host(:hover) .more, a:not(:hover)')).toBe(':host([data-jawad-hover]) .more, a:not([data-jawad-hover])');
    // Tailwind's `hover:underline` class: the first colon is escaped, the second is the state.
    expect(hoverAsMark('.hover\\:underline:hover')).toBe('.hover\\:underline[data-jawad-hover]');
    expect(hoverAsMark('.group:hover .group-hover\\:block')).toBe('.group[data-jawad-hover] .group-hover\\:block');
  });

  it('copies only the rules that mention :hover, each under the @media and nesting it was written in', () => {
    const rules = [
      style('.sub', 'display: none;'),
      style('.has-sub:hover > .sub', 'display: block;'),
      group('@media (min-width: 600px)', [style('.card', 'padding: 4px;'), style('.card:hover .buttons', 'visibility: visible;')]),
      group('@media print', [style('.card', 'border: 0;')]),
      style('.menu', 'color: red;', [style('&:hover > ul', 'display: block;')]),
    ];
    expect(hoverRules(rules)).toEqual([
      '.has-sub[data-jawad-hover] > .sub { display: block; }',
      '@media (min-width: 600px) { .card[data-jawad-hover] .buttons { visibility: visible; } }',
      '.menu { &[data-jawad-hover] > ul { display: block; } }',
    ]);
  });

  it('follows @import into the sheet it brings', () => {
    const imported: RuleLike = { cssText: '@import url(menu.css);', styleSheet: { cssRules: [style('li:hover ul', 'display: block;')] } };
    expect(hoverRules([imported])).toEqual(['li[data-jawad-hover] ul { display: block; }']);
  });

  it('finds nothing in a sheet without :hover', () => {
    expect(hoverRules([style('a', 'color: blue;'), group('@media print', [style('a', 'color: black;')])])).toEqual([]);
  });
});
