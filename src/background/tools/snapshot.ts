import * as z from 'zod/mini';
import { childRequestId, FrameToken, PageSnapshot } from '../../protocol';
import { activeTab, askFrame, askFrameOrSkip, FRAME_TIMEOUT_MS, injectPageScript, PAGE_AGENT, type TargetTab } from '../page-scripts';
import { mergeFrameSnapshots } from './merge-frames';
import { defineTool } from './tool';

/** The parent's token travels by postMessage and can land after the background asks: ask again a few times. */
const TOKEN_RETRIES = 6;
const TOKEN_RETRY_MS = 30;
/** How long frames may take past the page's own walk. */
const FRAME_GRACE_MS = 250;

interface FrameWalk {
  frameId: number;
  answer: PageSnapshot | undefined;
}

/** The tokens the parents handed out: one `[frame=t…]` placeholder per visible iframe. */
function handedOut(walks: FrameWalk[]): Set<string> {
  const tokens = new Set<string>();
  for (const { answer } of walks) for (const match of answer?.text.matchAll(/\[frame=(t\d+)\]/g) ?? []) tokens.add(match[1]!);
  return tokens;
}

/** Each frame says which token its parent gave it, which tells where its outline goes. */
async function claimFrameTokens(tab: TargetTab, requestId: string, walks: FrameWalk[]): Promise<Map<string, PageSnapshot | undefined>> {
  const byToken = new Map<string, PageSnapshot | undefined>();
  const expected = handedOut(walks);
  let unclaimed = walks.filter((walk) => walk.frameId !== 0);
  for (let attempt = 0; attempt <= TOKEN_RETRIES && unclaimed.length > 0; attempt++) {
    if (attempt > 0) await new Promise((done) => setTimeout(done, TOKEN_RETRY_MS));
    const answers = await Promise.all(
      unclaimed.map(async (walk) => {
        const request = { type: 'FRAME_TOKEN' as const, requestId, payload: {} };
        const { token } = await askFrame(tab, walk.frameId, request, FrameToken, FRAME_TIMEOUT_MS).catch(() => ({ token: null }));
        if (token) byToken.set(token, walk.answer);
        return { walk, token };
      }),
    );
    const claimed = unclaimed.length - answers.filter((answer) => answer.token === null).length;
    unclaimed = answers.filter((answer) => answer.token === null).map((answer) => answer.walk);
    // Frames without a token are hidden ones (no placeholder), and a placeholder whose frame never
    // answered (an ad that never loads) is never claimed: stop once every placeholder is claimed,
    // or once a retry claims nothing more, rather than waiting out every retry.
    if ([...expected].every((token) => byToken.has(token)) || (attempt > 0 && claimed === 0)) break;
  }
  return byToken;
}

export const snapshot = defineTool({
  name: 'snapshot',
  description:
    'List everything on the current page a user can act on — links, buttons, fields, checkboxes, menus, custom widgets, inside frames too — each with a ref (e1, e2, …; f12e3 inside a frame) to act on it, its role, name and state, and the visible text around them. Hidden content is left out. Long lists show 20 rows at a time: pass page: 2, 3, … for the next rows.',
  params: z.object({
    maxRefs: z._default(z.int().check(z.minimum(1), z.maximum(20_000)), 3_000),
    timeBudgetMs: z._default(z.int().check(z.minimum(10), z.maximum(10_000)), 800),
    /** Long lists show 20 rows at a time; page 2 shows rows 21–40, and so on. */
    page: z._default(z.int().check(z.minimum(1), z.maximum(100_000)), 1),
  }),
  level: 'read-only',
  async run(params, { requestId, windowId }) {
    const tab = await activeTab(windowId);
    const frameIds = await injectPageScript(tab, PAGE_AGENT, { allFrames: true });
    const chain = childRequestId(requestId, 'snapshot');
    // Every frame walks itself; each parent's walk hands its visible iframes their tokens.
    const ask = (frameId: number) => {
      const request = { type: 'SNAPSHOT' as const, requestId: chain, payload: { ...params, framePrefix: frameId === 0 ? '' : `f${frameId}` } };
      return askFrameOrSkip(tab, frameId, request, PageSnapshot);
    };
    const page = ask(0);
    // A frame still walking FRAME_GRACE_MS after the page is done (hung, still loading) is left
    // out and said to be, rather than holding the whole snapshot up to its time limit.
    const grace = page.then(() => new Promise<undefined>((done) => setTimeout(done, FRAME_GRACE_MS)), () => undefined);
    const walks = await Promise.all(
      frameIds.map(async (frameId) => ({ frameId, answer: frameId === 0 ? await page : await Promise.race([ask(frameId), grace]) })),
    );
    const byToken = await claimFrameTokens(tab, chain, walks);
    return mergeFrameSnapshots(walks.find((walk) => walk.frameId === 0)!.answer!, byToken);
  },
});
