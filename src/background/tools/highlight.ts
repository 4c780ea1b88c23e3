import * as z from 'zod/mini';
import { childRequestId, frameOfRef, REF_PATTERN } from '../../protocol';
import type { HighlightReport } from '../../content/highlight';
import { askFrameOrSkip, contextTab, injectPageScript, PAGE_AGENT } from '../page-scripts';
import { defineTool } from './tool';


const FrameReport: z.ZodMiniType<HighlightReport> = z.object({ highlighted: z.array(z.string()), missing: z.array(z.string()) });

/** Refs by the frame that owns them: f12e3 lives in frame 12, e3 in the page itself (frame 0). */
export function refsByFrame(refs: readonly string[]): Map<number, string[]> {
  const frames = new Map<number, string[]>();
  for (const ref of refs) {
    const frameId = frameOfRef(ref);
    frames.set(frameId, [...(frames.get(frameId) ?? []), ref]);
  }
  return frames;
}

/** What each frame is asked: its own refs, or (when refs were named) to drop its old outlines. */
export function frameRequests(refs: readonly string[], clear: boolean, frameIds: readonly number[]): Map<number, { refs: string[]; clear: boolean }> {
  const wanted = refsByFrame(refs);
  const everything = refs.length === 0;
  return new Map(frameIds.map((frameId) => {
    const own = wanted.get(frameId);
    return [frameId, clear || (!everything && !own) ? { refs: [], clear: true } : { refs: own ?? [], clear: false }];
  }));
}

/** One answer for the tab: every frame's outlined refs, and the refs no frame could find (a frame that is gone included). */
export function mergeReports(refs: readonly string[], reports: ReadonlyArray<HighlightReport | undefined>): HighlightReport {
  const highlighted = reports.flatMap((report) => report?.highlighted ?? []);
  const shown = new Set(highlighted);
  const missing = reports.flatMap((report) => report?.missing ?? []);
  const unanswered = refs.filter((ref) => !shown.has(ref) && !missing.includes(ref));
  return { highlighted, missing: [...missing, ...unanswered] };
}

export const highlight = defineTool({
  name: 'highlight',
  description:
    'Outline elements on the current page, each labelled with its ref, so the user can see what you mean: give refs from the snapshot tool, or none to outline everything the last snapshot listed. The outlines follow scrolling and never block clicks; clear: true removes them (so does the next snapshot or action). Answers which refs were outlined and which are no longer on the page.',
  params: z.object({
    refs: z._default(z.array(z.string().check(z.regex(REF_PATTERN, 'A ref looks like e12 or f3e7 (from the snapshot tool)'))).check(z.maxLength(5_000)), []),
    clear: z._default(z.boolean(), false),
  }),
  level: 'read-only',
  effects: {},
  async run({ refs, clear }, context) {
    const { requestId } = context;
    const tab = await contextTab(context);
    const frameIds = await injectPageScript(tab, PAGE_AGENT, { allFrames: true });
    const chain = childRequestId(requestId, 'highlight');
    const requests = frameRequests(clear ? [] : refs, clear, frameIds);
    const reports = await Promise.all(
      [...requests].map(([frameId, payload]) => askFrameOrSkip(tab, frameId, { type: 'HIGHLIGHT', requestId: chain, payload }, FrameReport)),
    );
    const merged = mergeReports(clear ? [] : refs, reports);
    return clear ? { cleared: true } : merged;
  },
});
