/**
 * A snapshot describes the page as a person sees it once it holds still. Right after a click the
 * page is often mid-fade: Vector's "More" menu is made visible at once but fades in from opacity 0
 * over 100 ms, and a snapshot taken in that moment judges its items invisible and gives them no refs.
 */
import { afterNextFrame, pause } from '../actions/gestures';

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

/**
 * Waits until the page holds still, at most MAX_SETTLE_MS in all: the transitions running now, and
 * those their ends set off (Bootstrap shows a modal, and fades it in, only once its backdrop has
 * faded in: a snapshot at the backdrop's end read the modal as a covering box with nothing in it).
 */
export async function settle(document: Document): Promise<void> {
  const deadline = performance.now() + MAX_SETTLE_MS;
  for (let wait = settlesIn(document); wait > 0; wait = Math.min(settlesIn(document), Math.floor(deadline - performance.now()))) {
    await pause(wait);
    // A transition's end is told to the page as the next frame is drawn; what it starts shows after it.
    await afterNextFrame();
  }
}
