import * as z from 'zod/mini';
import { childRequestId, FrameToken, PageSnapshot } from '../../protocol';
import { activeTab, askFrame, injectPageScript, PAGE_AGENT } from '../page-scripts';
import { mergeFrameSnapshots } from './merge-frames';
import { defineTool } from './tool';

/** A frame that has not answered by then (never loaded, hung) is left out, not waited on. */
const FRAME_TIMEOUT_MS = 3_000;

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
    const walks = await Promise.all(
      frameIds.map(async (frameId) => {
        const request = { type: 'SNAPSHOT' as const, requestId: chain, payload: { ...params, framePrefix: frameId === 0 ? '' : `f${frameId}` } };
        const answer = await askFrame(tab, frameId, request, PageSnapshot, frameId === 0 ? undefined : FRAME_TIMEOUT_MS).catch((error: unknown) => {
          if (frameId === 0) throw error;
          return undefined;
        });
        return { frameId, answer };
      }),
    );
    // Then each frame says which token it was given, which tells where its outline goes.
    const byToken = new Map<string, PageSnapshot | undefined>();
    await Promise.all(
      walks
        .filter((walk) => walk.frameId !== 0)
        .map(async ({ frameId, answer }) => {
          const request = { type: 'FRAME_TOKEN' as const, requestId: chain, payload: {} };
          const { token } = await askFrame(tab, frameId, request, FrameToken, FRAME_TIMEOUT_MS).catch(() => ({ token: null }));
          if (token) byToken.set(token, answer);
        }),
    );
    return mergeFrameSnapshots(walks.find((walk) => walk.frameId === 0)!.answer!, byToken);
  },
});
