import { describe, expect, it } from 'vitest';
import { RefRegistry } from '../../../src/content/snapshot/refs';

/** Stands in for a DOM element: the registry only asks whether it is still in the document. */
function fakeElement(): Element & { isConnected: boolean } {
  return { isConnected: true } as unknown as Element & { isConnected: boolean };
}

describe('RefRegistry', () => {
  it('gives an element the same ref every time, and each element its own, with the frame’s prefix', () => {
    const refs = new RefRegistry('f3');
    const button = fakeElement();
    const link = fakeElement();
    expect(refs.refFor(button)).toBe('f3e1');
    expect(refs.refFor(link)).toBe('f3e2');
    expect(refs.refFor(button)).toBe('f3e1');
    expect(refs.resolve('f3e2')).toBe(link);
  });

  it('answers STALE_REF for a removed element and for a ref it never gave, never another element', () => {
    const refs = new RefRegistry();
    const removed = fakeElement();
    refs.refFor(removed);
    refs.refFor(fakeElement());
    removed.isConnected = false;
    expect(() => refs.resolve('e1')).toThrow(expect.objectContaining({ code: 'STALE_REF' }));
    expect(() => refs.resolve('e99')).toThrow(expect.objectContaining({ code: 'STALE_REF' }));
  });

  it('remembers the refs the latest snapshot listed, for “highlight everything”', () => {
    const refs = new RefRegistry();
    expect(refs.lastListed()).toEqual([]);
    refs.rememberListed(['e1', 'e2']);
    refs.rememberListed(['e2', 'e5']);
    expect(refs.lastListed()).toEqual(['e2', 'e5']);
  });
});
