import { describe, expect, it } from 'vitest';
import { mergeFrameSnapshots, placeFrames } from '../../../src/background/tools/merge-frames';
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

  it('says so where a frame never claimed its place (it did not load), and where the page made its place uncertain', () => {
    const top = frame('- iframe "A" [frame=t1]\n- iframe "B" [frame=t2]', []);
    const merged = mergeFrameSnapshots(top, new Map([['t1', undefined]]));
    expect(merged.text).toContain('- iframe "A" [frame=t1]\n  - note: this frame did not answer');
    expect(merged.text).toContain('- iframe "B" [frame=t2]\n  - note: this frame is left out');
  });
});

describe('placeFrames', () => {
  const frameOfClaim = new Map([['n1', 11], ['n2', 12], ['n3', 13]]);

  it('puts each frame at the iframe whose own window posted its claim', () => {
    expect(placeFrames(new Map([['t1', ['n1']], ['t2', ['n2']]]), frameOfClaim)).toEqual(new Map([['t1', 11], ['t2', 12]]));
  });

  it('leaves out an iframe whose window posted two claims (a page re-posting another frame’s claim)', () => {
    expect(placeFrames(new Map([['t1', ['n1', 'n3']], ['t2', ['n2']]]), frameOfClaim)).toEqual(new Map([['t2', 12]]));
  });

  it('uses a claim once: two iframes saying the same claim both stay out', () => {
    expect(placeFrames(new Map([['t1', ['n1']], ['t2', ['n1']]]), frameOfClaim)).toEqual(new Map());
  });

  it('ignores claims from another snapshot', () => {
    expect(placeFrames(new Map([['t1', ['n9', 'n1']]]), frameOfClaim)).toEqual(new Map([['t1', 11]]));
  });
});
