import { describe, expect, it } from 'vitest';
import { mergeFrameSnapshots } from '../../../src/background/tools/merge-frames';
import type { PageSnapshot } from '../../../src/protocol';

function frame(text: string, refs: string[], elementCount = 10, partial = false): PageSnapshot {
  return { url: 'u', title: 't', text, refs: refs.map((ref) => ({ ref, role: 'button', name: ref, tag: 'button' })), elementCount, partial };
}

describe('mergeFrameSnapshots', () => {
  it('puts each frame’s outline, indented, under the line that marks its place', () => {
    const merged = mergeFrameSnapshots(
      frame('- button "Top" [ref=e1]\n- iframe "Widget" [frame=t77]\n- link "After" [ref=e2]', ['e1', 'e2']),
      new Map([
        ['t77', frame('- button "Inside" [ref=f7e1]\n- iframe [frame=t99]', ['f7e1'], 5)],
        ['t99', frame('- text: deep', [], 2, true)],
      ]),
    );
    expect(merged.text).toBe(
      ['- button "Top" [ref=e1]', '- iframe "Widget" [frame=t77]', '  - button "Inside" [ref=f7e1]', '  - iframe [frame=t99]', '    - text: deep', '- link "After" [ref=e2]'].join('\n'),
    );
    expect(merged.refs.map((r) => r.ref)).toEqual(['e1', 'e2', 'f7e1']);
    expect(merged.elementCount).toBe(17);
    expect(merged.partial).toBe(true);
  });

  it('leaves out frames nothing points to (their <iframe> is hidden)', () => {
    const merged = mergeFrameSnapshots(frame('- button "Top" [ref=e1]', ['e1']), new Map([['t4', frame('- button "Secret" [ref=f4e1]', ['f4e1'])]]));
    expect(merged.text).not.toContain('Secret');
    expect(merged.refs.map((r) => r.ref)).toEqual(['e1']);
  });

  it('says so where a frame did not answer', () => {
    const merged = mergeFrameSnapshots(frame('- iframe "Slow" [frame=t3]', []), new Map([['t3', undefined]]));
    expect(merged.text).toContain('  - note: this frame did not answer');
  });

  it('says so where a frame never reported its token (it did not load)', () => {
    const merged = mergeFrameSnapshots(frame('- iframe "Never loads" [frame=t5]', []), new Map());
    expect(merged.text).toContain('  - note: this frame did not answer');
  });
});
