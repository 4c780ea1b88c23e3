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

/** Text whole up to FOLD_AT characters; beyond, cut at a word and marked as folded. */
export function fold(text: string): string {
  if (text.length <= FOLD_AT) return text;
  const cut = text.lastIndexOf(' ', FOLD_AT);
  const kept = text.slice(0, cut > FOLD_AT / 2 ? cut : FOLD_AT);
  return `${kept} … [folded: ${text.length - kept.length} more characters; get or read_page gives all]`;
}
