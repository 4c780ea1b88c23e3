import { describe, expect, it, vi } from 'vitest';

// The tool's run() talks to the browser (tested end to end); these tests cover how it splits the
// request between frames and puts their answers together.
vi.mock('webextension-polyfill', () => ({ default: {} }));
vi.mock('../../../src/background/page-scripts', () => ({ contextTab: vi.fn(), activeTab: vi.fn(), askFrameOrSkip: vi.fn(), injectPageScript: vi.fn(), PAGE_AGENT: {} }));

import { frameRequests, highlight, mergeReports, refsByFrame } from '../../../src/background/tools/highlight';

describe('the highlight tool', () => {
  it('sends each ref to the frame that owns it (f12e3 to frame 12, e3 to the page)', () => {
    expect(refsByFrame(['e3', 'f12e1', 'e7', 'f12e4', 'f5e2'])).toEqual(new Map([[0, ['e3', 'e7']], [12, ['f12e1', 'f12e4']], [5, ['f5e2']]]));
  });

  it('asks every frame to outline its part of the last snapshot when no refs are named', () => {
    expect(frameRequests([], false, [0, 5])).toEqual(new Map([[0, { refs: [], clear: false }], [5, { refs: [], clear: false }]]));
  });

  it('clears the frames that own none of the named refs, so only those show', () => {
    expect(frameRequests(['f5e2'], false, [0, 5, 9])).toEqual(new Map([[0, { refs: [], clear: true }], [5, { refs: ['f5e2'], clear: false }], [9, { refs: [], clear: true }]]));
  });

  it('clears every frame on clear: true', () => {
    expect(frameRequests([], true, [0, 5])).toEqual(new Map([[0, { refs: [], clear: true }], [5, { refs: [], clear: true }]]));
  });

  it('reports refs in a frame that is gone or did not answer as missing', () => {
    const merged = mergeReports(['e1', 'e2', 'f5e1', 'f8e1'], [{ highlighted: ['e1'], missing: ['e2'] }, undefined]);
    expect(merged).toEqual({ highlighted: ['e1'], missing: ['e2', 'f5e1', 'f8e1'] });
  });

  it('is read-only and refuses what is not a ref', () => {
    expect(highlight.level).toBe('read-only');
    expect(highlight.params.safeParse({ refs: ['e1', 'f2e3'] }).success).toBe(true);
    expect(highlight.params.safeParse({ refs: ['button-1'] }).success).toBe(false);
    expect(highlight.params.safeParse({ refs: 'e1' }).success).toBe(false);
    expect(highlight.params.safeParse({}).data).toEqual({ refs: [], clear: false });
  });
});
