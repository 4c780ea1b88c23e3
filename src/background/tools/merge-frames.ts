import type { PageSnapshot } from '../../protocol';

const PLACEHOLDER = /\[frame=(t\d+)\]$/;

/**
 * Splices each frame's outline into its parent's at the `[frame=<token>]` line the parent wrote
 * for it. Only frames reachable that way are included: a frame whose <iframe> is hidden has no
 * placeholder, so nothing inside it shows. `undefined` marks a frame that did not answer.
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
        lines.push(`${indent}  - note: this frame did not answer (still loading, or the browser does not let extensions in)`);
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
