/**
 * In a frame's isolated world: clears LEAVE_ASKED and, `on`, marks the page's next `beforeunload`
 * with it (one listener, kept on the global as `watch`, however often armed), or stops marking.
 * Self-contained: the background also runs it in a frame (scripting.executeScript), and the page
 * agent calls it for a navigation an action set off that had not begun when the action answered.
 */
export function markUnload(asked: string, watch: string, on: boolean): void {
  const scope = globalThis as unknown as Record<string, (() => void) | boolean | undefined>;
  delete scope[asked];
  const mark = (scope[watch] as (() => void) | undefined) ?? (() => void (scope[asked] = true));
  scope[watch] = mark;
  if (on) addEventListener('beforeunload', mark);
  else removeEventListener('beforeunload', mark);
}
