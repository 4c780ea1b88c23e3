import type { PageSnapshot } from '../../protocol';

const PLACEHOLDER = /\[frame=(t\d+)\]$/;

/**
 * Splices each frame's outline into its parent's at the `[frame=<token>]` line the parent wrote
 * for it. Only frames reachable that way are included: a frame whose <iframe> is hidden has no
 * placeholder, so nothing inside it shows. `undefined` marks a frame that did not answer; a token
 * missing from `frames` is a frame whose place could not be confirmed (see placeFrames).
 */
export function mergeFrameSnapshots(top: PageSnapshot, frames: ReadonlyMap<string, PageSnapshot | undefined>): PageSnapshot {
  const merged: PageSnapshot = { ...top, refs: [...top.refs], text: '', documents: { ...top.documents } };
  const seen = new Set<string>();
  const lines: string[] = [];
  const splice = (snapshot: PageSnapshot, indent: string) => {
    for (const line of snapshot.text.split('\n')) {
      if (line) lines.push(indent + line);
      const token = PLACEHOLDER.exec(line)?.[1];
      if (!token || seen.has(token)) continue;
      seen.add(token);
      const child = frames.get(token);
      if (!child) {
        lines.push(frames.has(token)
          ? `${indent}  - note: this frame did not answer (still loading, or the browser does not let extensions in)`
          : `${indent}  - note: this frame is left out: the page interfered with telling which frame it is`);
        continue;
      }
      merged.refs.push(...child.refs);
      Object.assign(merged.documents!, child.documents);
      merged.elementCount += child.elementCount;
      merged.partial ||= child.partial;
      splice(child, `${indent}  `);
    }
  };
  splice(top, '');
  merged.text = lines.join('\n');
  return merged;
}

/**
 * Which frame goes at which `[frame=<token>]` line, from what the parents said came from each
 * <iframe>'s own window (`claimsByToken`) and which frame each claim was handed to. A token is
 * placed only when exactly one claim of this snapshot came from its window, and a claim is used
 * at most once: a page that re-posts claims gets its frames left out, never swapped.
 */
export function placeFrames(claimsByToken: ReadonlyMap<string, readonly string[]>, frameOfClaim: ReadonlyMap<string, number>): Map<string, number> {
  const placed = new Map<string, number>();
  const usedBy = new Map<string, string[]>();
  for (const [token, claims] of claimsByToken) {
    const ours = claims.filter((claim) => frameOfClaim.has(claim));
    if (ours.length !== 1) continue;
    usedBy.set(ours[0]!, [...(usedBy.get(ours[0]!) ?? []), token]);
  }
  for (const [claim, tokens] of usedBy) if (tokens.length === 1) placed.set(tokens[0]!, frameOfClaim.get(claim)!);
  return placed;
}
