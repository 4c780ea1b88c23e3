import { clipText, oneLine } from '../../protocol/caps';

/**
 * The page's own words, with square brackets made round: in the outline `[` only opens what
 * Jawad writes (a ref, a state), so no page can print a line that passes for a control.
 */
export function pageText(text: string): string {
  return text.replace(/\[/g, '(').replace(/\]/g, ')');
}

/**
 * Longer text is folded, and the snapshot says so where it does: the snapshot is for finding
 * things and acting; get and read_page return text whole.
 */
const FOLD_AT = 4_000;

/** Text whole up to `at` characters; beyond, cut at a word and marked as folded, saying which tool gives it `whole`. */
export function fold(text: string, at = FOLD_AT, whole = 'get or read_page gives all'): string {
  if (text.length <= at) return text;
  const cut = text.lastIndexOf(' ', at);
  const kept = text.slice(0, cut > at / 2 ? cut : at);
  return `${kept} … [folded: ${text.length - kept.length} more characters; ${whole}]`;
}

const FOLD_MARK = / … \[folded: \d+ more characters; [^\]]*\]$/;

/** What a folded text showed, without its marker (a model quoting it back); other text as it is. */
export function unfolded(text: string): string {
  return text.replace(FOLD_MARK, '');
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
