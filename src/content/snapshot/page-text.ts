/**
 * The page's own words, with square brackets made round: in the outline `[` only opens what
 * Jawad writes (a ref, a state), so no page can print a line that passes for a control.
 */
export function pageText(text: string): string {
  return text.replace(/\[/g, '(').replace(/\]/g, ')');
}
