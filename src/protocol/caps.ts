/**
 * Every string a page controls that enters a prompt or a message has a cap, so a page cannot make
 * a step cost more than a normal page does (a 5 MB <title> would otherwise be resent on every
 * model call, and push everything after it out of a cut).
 */
export const CAPS = {
  /** A document or tab title. */
  title: 300,
  /** A page address, a link destination, a tab's URL. */
  url: 2_000,
  /** An element's name where it stands for the element (a ref list's entry, what a prompt names); the snapshot's outline gives it whole. */
  name: 300,
  /** A product fact (name, brand…) from the page's structured data. */
  productField: 150,
  /** What `get` reads (text, HTML, a value or an attribute). */
  read: 20_000,
  /** What a page's own alert, confirmation or prompt box said. */
  dialog: 1_000,
  /** An error's message, which may name page content (an option list, the element on top). */
  errorMessage: 1_000,
  /** An error's details, as JSON. */
  errorDetails: 4_000,
} as const;

/** Text on one line: its runs of whitespace (line breaks too) collapsed to one space, its ends trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The text, cut to `max` characters with an ellipsis when longer. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
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
