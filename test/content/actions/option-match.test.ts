import { describe, expect, it } from 'vitest';
import { describeOptions, pickOption, type OptionFacts } from '../../../src/content/actions/option-match';
import { quote } from '../../../src/content/snapshot/page-text';

const SHIRTS: OptionFacts[] = [
  { values: ['s', 'shirt-s'], text: 'Small chest 86–91 cm' },
  { values: ['m', 'shirt-m'], text: 'Medium chest 96–101 cm' },
  { values: ['l', 'shirt-l'], text: 'Large chest 106–111 cm' },
  { values: ['xl', 'shirt-xl'], text: 'Extra large chest 116–121 cm' },
];

const COUNTRIES: OptionFacts[] = [
  { values: [''], text: 'Select a country…' },
  { values: ['NL'], text: 'Netherlands' },
  { values: ['NZ'], text: 'New Zealand' },
  { values: ['NO'], text: 'Norway' },
];

describe('pickOption', () => {
  it('finds an option by its value, before any text', () => {
    expect(pickOption(COUNTRIES, 'NZ')).toEqual({ found: 2 });
    expect(pickOption(SHIRTS, 'shirt-l')).toEqual({ found: 2 });
  });

  it('finds an option by its exact text, then by its text in any case and spacing', () => {
    expect(pickOption(COUNTRIES, 'Norway')).toEqual({ found: 3 });
    expect(pickOption(COUNTRIES, '  new   zealand ')).toEqual({ found: 2 });
  });

  it('finds an option the page wrote with square brackets by the text the snapshot showed, round brackets and all', () => {
    const themes: OptionFacts[] = [
      { values: ['light'], text: 'Light' },
      { values: ['dark-beta'], text: '[Beta] Dark' },
    ];
    expect(pickOption(themes, '(Beta) Dark')).toEqual({ found: 1 });
    expect(pickOption(themes, '[Beta] Dark')).toEqual({ found: 1 });
  });

  it('finds a long option by the folded text the snapshot showed, marker and all, and does not guess when the shown start fits two', () => {
    const terms = 'I have read the [terms] of carriage, ' + 'and agree that the courier may leave the parcel in a safe place. '.repeat(8);
    const plans: OptionFacts[] = [
      { values: ['short'], text: 'No thanks' },
      { values: ['agree'], text: terms },
      { values: ['agree-call'], text: `${terms}Call me first.` },
    ];
    const shown = (text: string, at: number) => JSON.parse(quote(text, at, 'select_option takes what is shown')) as string;
    expect(shown(terms, 300)).toMatch(/^I have read the \(terms\) of carriage, .* … \[folded: \d+ more characters; select_option takes what is shown\]$/);
    expect(pickOption(plans, shown(terms, 300))).toEqual({ ambiguous: [1, 2] });
    expect(pickOption(plans.slice(0, 2), shown(terms, 300))).toEqual({ found: 1 });
    // Folded past the shared start ("… place. Call"), it fits one.
    expect(pickOption(plans, shown(`${terms}Call me first.`, terms.length + 5))).toEqual({ found: 2 });
  });

  it('takes the option whose text starts with the choice before one that merely contains it', () => {
    // "large" is inside both "Large …" and "Extra large …": the start of a text is what a person reads as its name.
    expect(pickOption(SHIRTS, 'Large')).toEqual({ found: 2 });
    expect(pickOption(SHIRTS, 'medium')).toEqual({ found: 1 });
  });

  it('accepts a part of the text that fits a single option', () => {
    expect(pickOption(SHIRTS, 'extra')).toEqual({ found: 3 });
    expect(pickOption(COUNTRIES, 'zealand')).toEqual({ found: 2 });
  });

  it('refuses to guess when a part of the text fits several options', () => {
    expect(pickOption(COUNTRIES, 'n')).toEqual({ ambiguous: [1, 2, 3] });
    expect(pickOption(SHIRTS, 'chest')).toEqual({ ambiguous: [0, 1, 2, 3] });
  });

  it('answers none when nothing fits, and for an empty choice', () => {
    expect(pickOption(COUNTRIES, 'Portugal')).toEqual({ none: true });
    expect(pickOption(COUNTRIES, '   ')).toEqual({ none: true });
  });

  it('takes the first of several options with the same exact text, as a native select does', () => {
    const twice: OptionFacts[] = [{ values: ['a'], text: 'Same' }, { values: ['b'], text: 'Same' }];
    expect(pickOption(twice, 'Same')).toEqual({ found: 0 });
  });
});

describe('describeOptions', () => {
  it('lists each option with its first value and tidy text, up to the limit', () => {
    expect(describeOptions(SHIRTS, 2)).toEqual([
      { value: 's', text: 'Small chest 86–91 cm' },
      { value: 'm', text: 'Medium chest 96–101 cm' },
    ]);
    expect(describeOptions([{ values: [], text: ' Graphite\n ' }])).toEqual([{ value: '', text: 'Graphite' }]);
  });
});
