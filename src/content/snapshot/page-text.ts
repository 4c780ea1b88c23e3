import { clipText, fold, oneLine } from '../../protocol/caps';

/**
 * The page's own words, with square brackets made round: in the outline `[` only opens what
 * Jawad writes (a ref, a state), so no page can print a line that passes for a control.
 */
export function pageText(text: string): string {
  return text.replace(/\[/g, '(').replace(/\]/g, ')');
}

/**
 * A name, value, title or option the page wrote, quoted: its square brackets made round like the
 * rest of its words, and folded past `at` characters (4,000 unless told), saying which tool gives it whole.
 */
export function quote(text: string, at?: number, whole?: string): string {
  return JSON.stringify(fold(pageText(oneLine(text)), at, whole));
}

/** Text on one line (its whitespace collapsed), cut to `max` characters with an ellipsis: a short label, not content. */
export function clip(text: string, max: number): string {
  return clipText(oneLine(text), max);
}
