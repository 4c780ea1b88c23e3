/**
 * Which option a model meant. Models ask for an option by its value ("PT"), its exact text
 * ("Portugal"), its text in another case ("portugal") or a part of its text ("Extra" for "Extra
 * large — chest 116 cm"). Each way is tried in that order, and the first that finds something wins,
 * so a value or an exact text is never beaten by a looser match. A loose match that fits several
 * options is not guessed at: the caller lists them.
 */
import { oneLine, unfolded } from '../../protocol/caps';
import { pageText } from '../snapshot/page-text';

export interface OptionFacts {
  /** Values the option answers to: a native option's value; a custom one's data-value, value or id. */
  values: string[];
  /** The visible text (or the accessible name when there is one). */
  text: string;
}

export type OptionPick = { found: number } | { ambiguous: number[] } | { none: true };

/** The same text in any case and spacing. */
export const folded = (text: string) => oneLine(text).toLocaleLowerCase();
/** Text as the snapshot shows it, in any case: brackets made round, a fold's marker dropped. */
const shown = (text: string) => folded(pageText(unfolded(oneLine(text))));

type Test = (option: OptionFacts, wanted: string) => boolean;

/** From strictest to loosest; the first test that matches anything decides. */
const TESTS: Array<{ test: Test; loose: boolean }> = [
  { test: (o, wanted) => o.values.includes(wanted), loose: false },
  { test: (o, wanted) => oneLine(o.text) === oneLine(wanted), loose: false },
  { test: (o, wanted) => folded(o.text) === folded(wanted) || o.values.some((v) => folded(v) === folded(wanted)), loose: false },
  // As the snapshot showed it: the page's square brackets made round ("[Beta] Dark" reads "(Beta) Dark").
  { test: (o, wanted) => folded(pageText(o.text)) === folded(wanted), loose: false },
  // A part of its text, as the page wrote it or as the snapshot showed it (a long one folded).
  { test: (o, wanted) => shown(o.text).startsWith(shown(wanted)), loose: true },
  { test: (o, wanted) => shown(o.text).includes(shown(wanted)), loose: true },
];

export function pickOption(options: readonly OptionFacts[], wanted: string): OptionPick {
  if (!oneLine(wanted)) return { none: true };
  for (const { test, loose } of TESTS) {
    const hits = options.flatMap((option, index) => (test(option, wanted) ? [index] : []));
    if (hits.length === 1 || (hits.length > 1 && !loose)) return { found: hits[0]! };
    if (hits.length > 1) return { ambiguous: hits };
  }
  return { none: true };
}

/** How an option is listed to the model when its choice matched none or several. */
export function describeOptions(options: readonly OptionFacts[], limit = 50): Array<{ value: string; text: string }> {
  return options.slice(0, limit).map((option) => ({ value: option.values[0] ?? '', text: oneLine(option.text) }));
}
