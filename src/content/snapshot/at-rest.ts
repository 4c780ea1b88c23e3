/**
 * A snapshot describes the page as a person sees it once it holds still. Right after a click the
 * page is often mid-fade: Vector's "More" menu is made visible at once but fades in from opacity 0
 * over 100 ms, and a snapshot taken in that moment judges its items invisible and gives them no refs.
 */

/** The longest a snapshot waits; a transition still running after it is read as it stands. */
export const MAX_SETTLE_MS = 400;

/**
 * How long until the transitions and animations now running have ended (at most MAX_SETTLE_MS).
 * Endless ones — spinners, pulsing badges — never end, so they are not waited for.
 */
export function settlesIn(document: Document): number {
  // Older engines and test DOMs have no Web Animations API: nothing to wait for.
  if (typeof document.getAnimations !== 'function') return 0;
  let longest = 0;
  for (const animation of document.getAnimations()) {
    if (animation.playState !== 'running') continue;
    const end = Number(animation.effect?.getComputedTiming().endTime);
    const now = Number(animation.currentTime);
    const rate = Math.abs(animation.playbackRate) || 1;
    const left = (end - now) / rate;
    if (Number.isFinite(left) && left > longest) longest = left;
  }
  return Math.min(Math.ceil(longest), MAX_SETTLE_MS);
}
